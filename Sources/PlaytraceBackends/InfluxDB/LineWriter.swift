/// Writes a line straight into a ``LineBuffer``'s memory: each write first makes room (``reserve(_:)``, which
/// grows the memory when it must), then stores bytes. Every store is checked against the memory's end, in release
/// builds too: a write that did not reserve its room stops the process instead of corrupting memory.
///
/// A writer takes the buffer's memory for the time of a line (``init(taking:)``) and gives it back
/// (``finish(into:)``): no closure, no reference counted per line.
///
/// Invariant (this file and `LineBuffer.swift` hold the InfluxDB encoder's only unsafe code): a writer stores only
/// below the memory's capacity (each store checks it), reads a source only inside what the source lends or, for
/// padded copies, inside a ``PaddedTable`` or a buffer whose padding past its count ``finish(into:)`` zeroed; the
/// memory it writes to is held by it alone (``init(taking:)`` copies shared memory first).
struct LineWriter: ~Copyable {
    /// The most bytes ``integer(_:)`` writes.
    static let integerBound = 20
    /// The room a writer makes when it starts: what a line usually takes (a longer one makes more as it goes).
    static let lineRoom = 2_048

    private var storage: LineBuffer.Storage
    private var base: UnsafeMutablePointer<UInt8>
    private var count: Int
    private var capacity: Int

    /// Takes the buffer's memory (its own copy of it, when it is shared) with room for a line.
    init(taking buffer: inout LineBuffer) {
        // The memory is moved out of the buffer and into the writer (no reference counted), and its uniqueness
        // asked before anything else refers to it.
        var taken = buffer.release()
        count = buffer.count
        if isKnownUniquelyReferenced(&taken), (taken?.capacity ?? 0) - buffer.count >= Self.lineRoom {
            storage = (consume taken).unsafelyUnwrapped
        } else {
            storage = Self.grown(consume taken, count: buffer.count, minimum: buffer.count + Self.lineRoom)
        }
        base = storage.bytes
        capacity = storage.capacity
    }

    /// Takes the buffer's memory, emptied first.
    init(taking buffer: inout LineBuffer, emptied: Bool) {
        if emptied { buffer.removeAll(keepingCapacity: true) }
        self.init(taking: &buffer)
    }

    /// Gives the memory back to the buffer, with what was written.
    consuming func finish(into buffer: inout LineBuffer) {
        // The bytes just past the end are zeroed: copies a word at a time read up to ``overRead`` of them
        // (``LineBuffer/copy(to:from:)``), and the memory is not zeroed when it is allocated.
        let padding = min(Self.overRead, capacity - count)
        if padding > 0 { (base + count).initialize(repeating: 0, count: padding) }
        buffer.count = count
        buffer.adopt(storage)
    }

    /// New memory of at least `minimum` bytes (at least twice the old), holding the first `count` bytes of the old.
    private static func grown(_ old: LineBuffer.Storage?, count: Int, minimum: Int) -> LineBuffer.Storage {
        let storage = LineBuffer.Storage(capacity: max(minimum, 2 * (old?.capacity ?? 0)))
        if let old, count > 0 { storage.bytes.initialize(from: old.bytes, count: count) }
        return storage
    }

    @inline(never)
    private mutating func grow(to minimum: Int) {
        storage = Self.grown(storage, count: count, minimum: minimum)
        base = storage.bytes
        capacity = storage.capacity
    }

    /// Runs `body` with a writer whose bytes end up appended to `output` (for what is written once and kept, such
    /// as cached tags).
    static func append(to output: inout [UInt8], _ body: (inout LineWriter) -> Void) {
        var buffer = LineBuffer()
        var writer = LineWriter(taking: &buffer)
        body(&writer)
        writer.finish(into: &buffer)
        buffer.withUnsafeBytes { output.append(contentsOf: $0) }
    }

    /// Makes room for `bytes`.
    @inline(__always)
    mutating func reserve(_ bytes: Int) {
        if count + bytes > capacity { grow(to: count + bytes) }
    }

    /// Writes a byte; room must have been reserved.
    @inline(__always)
    mutating func byteInReserved(_ byte: UInt8) {
        precondition(count < capacity, "a write past the room reserved")
        base[count] = byte
        count += 1
    }

