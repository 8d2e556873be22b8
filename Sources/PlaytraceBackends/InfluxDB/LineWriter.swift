/// Writes text into a scratch buffer on the stack and hands it to its output array in large copies: the bytes of a
/// line go out without the capacity and uniqueness checks an `Array` append makes for each.
///
/// Each write first makes room (``reserve(_:)``): when the scratch buffer cannot take what comes, what it holds
/// goes to the output first. Nothing longer than the scratch buffer is written at once (long text goes in pieces).
struct LineWriter {
    /// The scratch buffer's size.
    /// (1 KB: the most `withUnsafeTemporaryAllocation` puts on the stack on every platform; more would be a heap
    /// allocation per line.)
    static let scratchSize = 1_024
    /// The most bytes ``integer(_:)`` writes.
    static let integerBound = 20

    private let output: UnsafeMutablePointer<[UInt8]>
    private let base: UnsafeMutablePointer<UInt8>
    private var count = 0

    private init(output: UnsafeMutablePointer<[UInt8]>, base: UnsafeMutablePointer<UInt8>) {
        self.output = output
        self.base = base
    }

    /// Runs `body` with a writer whose bytes end up appended to `output`.
    static func append(to output: inout [UInt8], _ body: (inout LineWriter) -> Void) {
        withUnsafeMutablePointer(to: &output) { output in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: scratchSize) { scratch in
                guard let base = scratch.baseAddress else { return }
                var writer = LineWriter(output: output, base: base)
                body(&writer)
                writer.drain()
            }
        }
    }

    /// Hands what the scratch buffer holds to the output.
    private mutating func drain() {
        guard count > 0 else { return }
        output.pointee.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
        count = 0
    }

    /// Makes room for `bytes` (at most the scratch buffer's size).
    @inline(__always)
    mutating func reserve(_ bytes: Int) {
        if count + bytes > Self.scratchSize { drain() }
    }

    /// Writes a byte; room must have been reserved.
    @inline(__always)
    mutating func byteInReserved(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func byte(_ byte: UInt8) {
        reserve(1)
        byteInReserved(byte)
    }

    mutating func bytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard var source = bytes.baseAddress else { return }
        if count + bytes.count <= Self.scratchSize {
            (base + count).update(from: source, count: bytes.count)
            count += bytes.count
            return
        }
        var remaining = bytes.count
        while remaining > 0 {
            let chunk = min(remaining, Self.scratchSize)
            reserve(chunk)
            (base + count).update(from: source, count: chunk)
            count += chunk
            source += chunk
            remaining -= chunk
        }
    }

    /// How far past its start ``paddedBytes(_:count:)`` may read a source.
    static let overRead = 32

    /// Writes `count` bytes from a source that stays readable for ``overRead`` bytes from its start (a padded
    /// table): short runs are copied as four whole words, past their end, and only `count` bytes are kept.
    @inline(__always)
    mutating func paddedBytes(_ source: UnsafePointer<UInt8>, count byteCount: Int) {
        guard byteCount <= Self.overRead else {
            bytes(UnsafeBufferPointer(start: source, count: byteCount))
            return
        }
        reserve(Self.overRead)
        paddedBytesInReserved(source, count: byteCount)
    }

    /// ``paddedBytes(_:count:)`` of at most ``overRead`` bytes, room for ``overRead`` bytes having been reserved.
    @inline(__always)
    mutating func paddedBytesInReserved(_ source: UnsafePointer<UInt8>, count byteCount: Int) {
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(base + count)
        to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
        to.storeBytes(of: from.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
        to.storeBytes(of: from.loadUnaligned(fromByteOffset: 16, as: UInt64.self), toByteOffset: 16, as: UInt64.self)
        to.storeBytes(of: from.loadUnaligned(fromByteOffset: 24, as: UInt64.self), toByteOffset: 24, as: UInt64.self)
        count += byteCount
    }

    mutating func bytes(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { self.bytes($0) }
    }

    mutating func ascii(_ text: StaticString) {
        bytes(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// 10ⁿ for n in 0…19 (a table the compiler lays out), `UInt64.max` beyond.
    @inline(__always)
    private static func powerOf10(_ exponent: Int) -> UInt64 {
        switch exponent {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        case 16: 10_000_000_000_000_000
        case 17: 100_000_000_000_000_000
        case 18: 1_000_000_000_000_000_000
        case 19: 10_000_000_000_000_000_000
        default: .max
        }
    }

    /// Writes an integer in decimal, two digits per step.
    mutating func integer(_ value: Int64) {
        reserve(Self.integerBound)
        integerInReserved(value)
    }

    /// ``integer(_:)``, room for ``integerBound`` bytes having been reserved.
    @inline(__always)
    mutating func integerInReserved(_ value: Int64) {
        var magnitude = value.magnitude
        if value < 0 { byteInReserved(UInt8(ascii: "-")) }
        if magnitude < 10 {
            byteInReserved(UInt8(truncatingIfNeeded: 48 + magnitude))
            return
        }
        // Digits from the bit length (⌊bits × log10 2⌋, corrected by one comparison), then two per step from a
        // table of the pairs 00…99.
        let estimate = ((64 - magnitude.leadingZeroBitCount) &* 1_233) >> 12
        let digits = estimate + (magnitude < Self.powerOf10(estimate) ? 0 : 1)
        let pairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
        let table = pairs.utf8Start
        var position = count + digits
        while magnitude >= 100 {
            let pair = Int(magnitude % 100) &* 2
            magnitude /= 100
            position -= 2
            base[position] = table[pair]
            base[position + 1] = table[pair + 1]
        }
        if magnitude >= 10 {
            let pair = Int(magnitude) &* 2
            position -= 2
            base[position] = table[pair]
            base[position + 1] = table[pair + 1]
        } else {
            position -= 1
            base[position] = UInt8(truncatingIfNeeded: 48 + magnitude)
        }
        count += digits
    }
}
