/// `splice_time()`: a presentation time in 90 kHz ticks, or none ("immediate").
public struct SpliceTime: Sendable, Hashable {
    /// `pts_time` when `time_specified_flag` is set.
    public var ptsTime: UInt64?

    public init(ptsTime: UInt64?) { self.ptsTime = ptsTime }

    static func decode(_ reader: inout BitReader) throws(SCTE35Error) -> SpliceTime {
        if try reader.flag() {
            try reader.skip(bits: 6)
            return SpliceTime(ptsTime: try reader.bits(33))
        }
        try reader.skip(bits: 7)
        return SpliceTime(ptsTime: nil)
    }
}

/// `break_duration()`.
public struct BreakDuration: Sendable, Hashable {
    /// `auto_return`: the splicer returns to the network at the end of the break by itself.
    public var autoReturn: Bool
    /// `duration`, in 90 kHz ticks.
    public var duration: UInt64

    /// The duration in seconds.
    public var seconds: Double { Double(duration) / 90_000 }
}

/// `splice_insert()` (command type 0x05).
public struct SpliceInsert: Sendable, Hashable {
    /// One component's splice time, when the splice is per component.
    public struct Component: Sendable, Hashable {
        public var tag: UInt8
        public var spliceTime: SpliceTime?
    }

    /// `splice_event_id`.
    public var eventID: UInt32
    /// `splice_event_cancel_indicator`: the event announced before is cancelled.
    public var isCancelled: Bool
    /// `out_of_network_indicator`: true when leaving the network (an ad starts), false when returning.
    public var isOutOfNetwork: Bool
    /// `program_splice_flag`.
    public var isProgramSplice: Bool
    /// `splice_immediate_flag`.
    public var isImmediate: Bool
    /// `event_id_compliance_flag`.
    public var isEventIDCompliant: Bool
    /// The splice time of a program splice that is not immediate.
    public var spliceTime: SpliceTime?
    /// Per-component splice times.
    public var components: [Component]
    /// `break_duration()`, when given.
    public var breakDuration: BreakDuration?
    public var uniqueProgramID: UInt16
    public var availNumber: UInt8
    public var availsExpected: UInt8
}

/// A splice command.
public enum SpliceCommand: Sendable, Hashable {
    /// `splice_null()` (0x00), used for heartbeats.
    case null
    /// `splice_schedule()` (0x04), kept as raw bytes.
    case schedule([UInt8])
    /// `splice_insert()` (0x05).
    case spliceInsert(SpliceInsert)
    /// `time_signal()` (0x06): a time, with the meaning in segmentation descriptors.
    case timeSignal(SpliceTime)
    /// `bandwidth_reservation()` (0x07).
    case bandwidthReservation
    /// `private_command()` (0xFF).
    case privateCommand(identifier: UInt32, bytes: [UInt8])
    /// An encrypted command that is not decoded.
    case encrypted(type: UInt8)
    /// A command type this decoder does not know, as raw bytes.
    case unknown(type: UInt8, bytes: [UInt8])

    /// The command's name as the specification writes it.
    public var name: String {
        switch self {
        case .null: return "splice_null"
        case .schedule: return "splice_schedule"
        case .spliceInsert: return "splice_insert"
        case .timeSignal: return "time_signal"
        case .bandwidthReservation: return "bandwidth_reservation"
        case .privateCommand: return "private_command"
        case .encrypted: return "encrypted"
        case .unknown(let type, _): return "unknown(0x\(String(type, radix: 16)))"
        }
    }

    static func decode(type: UInt8, reader: inout BitReader, declaredLength: Int?) throws(SCTE35Error)
        -> SpliceCommand
    {
        switch type {
        case 0x00: return .null
        case 0x05: return .spliceInsert(try decodeInsert(&reader))
        case 0x06: return .timeSignal(try SpliceTime.decode(&reader))
        case 0x07: return .bandwidthReservation
        case 0x04, 0xFF:
            guard let length = declaredLength else { throw SCTE35Error.truncated(at: reader.byteOffset) }
            if type == 0x04 { return .schedule(try reader.bytes(length)) }
            guard length >= 4 else { throw SCTE35Error.truncated(at: reader.byteOffset) }
            let identifier = UInt32(try reader.bits(32))
            return .privateCommand(identifier: identifier, bytes: try reader.bytes(length - 4))
        default:
            guard let length = declaredLength else { throw SCTE35Error.truncated(at: reader.byteOffset) }
            return .unknown(type: type, bytes: try reader.bytes(length))
        }
    }

    private static func decodeInsert(_ reader: inout BitReader) throws(SCTE35Error) -> SpliceInsert {
        let eventID = UInt32(try reader.bits(32))
        let cancelled = try reader.flag()
        try reader.skip(bits: 7)
        var insert = SpliceInsert(
            eventID: eventID, isCancelled: cancelled, isOutOfNetwork: false, isProgramSplice: false,
            isImmediate: false, isEventIDCompliant: false, spliceTime: nil, components: [], breakDuration: nil,
            uniqueProgramID: 0, availNumber: 0, availsExpected: 0)
        guard !cancelled else { return insert }
        insert.isOutOfNetwork = try reader.flag()
        insert.isProgramSplice = try reader.flag()
        let hasDuration = try reader.flag()
        insert.isImmediate = try reader.flag()
        insert.isEventIDCompliant = try reader.flag()
        try reader.skip(bits: 3)
        if insert.isProgramSplice && !insert.isImmediate {
            insert.spliceTime = try SpliceTime.decode(&reader)
        }
        if !insert.isProgramSplice {
            let count = Int(try reader.byte())
            for _ in 0..<count {
                let tag = try reader.byte()
                let time = insert.isImmediate ? nil : try SpliceTime.decode(&reader)
                insert.components.append(SpliceInsert.Component(tag: tag, spliceTime: time))
            }
        }
        if hasDuration {
            let autoReturn = try reader.flag()
            try reader.skip(bits: 6)
            insert.breakDuration = BreakDuration(autoReturn: autoReturn, duration: try reader.bits(33))
        }
        insert.uniqueProgramID = UInt16(try reader.bits(16))
        insert.availNumber = try reader.byte()
        insert.availsExpected = try reader.byte()
        return insert
    }
}