    /// Stores a byte `offset` bytes past the end, without moving the end; room must have been reserved.
    @inline(__always)
    mutating func byteAt(_ offset: Int, _ byte: UInt8) {
        precondition(offset >= 0 && count + offset < capacity, "a write past the room reserved")
        base[count + offset] = byte
    }

    /// Moves the end past bytes stored with ``byteAt(_:_:)``.
    @inline(__always)
    mutating func skip(_ bytes: Int) { count += bytes }

    @inline(__always)
    mutating func byte(_ byte: UInt8) {
        reserve(1)
        byteInReserved(byte)
    }

    mutating func bytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        let length = bytes.count
        reserve(length)
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(base + count)
        // Short runs (names, small values) without a call: a first and a last word (or two), overlapping when the
        // run is not a whole number of them, which reads nothing outside it.
        if length >= 8, length <= 16 {
            let head = from.loadUnaligned(as: UInt64.self)
            let tail = from.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
            to.storeBytes(of: head, as: UInt64.self)
            to.storeBytes(of: tail, toByteOffset: length - 8, as: UInt64.self)
        } else if length > 16, length <= 32 {
            let head0 = from.loadUnaligned(as: UInt64.self)
            let head1 = from.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            let tail0 = from.loadUnaligned(fromByteOffset: length - 16, as: UInt64.self)
            let tail1 = from.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
            to.storeBytes(of: head0, as: UInt64.self)
            to.storeBytes(of: head1, toByteOffset: 8, as: UInt64.self)
            to.storeBytes(of: tail0, toByteOffset: length - 16, as: UInt64.self)
            to.storeBytes(of: tail1, toByteOffset: length - 8, as: UInt64.self)
        } else if length < 8 {
            for index in 0..<length { (base + count)[index] = source[index] }
        } else {
            (base + count).update(from: source, count: length)
        }
        count += length
    }

    /// How far past its start a padded copy (``ByteCursor/paddedBytes(_:count:)``) may read a source.
    static let overRead = 32

    /// ``ByteCursor/paddedBytes(_:count:)``, room for ``overRead`` bytes having been reserved.
    @inline(__always)
    mutating func paddedBytesInReserved(_ source: UnsafePointer<UInt8>, count byteCount: Int) {
        precondition(byteCount <= Self.overRead, "a padded copy longer than its padding")
        var cursor = self.cursor
        cursor.paddedBytes(source, count: byteCount)
        advance(to: cursor)
    }

    /// Where the next byte goes, for loops that write many fields into room reserved beforehand (a cursor stays in
    /// a register; the writer, lent `inout`, goes through memory at each write). ``advance(to:)`` afterwards.
    @inline(__always)
    var cursor: ByteCursor { ByteCursor(position: base + count, limit: base + capacity) }

    /// Takes what was written through a cursor.
    @inline(__always)
    mutating func advance(to cursor: ByteCursor) {
        count = cursor.position - base
        precondition(count <= capacity, "a write past the room reserved")
    }

    mutating func bytes(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { self.bytes($0) }
    }

    mutating func bytes(_ bytes: Span<UInt8>) {
        bytes.withUnsafeBufferPointer { self.bytes($0) }
    }

    /// Writes a table's piece (at most ``overRead`` bytes), copied as two whole 16-byte vectors.
    @inline(__always)
    mutating func piece(_ index: Int, of table: PaddedTable) {
        reserve(Self.overRead)
        pieceInReserved(index, of: table)
    }

    /// ``piece(_:of:)``, room for ``overRead`` bytes having been reserved.
    @inline(__always)
    mutating func pieceInReserved(_ index: Int, of table: PaddedTable) {
        var cursor = self.cursor
        cursor.piece(index, of: table)
        advance(to: cursor)
    }

    mutating func ascii(_ text: StaticString) {
        bytes(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// The pairs of digits 00…99, for writing numbers two digits per step.
    static let digitPairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// Writes an integer in decimal, two digits per step.
    mutating func integer(_ value: Int64) {
        reserve(Self.integerBound)
        integerInReserved(value)
    }

    /// ``integer(_:)``, room for ``integerBound`` bytes having been reserved.
    @inline(__always)
    mutating func integerInReserved(_ value: Int64) {
        var cursor = self.cursor
        cursor.integer(value)
        advance(to: cursor)
    }
}

/// A position in a ``LineWriter``'s reserved room, written through directly: what loops that write many fields use
/// (``LineWriter/cursor``), since a cursor stays in a register. Each write checks that it stays before ``limit``,
/// in release builds too (one comparison, the room having been reserved beforehand).
struct ByteCursor {
    var position: UnsafeMutablePointer<UInt8>
    /// The end of the memory the cursor may write to.
    let limit: UnsafeMutablePointer<UInt8>

    @inline(__always)
    private func check(_ bytes: Int) {
        precondition(limit - position >= bytes, "a write past the room reserved")
    }

    @inline(__always)
    mutating func byte(_ byte: UInt8) {
        check(1)
        position.pointee = byte
        position += 1
    }

    /// Writes `count` bytes (at most ``LineWriter/overRead``) from a source that stays readable for
    /// ``LineWriter/overRead`` bytes from its start: copied as two whole 16-byte vectors, past their end, and only
    /// `count` kept. (The room reserved must hold the 32 bytes.)
    @inline(__always)
    mutating func paddedBytes(_ source: UnsafePointer<UInt8>, count: Int) {
        precondition(count <= LineWriter.overRead, "a padded copy longer than its padding")
        check(LineWriter.overRead)
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(position)
        to.storeBytes(of: from.loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
        to.storeBytes(of: from.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self), toByteOffset: 16,
                      as: SIMD16<UInt8>.self)
        position += count
    }

    /// Writes a table's piece of at most ``LineWriter/overRead`` bytes (the table's padding is read past it).
    @inline(__always)
    mutating func piece(_ index: Int, of table: PaddedTable) {
        let piece = table.pieces[index]
        paddedBytes(table.base + piece.start, count: piece.count)
    }

    /// Writes a table's piece of any length, 32 bytes at a time (the table's padding is read past it).
    @inline(__always)
    mutating func longPiece(_ index: Int, of table: PaddedTable) {
        let piece = table.pieces[index]
        paddedCopy(table.base + piece.start, count: piece.count)
    }

    /// Writes `count` bytes from a source readable up to `count` rounded up to 32, 32 bytes at a time (the room
    /// reserved must hold that rounded count too).
    @inline(__always)
    mutating func paddedCopy(_ source: UnsafePointer<UInt8>, count: Int) {
        check((count + 31) & ~31)
        var offset = 0
        while offset < count {
            let from = UnsafeRawPointer(source + offset)
            let to = UnsafeMutableRawPointer(position + offset)
            // Two 16-byte vectors (one load and one store each, where four words took four of each).
            to.storeBytes(of: from.loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self), toByteOffset: 16,
                          as: SIMD16<UInt8>.self)
            offset += 32
        }
        position += count
    }

    /// Writes an integer in decimal, two digits per step (at most ``LineWriter/integerBound`` bytes).
    ///
    /// Values below 100 (counters, flags, short times: most fields of most events) are written in place; larger
    /// ones by ``largeInteger(_:)``.
    @inline(__always)
    mutating func integer(_ value: Int64) {
        let small = UInt64(bitPattern: value)
        guard small >= 100 else {
            if small >= 10 {
                check(2)
                let pair = LineWriter.digitPairs.utf8Start + Int(small) &* 2
                position[0] = pair[0]
                position[1] = pair[1]
                position += 2
            } else {
                byte(UInt8(truncatingIfNeeded: 48 + small))
            }
            return
        }
        largeInteger(value)
    }

    /// ``integer(_:)`` of a negative value or one from 100 up.
    @inline(never)
    mutating func largeInteger(_ value: Int64) {
        var magnitude = value.magnitude
        if value < 0 { byte(UInt8(ascii: "-")) }
        if magnitude < 10 {
            byte(UInt8(truncatingIfNeeded: 48 + magnitude))
            return
        }
        // Digits from the bit length (⌊bits × log10 2⌋, corrected by one comparison), then two per step from a
        // table of the pairs 00…99.
        let estimate = ((64 - magnitude.leadingZeroBitCount) &* 1_233) >> 12
        let digits = estimate + (magnitude < Self.powerOf10(estimate) ? 0 : 1)
        let table = LineWriter.digitPairs.utf8Start
        check(digits)
        var end = position + digits
        position = end
        while magnitude >= 100 {
            let pair = Int(magnitude % 100) &* 2
            magnitude /= 100
            end -= 2
            end[0] = table[pair]
            end[1] = table[pair + 1]
        }
        if magnitude >= 10 {
            let pair = Int(magnitude) &* 2
            end -= 2
            end[0] = table[pair]
            end[1] = table[pair + 1]
        } else {
            end -= 1
            end[0] = UInt8(truncatingIfNeeded: 48 + magnitude)
        }
    }

    /// 10ⁿ for n in 0…19, from a table in read-only data (a `switch` here compiled to an indirect jump that the
    /// processor mispredicted for numbers of varying length: a quarter of the function's time).
    @inline(__always)
    private static func powerOf10(_ exponent: Int) -> UInt64 {
        powersOf10[exponent]
    }

    private static let powersOf10: [UInt64] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000,
        100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
        10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
    ]

}

