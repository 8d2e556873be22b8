/// A splice descriptor from a section's descriptor loop.
public enum SpliceDescriptor: Sendable, Hashable {
    /// `avail_descriptor` (tag 0x00).
    case avail(providerAvailID: UInt32)
    /// `DTMF_descriptor` (tag 0x01).
    case dtmf(preroll: UInt8, characters: String)
    /// `segmentation_descriptor` (tag 0x02).
    case segmentation(SegmentationDescriptor)
    /// `time_descriptor` (tag 0x03): TAI time.
    case time(taiSeconds: UInt64, taiNanoseconds: UInt32, utcOffset: UInt16)
    /// Any other descriptor (including `audio_descriptor`), as raw bytes after the identifier.
    case other(tag: UInt8, identifier: UInt32, bytes: [UInt8])

    static func decodeLoop(reader: inout BitReader, length: Int) throws(SCTE35Error) -> [SpliceDescriptor] {
        var descriptors: [SpliceDescriptor] = []
        var remaining = length
        while remaining >= 2 {
            let start = reader.byteOffset
            let tag = try reader.byte()
            let descriptorLength = Int(try reader.byte())
            guard descriptorLength + 2 <= remaining, descriptorLength >= 4 else {
                throw SCTE35Error.invalidDescriptorLength(at: start)
            }
            let body = try reader.bytes(descriptorLength)
            var bodyReader = BitReader(body)
            let identifier = UInt32(try bodyReader.bits(32))
            descriptors.append(try decode(tag: tag, identifier: identifier, reader: &bodyReader, body: body))
            remaining -= descriptorLength + 2
        }
        if remaining > 0 { try reader.skip(bits: remaining * 8) }
        return descriptors
    }

    private static func decode(tag: UInt8, identifier: UInt32, reader: inout BitReader, body: [UInt8])
        throws(SCTE35Error) -> SpliceDescriptor
    {
        switch tag {
        case 0x00:
            return .avail(providerAvailID: UInt32(try reader.bits(32)))
        case 0x01:
            let preroll = try reader.byte()
            let count = Int(try reader.bits(3))
            try reader.skip(bits: 5)
            let characters = try reader.bytes(count)
            return .dtmf(preroll: preroll, characters: String(decoding: characters, as: UTF8.self))
        case 0x02:
            return .segmentation(try SegmentationDescriptor.decode(&reader))
        case 0x03:
            let seconds = try reader.bits(48)
            let nanoseconds = UInt32(try reader.bits(32))
            let offset = UInt16(try reader.bits(16))
            return .time(taiSeconds: seconds, taiNanoseconds: nanoseconds, utcOffset: offset)
        default:
            return .other(tag: tag, identifier: identifier, bytes: Array(body.dropFirst(4)))
        }
    }
}

/// `segmentation_descriptor()`: what a time signal or splice means (ad, program, chapter…), with its UPID.
public struct SegmentationDescriptor: Sendable, Hashable {
    /// Delivery restrictions, present when `delivery_not_restricted_flag` is 0.
    public struct DeliveryRestrictions: Sendable, Hashable {
        public var webDeliveryAllowed: Bool
        public var noRegionalBlackout: Bool
        public var archiveAllowed: Bool
        public var deviceRestrictions: UInt8
    }

    public struct Component: Sendable, Hashable {
        public var tag: UInt8
        public var ptsOffset: UInt64
    }

    /// `segmentation_event_id`.
    public var eventID: UInt32
    /// `segmentation_event_cancel_indicator`.
    public var isCancelled: Bool
    /// `program_segmentation_flag`.
    public var isProgramSegmentation: Bool
    public var deliveryRestrictions: DeliveryRestrictions?
    public var components: [Component]
    /// `segmentation_duration`, in 90 kHz ticks.
    public var duration: UInt64?
    /// `segmentation_upid()`: what the segment is (a program, an ad…).
    public var upid: SegmentationUPID
    /// `segmentation_type_id`.
    public var typeID: UInt8
    /// `segment_num`.
    public var segmentNumber: UInt8
    /// `segments_expected`.
    public var segmentsExpected: UInt8
    /// `sub_segment_num`, for the placement-opportunity types that carry it.
    public var subSegmentNumber: UInt8?
    /// `sub_segments_expected`.
    public var subSegmentsExpected: UInt8?

    /// The duration in seconds.
    public var durationSeconds: Double? { duration.map { Double($0) / 90_000 } }

