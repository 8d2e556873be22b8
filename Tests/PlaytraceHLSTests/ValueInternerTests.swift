@testable import PlaytraceHLS
import Testing

/// The interner hands back the string (or list) the bytes make, whether it made it now or before, whatever the
/// values that shared its slots in between.
@Suite("Value interner")
struct ValueInternerTests {
    /// A deterministic generator, so that a failure reproduces.
    private struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    @Test("Strings: every lookup equals the text of its bytes, across repeats and slot collisions")
    func strings() {
        let interner = ValueInterner()
        var random = Generator(state: 7)
        // A small alphabet and lengths around the 16-byte cut: many repeats, values that differ in one byte or in
        // length only (a shorter value is a prefix of a longer one), and far more values than slots.
        let alphabet = Array("ab.,-0 é".utf8)
        var pool: [[UInt8]] = []
        for _ in 0..<2_000 {
            let length = Int.random(in: 0...20, using: &random)
            pool.append((0..<length).map { _ in alphabet.randomElement(using: &random)! })
        }
        for _ in 0..<20_000 {
            let bytes = pool.randomElement(using: &random)!
            let made = bytes.withUnsafeBufferPointer { interner.string($0) }
            #expect(made == String(decoding: bytes, as: UTF8.self), "\(bytes)")
        }
    }

    @Test("Lists: every lookup equals the list its bytes make, across repeats, collisions and long lists")
    func lists() {
        let interner = ValueInterner()
        var random = Generator(state: 11)
        let codecs = ["avc1.640028", "mp4a.40.2", "hvc1.2.4.L150.B0", "ec-3", "ac-3", "stpp.ttml.im1t"]
        var pool: [[UInt8]] = []
        for _ in 0..<600 {
            let count = Int.random(in: 1...6, using: &random)
            pool.append(Array((0..<count).map { _ in codecs.randomElement(using: &random)! }.joined(separator: ",").utf8))
        }
        for _ in 0..<10_000 {
            let bytes = pool.randomElement(using: &random)!
            let list = bytes.withUnsafeBufferPointer { buffer in
                interner.list(buffer) { String(decoding: $0, as: UTF8.self).split(separator: ",").map(String.init) }
            }
            #expect(list == String(decoding: bytes, as: UTF8.self).split(separator: ",").map(String.init))
        }
    }
}