/// Writes line timestamps (nanoseconds since 1970, 19 digits today) from the digits of the previous one: successive
/// points share their leading digits, so only the last seven are worked out for most of them.
struct TimestampText {
    /// The timestamp divided by 10⁷ whose digits ``digits`` holds (-1: none yet).
    private var high: Int64 = -1
    /// Those digits, with room past them for a padded copy.
    private var digits: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
    private var count = 0

    private static let lowDigits = 7
    private static let lowModulus: Int64 = 10_000_000

    mutating func write(_ timestamp: Int64, to line: inout LineWriter) {
        guard timestamp >= Self.lowModulus else {
            line.integer(timestamp)
            return
        }
        let high = timestamp / Self.lowModulus
        if high != self.high { remember(high) }
        line.reserve(LineWriter.overRead + Self.lowDigits)
        withUnsafeBytes(of: &digits) { bytes in
            line.paddedBytesInReserved(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)
        }
        line.fixedDigitsInReserved(timestamp % Self.lowModulus, count: Self.lowDigits)
    }

    private mutating func remember(_ high: Int64) {
        self.high = high
        // Written straight into the digits' room (at most 20 bytes of the 48; the rest stays zero for padded copies).
        digits = (0, 0, 0, 0, 0, 0)
        count = withUnsafeMutableBytes(of: &digits) { room in
            let start = room.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var cursor = ByteCursor(position: start, limit: start + room.count)
            cursor.integer(high)
            return cursor.position - start
        }
    }
}

