// libFuzzer target for the InfluxDB line protocol encoder (built by scripts/fuzz, under AddressSanitizer, with the
// tests' reference reader, Tests/PlaytraceBackendsTests/LineProtocolReader.swift): the bytes describe an encoder
// (which attributes are tags) and a few events — context, own attributes, playback snapshot, time-since values,
// removed attributes, names and values of any length and content. Each event's line must read back, by the
// reference reader, as one point holding exactly the event's attributes (ReadPoint.expected: escapes undone, what
// the protocol cannot carry changed as the encoder documents).
import PlaytraceBackends
import PlaytraceCore
@testable import PlaytraceTelemetry

// Invariant (what makes this file's pointer use sound): libFuzzer lends `size` bytes at `data` for the call; they are copied at once.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLineProtocolEncoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var input = FuzzInput(Array(UnsafeBufferPointer(start: data, count: size)))
    let encoder = input.encoder()
    var context = AttributeList()
    for _ in 0..<(1 + input.byte() % 4) {
        if input.byte() % 2 == 0 { context = input.attributes() }   // else the same list
        let event = input.event(context: context)
        var line: [UInt8] = []
        encoder.encode(event, timestamp: 1_700_000_000_000_000_000, into: &line)
        let expected = ReadPoint.expected(event, encoder: encoder, timestamp: 1_700_000_000_000_000_000)
        guard let point = ReadPoint(line: line), point == expected else {
            fatalError("""
                the line does not read as the event:
                line:     \(String(decoding: line, as: UTF8.self).debugDescription)
                read:     \(ReadPoint(line: line).map(String.init(describing:)) ?? "not a point")
                expected: \(expected)
                """)
        }
    }
    return 0
}

/// Reads choices from the fuzzer's bytes (zeros once they run out).
struct FuzzInput {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func byte() -> Int {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return Int(bytes[position])
    }

    mutating func integer() -> Int {
        (0..<8).reduce(0) { value, _ in value << 8 | byte() }
    }

    /// Text of up to 47 bytes, any of them (invalid UTF-8 is repaired by `String(decoding:)`), often made of the
    /// line protocol's special characters.
    mutating func text() -> String {
        let count = byte() % 48
        let specials: [UInt8] = Array(" ,=\"\\\n\tab".utf8)
        let text = (0..<count).map { _ -> UInt8 in
            let value = UInt8(byte())
            return value & 0x80 != 0 ? specials[Int(value) % specials.count] : value
        }
        return String(decoding: text, as: UTF8.self)
    }

    mutating func attribute() -> Attribute {
        let choice = byte()
        let standard = Attribute.allStandard
        if choice < 200 { return standard[choice % standard.count] }
        if choice < 230 { return Attribute(name: ["rating", "a b", "k=v", "x,y", "end\\", "timeSinceSkipIntro"][choice % 6]) }
        return Attribute(name: text())
    }

    mutating func value() -> AttributeValue {
        switch byte() % 6 {
        case 0: .int(integer())
        case 1: .int(byte() - 128)
        case 2: .double(Double(bitPattern: UInt64(bitPattern: Int64(integer()))))
        case 3: .bool(byte() % 2 == 0)
        default: .string(text())
        }
    }

    mutating func attributes() -> AttributeList {
        var list = AttributeList()
        for _ in 0..<(byte() % 8) { list[attribute()] = value() }
        return list
    }

    mutating func action() -> Action {
        let choice = byte()
        if choice < 230 { return Action.standard[choice % Action.standard.count] }
        return Action(name: ["SkipIntro", "Chapter", "Odd name,="][choice % 3])
    }

    mutating func encoder() -> LineProtocolEncoder {
        guard byte() % 2 == 1 else { return LineProtocolEncoder() }
        var tags = Set(Attribute.dimensions)
        for _ in 0..<(byte() % 6) { tags.insert(attribute()) }
        return LineProtocolEncoder(eventMeasurement: byte() % 4 == 0 ? "play events" : "events", tagAttributes: tags)
    }

    mutating func snapshot(for action: Action) -> PlaybackSnapshot {
        guard byte() % 4 != 0 else { return .none }
        var snapshot = PlaybackSnapshot()
        snapshot.carried = PlaybackSnapshot.carryingAll & UInt64(truncatingIfNeeded: integer() | (byte() % 2 == 0 ? -1 : 0))
        switch byte() % 3 {
        case 0: snapshot.playbackIdentifier = nil
        case 1: snapshot.playbackIdentifier = .text(text())
        default:
            var generator = SplitMix(seed: UInt64(bitPattern: Int64(integer())))
            snapshot.playbackIdentifier = .uuid(.random(using: &generator))
        }
        snapshot.countErrors = byte()
        snapshot.countStarts = byte()
        snapshot.countAds = byte()
        snapshot.accumPauseTime = integer()
        snapshot.accumBufferTime = byte() * 1_000
        snapshot.accumSeekTime = byte()
        snapshot.accumPlayTime = integer() >> byte() % 64
        snapshot.deltaPlayTime = byte() - 100
        let flags = byte()
        snapshot.inPauseBlock = flags & 1 != 0
        snapshot.inSeekBlock = flags & 2 != 0
        snapshot.inBufferBlock = flags & 4 != 0
        snapshot.inPlaybackBlock = flags & 8 != 0
        snapshot.inAdBreakBlock = flags & 16 != 0
        snapshot.inAdBlock = flags & 32 != 0
        // The time since earlier actions, the event's own among them, as the hub records them.
        var now: Int64 = 1_000_000_000
        var times = ActionTimes()
        for _ in 0..<(byte() % 6) {
            now += Int64(byte()) * 1_000_000
            _ = times.record(self.action().timeAttribute, nanoseconds: now)
        }
        now += Int64(byte()) * 7_000_000
        snapshot.times.previous = times.record(action.timeAttribute, nanoseconds: now)
        snapshot.times.current = action.timeAttribute.id
        snapshot.times.now = now + Int64(byte()) * 1_000
        snapshot.times.times = times
        return snapshot
    }

    mutating func event(context: AttributeList) -> Event {
        let action = action()
        var event = Event(action: action, date: StreamDate(secondsSince1970: 1_700_000_000 + Double(byte())),
                          sender: byte() % 2 == 0 ? TrackerID(rawValue: byte()) : nil, context: context,
                          attributes: attributes(), playback: snapshot(for: action))
        for _ in 0..<(byte() % 4 == 0 ? byte() % 3 : 0) { event[attribute()] = nil }
        return event
    }
}

/// A seeded generator, for the playback identifiers the input asks for.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ value >> 30) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ value >> 27) &* 0x94D0_49BB_1331_11EB
        return value ^ value >> 31
    }
}
