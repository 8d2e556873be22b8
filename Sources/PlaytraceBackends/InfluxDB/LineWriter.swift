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

    /// Writes an integer in decimal, two digits per step.
    mutating func integer(_ value: Int64) {
        reserve(Self.integerBound)
        var magnitude = value.magnitude
        if value < 0 { byteInReserved(UInt8(ascii: "-")) }
        if magnitude < 10 {
            byteInReserved(UInt8(truncatingIfNeeded: 48 + magnitude))
            return
        }
        var digits = 1
        var power: UInt64 = 10
        while digits < 20, magnitude >= power {
            digits += 1
            if digits == 20 { break }
            power &*= 10
        }
        var position = count + digits
        while magnitude >= 100 {
            let pair = Int(magnitude % 100)
            magnitude /= 100
            position -= 2
            base[position] = UInt8(truncatingIfNeeded: 48 + pair / 10)
            base[position + 1] = UInt8(truncatingIfNeeded: 48 + pair % 10)
        }
        if magnitude >= 10 {
            position -= 2
            base[position] = UInt8(truncatingIfNeeded: 48 + magnitude / 10)
            base[position + 1] = UInt8(truncatingIfNeeded: 48 + magnitude % 10)
        } else {
            position -= 1
            base[position] = UInt8(truncatingIfNeeded: 48 + magnitude)
        }
        count += digits
    }
}
