import Testing
@testable import PlaytraceCore
@testable import PlaytraceHLS

/// The scanning helpers the parser relies on agree with the plain answer.
@Suite("Byte scanning")
struct ByteScanningTests {
    /// A small deterministic generator: the inputs are the same on every run.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
    }

    @Test func firstIndexOfEitherByteMatchesALinearSearch() {
        var generator = Generator(state: 7)
        // Bytes drawn from a small alphabet that includes the searched ones and bytes next to them, at every length
        // and start.
        let alphabet: [UInt8] = [0x2C, 0x22, 0x3D, 0x2B, 0x2D, 0x21, 0x23, 0x41, 0x00, 0x01, 0x80, 0xFF]
        for length in 0..<40 {
            for _ in 0..<60 {
                let bytes = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
                bytes.withSpan { buffer in
                    for start in 0...length {
                        let expected = bytes[start...].firstIndex { $0 == 0x2C || $0 == 0x22 } ?? length
                        #expect(ByteScanning.firstIndex(of: 0x2C, or: 0x22, in: buffer, from: start) == expected)
                    }
                }
            }
        }
    }

    /// The one-pass scan finds what a plain reading of each byte finds: non-ASCII bytes, controls (tab allowed),
    /// and `{$` only as a pair.
    @Test func textScanMatchesAPlainReading() {
        var generator = Generator(state: 5)
        let alphabet: [UInt8] = [0x7B, 0x24, 0x7D, 0x09, 0x0A, 0x0D, 0x7F, 0x7E, 0x20, 0x41, 0x80, 0xC3, 0xA9, 0x00, 0x1F]
        for length in 0..<24 {
            for _ in 0..<300 {
                let bytes = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
                let scan = bytes.withSpan { ByteScanning.scan($0) }
                #expect(scan.isASCII == bytes.allSatisfy { $0 < 0x80 }, "\(bytes)")
                #expect(scan.hasControl == bytes.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }, "\(bytes)")
                #expect(scan.hasVariableReference == zip(bytes, bytes.dropFirst()).contains { $0 == 0x7B && $1 == 0x24 },
                        "\(bytes)")
            }
        }
    }

    /// The check of a comma-separated list never calls an untidy list tidy, and calls every tidy list built of
    /// letters and single commas tidy.
    @Test func tidyListCheckMatchesTheByteRule() {
        var generator = Generator(state: 11)
        let alphabet: [UInt8] = [0x2C, 0x2C, 0x20, 0x09, 0x0D, 0x21, 0x2B, 0x2D, 0x61, 0x31, 0x2E, 0xC3, 0xA9]
        func isTidy(_ bytes: [UInt8]) -> Bool {
            guard let first = bytes.first, let last = bytes.last, first != 0x2C, last != 0x2C else { return false }
            let noBlank = !bytes.contains { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
            return noBlank && !zip(bytes, bytes.dropFirst()).contains { $0 == 0x2C && $1 == 0x2C }
        }
        var tidyAnswers = 0
        for length in 0..<40 {
            for _ in 0..<400 {
                let bytes = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
                let answer = bytes.withSpan { ByteScanning.isTidyList($0) }
                let expected = isTidy(bytes)
                if answer { tidyAnswers += 1 }
                #expect(!answer || expected, "\(bytes)")
                if expected, !bytes.contains(where: { $0 < 0x21 }) { #expect(answer, "\(bytes)") }
            }
        }
        #expect(tidyAnswers > 100)
        // Two commas in a row at every place.
        for length in 2..<40 {
            for place in 0..<(length - 1) {
                var bytes = [UInt8](repeating: 0x61, count: length)
                bytes[place] = 0x2C
                bytes[place + 1] = 0x2C
                #expect(!bytes.withSpan { ByteScanning.isTidyList($0) }, "\(length) \(place)")
                bytes[place + 1] = 0x62
                let expected = place != 0 && place != length - 1
                #expect(bytes.withSpan { ByteScanning.isTidyList($0) } == expected, "\(length) \(place)")
            }
        }
    }

    /// The densest lists (one-letter names, empty values) are read whole, and spans kept from a longer list are
    /// replaced by a shorter one's without its old spans showing.
    @Test func attributeScanReadsTheDensestLists() {
        var room: [AttributeSpan] = []
        let longest = Array(repeating: "A=", count: 40).joined(separator: ", ")
        _ = Array(longest.utf8).withSpan { AttributeListParser.scan($0, into: &room) }
        #expect(room.count == 40)
        for count in (1...40).reversed() {
            for separator in [",", ", "] {
                let list = Array(repeating: "A=", count: count).joined(separator: separator)
                var fresh: [AttributeSpan] = []
                let written = Array(list.utf8).withSpan { AttributeListParser.scan($0, into: &fresh) }
                #expect(written == count, "\(list)")
                #expect(Array(list.utf8).withSpan { AttributeListParser.scan($0, into: &room) } == count)
                let trailing = Array((list + ",").utf8).withSpan {
                    AttributeListParser.scan($0, into: &room)
                }
                #expect(trailing == count && room.count == count, "\(list),")
            }
        }
        // The spans written are those of the list, from the room's start.
        let list = Array("NAME=\"x\", B = 2 ,C=".utf8)
        let written = list.withSpan { AttributeListParser.scan($0, into: &room) }
        #expect(written == 3)
        let names = room.prefix(3).map { String(decoding: list[$0.nameStart..<$0.nameEnd], as: UTF8.self) }
        let values = room.prefix(3).map { String(decoding: list[$0.valueStart..<$0.valueEnd], as: UTF8.self) }
        #expect(names == ["NAME", "B", "C"] && values == ["x", "2", ""])
        #expect(room.prefix(3).map(\.isQuoted) == [true, false, false])
        for malformed in ["A", "=1", "A=\"x", "A=x\"y\"", "A=\"x\"y", ",,A=1"] {
            #expect(Array(malformed.utf8).withSpan { AttributeListParser.scan($0, into: &room) } == nil,
                    "\(malformed)")
        }
    }

    @Test func attributeNameSetsFindEachNameAndNothingElse() {
        let names: [StaticString] = [
            "BANDWIDTH", "AVERAGE-BANDWIDTH", "SCORE", "CODECS", "SUPPLEMENTAL-CODECS", "RESOLUTION", "HDCP-LEVEL",
            "ALLOWED-CPC", "VIDEO-RANGE", "REQ-VIDEO-LAYOUT", "STABLE-VARIANT-ID", "VIDEO", "PATHWAY-ID", "FRAME-RATE",
            "AUDIO", "SUBTITLES", "CLOSED-CAPTIONS",
            // Same length, first and last byte as names above: only the bytes between tell them apart.
            "BXNDWIDTH", "AXDIO",
        ]
        let set = AttributeNames(names)
        for (index, name) in names.enumerated() {
            let found = name.withSpan { set.index(of: $0, key: AttributeListParser.nameKey($0)) }
            #expect(found == index, "\(name)")
        }
        for other in ["BANDWIDTHS", "AUDIO2", "URI", "BYNDWIDTH", "", "A"] {
            let found = Array(other.utf8).withSpan { set.index(of: $0, key: AttributeListParser.nameKey($0)) }
            #expect(found == nil, "\(other)")
        }
    }
}
