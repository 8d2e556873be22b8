/// An `emsg` box (ISO/IEC 23009-1 5.10.3.3): an event carried in a segment, such as a SCTE-35 `splice_info_section`
/// (`urn:scte:scte35:2013:bin`, the bytes as they are) or an MPD validity event.
///
/// Version 0 gives the event's time as a delta from the segment's earliest presentation time; version 1 as a time
/// on the track's timeline. Other versions are refused (as ExoPlayer skips them). Strings end at their NUL and are
/// bounded by the payload; nothing is read past it.
public struct EventMessage: Sendable, Hashable {
    /// When the event starts.
    public enum Time: Sendable, Hashable {
        /// Version 0: ticks after the carrying segment's earliest presentation time.
        case delta(UInt32)
        /// Version 1: ticks on the track's timeline.
        case absolute(UInt64)
    }

    public var schemeIdURI: String
    public var value: String
    public var timescale: UInt32
    public var time: Time
    /// Ticks; `nil` when unknown (`0xFFFFFFFF`).
    public var duration: UInt32?
    public var id: UInt32
    public var messageData: [UInt8]

    /// Why a payload is not an `emsg` this reads.
    public struct ReadError: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
    }

    /// Reads an `emsg` box's payload (after its 8- or 16-byte header).
    public init(_ payload: ArraySlice<UInt8>) throws(ReadError) {
        var cursor = Cursor(Array(payload))
        guard let version = cursor.byte(), cursor.skip(3) else { throw ReadError(description: "an emsg shorter than its version and flags") }
        switch version {
        case 0:
            guard let scheme = cursor.string(), let value = cursor.string(), let timescale = cursor.uint32(),
                  let delta = cursor.uint32(), let duration = cursor.uint32(), let id = cursor.uint32() else {
                throw ReadError(description: "an emsg (version 0) cut short")
            }
            (schemeIdURI, self.value, self.timescale, time, self.duration, self.id) = (scheme, value, timescale, .delta(delta),
                                                                                      duration == .max ? nil : duration, id)
        case 1:
            guard let timescale = cursor.uint32(), let presentationTime = cursor.uint64(), let duration = cursor.uint32(),
                  let id = cursor.uint32(), let scheme = cursor.string(), let value = cursor.string() else {
                throw ReadError(description: "an emsg (version 1) cut short")
            }
            (schemeIdURI, self.value, self.timescale, time, self.duration, self.id) = (scheme, value, timescale,
                                                                                      .absolute(presentationTime),
                                                                                      duration == .max ? nil : duration, id)
        default:
            throw ReadError(description: "an emsg of version \(version), which is not 0 or 1")
        }
        guard timescale > 0 else { throw ReadError(description: "an emsg with a timescale of 0") }
        messageData = cursor.rest()
    }

    /// The `emsg` boxes at the top level of a segment (where they precede its `moof`), each read or its problem
    /// said; the walk's own problem, if it stopped early, comes last.
    public static func messages(inSegment bytes: [UInt8]) -> (messages: [EventMessage], problems: [String]) {
        let walk = BoxWalk(bytes)
        var messages: [EventMessage] = []
        var problems: [String] = []
        for box in walk.boxes where box.type == "emsg" {
            do {
                messages.append(try EventMessage(box.payload(in: bytes)))
            } catch {
                problems.append("offset \(box.offset): \(error.description)")
            }
        }
        if let problem = walk.problem { problems.append(problem) }
        return (messages, problems)
    }

    /// A bounded reader of big-endian fields.
    private struct Cursor {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func byte() -> UInt8? {
            guard position < bytes.count else { return nil }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func skip(_ count: Int) -> Bool {
            guard bytes.count - position >= count else { return false }
            position += count
            return true
        }

        mutating func uint32() -> UInt32? {
            guard let value = BoxWalk.uint32(bytes, position) else { return nil }
            position += 4
            return value
        }

        mutating func uint64() -> UInt64? {
            guard let value = BoxWalk.uint64(bytes, position) else { return nil }
            position += 8
            return value
        }

        /// A NUL-terminated UTF-8 string (invalid bytes repaired); `nil` without its NUL.
        mutating func string() -> String? {
            guard let end = bytes[position...].firstIndex(of: 0) else { return nil }
            defer { position = end + 1 }
            return String(decoding: bytes[position..<end], as: UTF8.self)
        }

        func rest() -> [UInt8] { Array(bytes[position...]) }
    }
}
