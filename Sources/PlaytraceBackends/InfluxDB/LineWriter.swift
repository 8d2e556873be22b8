/// Writes text into a scratch buffer on the stack and hands it to its output array in large copies: the bytes of a
/// line go out without the capacity and uniqueness checks an `Array` append makes for each.
///
/// Each write first makes room (``reserve(_:)``): when the scratch buffer cannot take what comes, what it holds
/// goes to the output first. Nothing longer than the scratch buffer is written at once (long text goes in pieces).
struct LineWriter {
    /// The scratch buffer's size.
    static let scratchSize = 4_096
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

    mutating func ascii(_ text: StaticString) {
        bytes(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Writes an integer in decimal, two digits per step.
    mutating func integer(_ value: Int64) {
        reserve(Self.integerBound)
        var magnitude = value.magnitude
        if value < 0 { byteInReserved(UInt8(ascii: "-")) }
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