extension LineWriter {
    /// Writes a non-negative value below 10^`count` as exactly `count` digits (leading zeros kept); room must have
    /// been reserved.
    @inline(__always)
    mutating func fixedDigitsInReserved(_ value: Int64, count digitCount: Int) {
        let table = Self.digitPairs.utf8Start
        var rest = UInt64(value)
        var offset = digitCount
        while offset >= 2 {
            let pair = Int(rest % 100) &* 2
            rest /= 100
            offset -= 2
            byteAt(offset, table[pair])
            byteAt(offset + 1, table[pair + 1])
        }
        if offset == 1 { byteAt(0, UInt8(truncatingIfNeeded: 48 + rest % 10)) }
        skip(digitCount)
    }
}

/// Bytes made once and read for the life of the process (escaped names, field separators, flag texts), with
/// padding past the last piece so that a piece is copied as whole 16-byte vectors
/// (``ByteCursor/piece(_:of:)``). The memory is written in `init` only and never freed: tables are static. A piece
/// is only ever read by its index in its own table, whose padding `init` sized for the longest piece.
final class PaddedTable: Sendable {
    /// Where a piece is in a table.
    struct Piece: Sendable {
        let start: Int
        let count: Int
    }

    nonisolated(unsafe) fileprivate let base: UnsafeMutablePointer<UInt8>
    /// The pieces, in the order they were given.
    let pieces: [Piece]

    /// A table of `pieces`, each at most `limit` bytes long (a longer one stops the process at start-up, not a line
    /// later).
    init(_ pieces: [[UInt8]], limit: Int) {
        var block: [UInt8] = []
        var ranges: [Piece] = []
        for piece in pieces {
            precondition(piece.count <= limit, "a table piece longer than \(limit) bytes")
            ranges.append(Piece(start: block.count, count: piece.count))
            block += piece
        }
        block += [UInt8](repeating: 0, count: (limit + 31) & ~31 + LineWriter.overRead)
        base = .allocate(capacity: block.count)
        base.initialize(from: block, count: block.count)
        self.pieces = ranges
    }
}