    /// The name of ``typeID`` from the specification's table, e.g. "Provider Placement Opportunity Start".
    public var typeName: String { SegmentationType.name(of: typeID) }

    /// Whether the type starts an ad: a break start, a provider or distributor advertisement, or a placement
    /// opportunity start.
    public var startsAd: Bool { [0x22, 0x30, 0x32, 0x34, 0x36, 0x38, 0x3A, 0x3C, 0x3E, 0x44, 0x46].contains(typeID) }
    /// Whether the type ends an ad: the ends of the types ``startsAd`` names.
    public var endsAd: Bool { [0x23, 0x31, 0x33, 0x35, 0x37, 0x39, 0x3B, 0x3D, 0x3F, 0x45, 0x47].contains(typeID) }

    /// For an end type, the start type it closes (a Program End 0x11 closes a Program Start 0x10, a Provider
    /// Placement Opportunity End 0x35 its Start 0x34); `nil` for the other types.
    public var closedStartTypeID: UInt8? {
        let pairs: Set<UInt8> = [0x11, 0x21, 0x23, 0x31, 0x33, 0x35, 0x37, 0x39, 0x3B, 0x3D, 0x3F, 0x41, 0x43, 0x45, 0x47]
        return pairs.contains(typeID) ? typeID - 1 : nil
    }

    static func decode(_ reader: inout BitReader) throws(SCTE35Error) -> SegmentationDescriptor {
        let eventID = UInt32(try reader.bits(32))
        let cancelled = try reader.flag()
        try reader.skip(bits: 7)
        var descriptor = SegmentationDescriptor(
            eventID: eventID, isCancelled: cancelled, isProgramSegmentation: true, deliveryRestrictions: nil,
            components: [], duration: nil, upid: .none, typeID: 0, segmentNumber: 0, segmentsExpected: 0)
        guard !cancelled else { return descriptor }
        descriptor.isProgramSegmentation = try reader.flag()
        let hasDuration = try reader.flag()
        let notRestricted = try reader.flag()
        if notRestricted {
            try reader.skip(bits: 5)
        } else {
            descriptor.deliveryRestrictions = DeliveryRestrictions(
                webDeliveryAllowed: try reader.flag(), noRegionalBlackout: try reader.flag(),
                archiveAllowed: try reader.flag(), deviceRestrictions: UInt8(try reader.bits(2)))
        }
        if !descriptor.isProgramSegmentation {
            let count = Int(try reader.byte())
            for _ in 0..<count {
                let tag = try reader.byte()
                try reader.skip(bits: 7)
                descriptor.components.append(Component(tag: tag, ptsOffset: try reader.bits(33)))
            }
        }
        if hasDuration { descriptor.duration = try reader.bits(40) }
        let upidType = try reader.byte()
        let upidLength = Int(try reader.byte())
        descriptor.upid = SegmentationUPID(type: upidType, bytes: try reader.bytes(upidLength))
        descriptor.typeID = try reader.byte()
        descriptor.segmentNumber = try reader.byte()
        descriptor.segmentsExpected = try reader.byte()
        if [0x34, 0x30, 0x32, 0x36, 0x38, 0x3A, 0x44, 0x46].contains(descriptor.typeID), reader.remainingBytes >= 2 {
            descriptor.subSegmentNumber = try reader.byte()
            descriptor.subSegmentsExpected = try reader.byte()
        }
        return descriptor
    }
}

/// `segmentation_upid()`: the identifier of the content or ad a segmentation descriptor refers to.
public enum SegmentationUPID: Sendable, Hashable, CustomStringConvertible {
    case none
    /// Text identifiers (URI 0x0F, ADI 0x09, MPU 0x0C…), decoded as UTF-8.
    case text(type: UInt8, String)
    /// Binary identifiers (TI 0x08, ISAN 0x06, UUID 0x10…), as bytes.
    case binary(type: UInt8, [UInt8])
    /// `MID()` (0x0D): several UPIDs.
    case multiple([SegmentationUPID])

