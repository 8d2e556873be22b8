/// Writes one line of text into memory sized beforehand, byte by byte, without the capacity and uniqueness checks
/// an `Array` append makes: the encoder works out an upper bound of the line's length, writes into a temporary
/// buffer of that size, and appends the result to its output in one copy.
struct LineWriter {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private(set) var count = 0

    private init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    /// Runs `body` with a writer of `bound` bytes and appends what it wrote to `output`.
    /// `bound` must be an upper bound of what `body` writes (checked: a wrong bound traps rather than corrupts).
    static func append(to output: inout [UInt8], bound: Int, _ body: (inout LineWriter) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bound) { scratch in
            guard let base = scratch.baseAddress else { return }
            var writer = LineWriter(base: base, capacity: bound)
            body(&writer)
            output.append(contentsOf: UnsafeBufferPointer(start: base, count: writer.count))
        }
    }

    @inline(__always)
    mutating func byte(_ byte: UInt8) {
        precondition(count < capacity, "line longer than its bound")
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func bytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        precondition(count + bytes.count <= capacity, "line longer than its bound")
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    mutating func bytes(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { self.bytes($0) }
    }

    mutating func ascii(_ text: StaticString) {
        self.bytes(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// The most bytes ``integer(_:)`` writes.
    static let integerBound = 20

    /// Writes an integer in decimal, two digits per step.
    mutating func integer(_ value: Int64) {
        var magnitude = value.magnitude
        if value < 0 { byte(UInt8(ascii: "-")) }
        var digits = 1
        var power: UInt64 = 10
        while digits < 20, magnitude >= power {
            digits += 1
            if digits == 20 { break }
            power &*= 10
        }
        precondition(count + digits <= capacity, "line longer than its bound")
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
