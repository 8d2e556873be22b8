// libFuzzer target for the InfluxDB line protocol encoder (built by scripts/fuzz, under AddressSanitizer): the bytes
// describe an encoder (which attributes are tags) and a few events — context, own attributes, playback snapshot,
// time-since values, removed attributes, names and values of any length and content — encoded one after another
// through the fast path (context cache, snapshot written from its fields) and, each, through the general path (the
// same attributes as one flat list, no cache). Both must give one line (a line break only inside a string's quotes) with identical measurement, timestamp, tags
// and fields, byte for byte (tags and fields compared as sorted lists: the paths order them differently).
import PlaytraceBackends
import PlaytraceCore
@testable import PlaytraceTelemetry

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLineProtocolEncoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var input = FuzzInput(UnsafeBufferPointer(start: data, count: size))
    let encoder = input.encoder()
    var cache = LineProtocolEncoder.ContextCache()
    var context = AttributeList()
    for _ in 0..<(1 + input.byte() % 4) {
        if input.byte() % 2 == 0 { context = input.attributes() }   // else the same list: the cache's fast case
        let event = input.event(context: context)
        var fast: [UInt8] = []
        encoder.encode(event, timestamp: 1_700_000_000_000_000_000, into: &fast, cache: &cache)
        var general: [UInt8] = []
        encoder.encode(Event(action: event.action, date: event.date, attributes: event.allAttributes),
                       timestamp: 1_700_000_000_000_000_000, into: &general)
        guard let fastPoint = LinePoint(fast), let generalPoint = LinePoint(general), fastPoint == generalPoint else {
            fatalError("""
                the fast and the general path differ:
                fast:    \(String(decoding: fast, as: UTF8.self).debugDescription)
                general: \(String(decoding: general, as: UTF8.self).debugDescription)
                """)
        }
    }
    return 0
}

/// A line split into its parts, each kept as written: the measurement, the tags and the fields (sorted), the
/// timestamp. `nil` when the bytes are not one line of that shape.
struct LinePoint: Equatable {
    let measurement: [UInt8]
    let tags: [[UInt8]]
    let fields: [[UInt8]]
    let timestamp: [UInt8]

    init?(_ line: [UInt8]) {
        var index = 0
        /// Reads up to (not past) an unescaped byte of `stops`; `nil` at the end of the line.
        func read(until stops: [UInt8]) -> [UInt8]? {
            var part: [UInt8] = []
            while index < line.count {
                let byte = line[index]
                if stops.contains(byte) { return part }
                part.append(byte)
                index += 1
                if byte == UInt8(ascii: "\\"), index < line.count {
                    part.append(line[index])
                    index += 1
                }
            }
            return nil
        }
        let (comma, space, equals, quote) = (UInt8(ascii: ","), UInt8(ascii: " "), UInt8(ascii: "="), UInt8(ascii: "\""))
        // Measurement and tags, up to the first space.
        var series: [[UInt8]] = []
        while true {
            guard let part = read(until: [comma, space]) else { return nil }
            series.append(part)
            index += 1
            if line[index - 1] == space { break }
        }
        // Fields: a key, `=`, then a quoted string (a line break allowed) or a bare value.
        var fields: [[UInt8]] = []
        while true {
            guard var field = read(until: [equals, space, comma]), line[index] == equals else { return nil }
            field.append(equals)
            index += 1
            if index < line.count, line[index] == quote {
                field.append(quote)
                index += 1
                guard let text = read(until: [quote]) else { return nil }
                field += text + [quote]
                index += 1
            } else {
                guard let value = read(until: [comma, space]) else { return nil }
                field += value
            }
            fields.append(field)
            guard index < line.count, [comma, space].contains(line[index]) else { return nil }
            index += 1
            if line[index - 1] == space { break }
        }
        guard let timestamp = read(until: [UInt8(ascii: "\n")]), index == line.count - 1 else { return nil }
        measurement = series[0]
        tags = series.dropFirst().sorted { $0.lexicographicallyPrecedes($1) }
        self.fields = fields.sorted { $0.lexicographicallyPrecedes($1) }
        self.timestamp = timestamp
    }
}

/// Reads choices from the fuzzer's bytes (zeros once they run out).
struct FuzzInput {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

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