    init(type: UInt8, bytes: [UInt8]) {
        switch type {
        case 0x00 where bytes.isEmpty: self = .none
        case 0x01, 0x02, 0x03, 0x07, 0x09, 0x0A, 0x0E, 0x0F, 0x11:
            self = .text(type: type, String(decoding: bytes, as: UTF8.self))
        case 0x0D:
            var parts: [SegmentationUPID] = []
            var index = 0
            while index + 2 <= bytes.count {
                let partType = bytes[index]
                let length = Int(bytes[index + 1])
                guard index + 2 + length <= bytes.count else { break }
                parts.append(SegmentationUPID(type: partType, bytes: Array(bytes[(index + 2)..<(index + 2 + length)])))
                index += 2 + length
            }
            self = .multiple(parts)
        default:
            self = .binary(type: type, bytes)
        }
    }

    public var description: String {
        switch self {
        case .none: return "none"
        case .text(let type, let text): return "\(SegmentationType.upidName(of: type)):\(text)"
        case .binary(let type, let bytes):
            return "\(SegmentationType.upidName(of: type)):0x" + bytes.map { byte in
                let digits = String(byte, radix: 16)
                return digits.count == 1 ? "0" + digits : digits
            }.joined()
        case .multiple(let parts): return "MID(" + parts.map(\.description).joined(separator: ",") + ")"
        }
    }
}

/// Names from the specification's tables of segmentation types and UPID types.
public enum SegmentationType {
    public static func name(of typeID: UInt8) -> String {
        switch typeID {
        case 0x00: return "Not Indicated"
        case 0x01: return "Content Identification"
        case 0x02: return "Call Ad Server"
        case 0x10: return "Program Start"
        case 0x11: return "Program End"
        case 0x12: return "Program Early Termination"
        case 0x13: return "Program Breakaway"
        case 0x14: return "Program Resumption"
        case 0x15: return "Program Runover Planned"
        case 0x16: return "Program Runover Unplanned"
        case 0x17: return "Program Overlap Start"
        case 0x18: return "Program Blackout Override"
        case 0x19: return "Program Join"
        case 0x20: return "Chapter Start"
        case 0x21: return "Chapter End"
        case 0x22: return "Break Start"
        case 0x23: return "Break End"
        case 0x24: return "Opening Credit Start"
        case 0x25: return "Opening Credit End"
        case 0x26: return "Closing Credit Start"
        case 0x27: return "Closing Credit End"
        case 0x30: return "Provider Advertisement Start"
        case 0x31: return "Provider Advertisement End"
        case 0x32: return "Distributor Advertisement Start"
        case 0x33: return "Distributor Advertisement End"
        case 0x34: return "Provider Placement Opportunity Start"
        case 0x35: return "Provider Placement Opportunity End"
        case 0x36: return "Distributor Placement Opportunity Start"
        case 0x37: return "Distributor Placement Opportunity End"
        case 0x38: return "Provider Overlay Placement Opportunity Start"
        case 0x39: return "Provider Overlay Placement Opportunity End"
        case 0x3A: return "Distributor Overlay Placement Opportunity Start"
        case 0x3B: return "Distributor Overlay Placement Opportunity End"
        case 0x3C: return "Provider Promo Start"
        case 0x3D: return "Provider Promo End"
        case 0x3E: return "Distributor Promo Start"
        case 0x3F: return "Distributor Promo End"
        case 0x40: return "Unscheduled Event Start"
        case 0x41: return "Unscheduled Event End"
        case 0x42: return "Alternate Content Opportunity Start"
        case 0x43: return "Alternate Content Opportunity End"
        case 0x44: return "Provider Ad Block Start"
        case 0x45: return "Provider Ad Block End"
        case 0x46: return "Distributor Ad Block Start"
        case 0x47: return "Distributor Ad Block End"
        case 0x50: return "Network Start"
        case 0x51: return "Network End"
        default: return "Reserved (0x\(String(typeID, radix: 16)))"
        }
    }

    public static func upidName(of type: UInt8) -> String {
        switch type {
        case 0x00: return "None"
        case 0x01: return "User"
        case 0x02: return "ISCI"
        case 0x03: return "AdID"
        case 0x04: return "UMID"
        case 0x05: return "ISAN(deprecated)"
        case 0x06: return "ISAN"
        case 0x07: return "TID"
        case 0x08: return "TI"
        case 0x09: return "ADI"
        case 0x0A: return "EIDR"
        case 0x0B: return "ATSC"
        case 0x0C: return "MPU"
        case 0x0D: return "MID"
        case 0x0E: return "ADS"
        case 0x0F: return "URI"
        case 0x10: return "UUID"
        case 0x11: return "SCR"
        default: return "0x\(String(type, radix: 16))"
        }
    }
}
