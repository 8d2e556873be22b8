/// A few optional strings (at most ``capacity``) kept as one record of UTF-8 in a ``TextBlock``: the text
/// attributes of a variant stream.
///
/// A multivariant playlist's variants hold about a dozen text attributes each (CODECS, VIDEO-RANGE, AUDIO, …). As
/// `String`s they made a variant some 300 bytes of references to retain, release and copy, and each cost the
/// parser a `String`. Packed, the parser copies the values' bytes once into the parse's block, and a variant keeps
/// a reference to the block and where its record starts. Reading a string makes the `String`.
///
/// A record is a header (the number of strings, one byte; which are present, two bytes; where each ends, four
/// bytes each) followed by the strings' bytes one after another. Setting a string packs them all again into a block
/// of their own (a block is shared and never changed), so a change costs as much as the strings' length. Equality
/// and hashing are by the strings.
struct PackedStrings: Sendable {
    /// The most strings a record holds.
    static let capacity = 15

    private let block: TextBlock
    /// Where the record starts in the block.
    private let offset: Int

    fileprivate init(block: TextBlock, offset: Int) {
        self.block = block
        self.offset = offset
    }

    /// The bytes a record of `count` strings of `bytes` bytes in all takes.
    static func recordSize(count: Int, bytes: Int) -> Int { headerSize(count) + bytes }

    private static func headerSize(_ count: Int) -> Int { 3 &+ 4 &* count }

    /// The strings, in a block of their own.
    init(_ strings: [String?]) {
        let bytes = strings.reduce(0) { $0 + ($1?.utf8.count ?? 0) }
        var builder = Builder(block: .make(capacity: Self.recordSize(count: strings.count, bytes: bytes)),
                              count: strings.count)
        for string in strings {
            guard var string else {
                builder.append(nil)
                continue
            }
            string.withUTF8 { builder.append($0) }
        }
        self = builder.finish()
    }

    /// How many strings there are, present or not.
    var count: Int { Int(block.load(UInt8.self, at: offset)) }

    /// Calls `body` with the bytes of string `index`, or with `nil` when it is absent.
    func withBytes<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> Result) rethrows -> Result {
        let count = self.count
        guard index < count, block.load(UInt16.self, at: offset + 1) & 1 << index != 0 else { return try body(nil) }
        let start = index == 0 ? 0 : end(index - 1)
        return try body(block.bytes(at: offset + Self.headerSize(count) + start, count: end(index) - start))
    }

    /// Where string `index` ends, from the start of the strings.
    private func end(_ index: Int) -> Int { Int(block.load(UInt32.self, at: offset + 3 + 4 * index)) }

    /// String `index` (the bytes are UTF-8: the parser stores only validated text).
    subscript(index: Int) -> String? {
        get { withBytes(index) { $0.map { String(decoding: $0, as: UTF8.self) } } }
        set {
            var strings = (0..<count).map { self[$0] }
            strings[index] = newValue
            self = PackedStrings(strings)
        }
    }

    /// Writes a record of a given number of strings into a block that has room for it
    /// (``PackedStrings/recordSize(count:bytes:)``): nothing else may be appended to the block until ``finish()``.
    struct Builder {
        private let block: TextBlock
        private let offset: Int
        private let count: Int
        private var index = 0
        private var present: UInt16 = 0

        init(block: TextBlock, count: Int) {
            precondition(count <= PackedStrings.capacity, "at most \(PackedStrings.capacity) packed strings")
            guard let offset = block.reserve(PackedStrings.headerSize(count)) else {
                preconditionFailure("a packed strings builder's block has room for its record")
            }
            self.block = block
            self.offset = Int(offset)
            self.count = count
        }

        /// Appends the next string; `nil` for an absent one.
        mutating func append(_ text: UnsafeBufferPointer<UInt8>?) {
            precondition(index < count, "more strings than the record was made for")
            if let text {
                guard block.append(text) != nil else {
                    preconditionFailure("a packed strings builder's block has room for its record")
                }
                present |= 1 << index
            }
            // (Bounded sums: the record lies in the block, at most 4 GB, with at most 15 strings.)
            block.store(UInt32(truncatingIfNeeded: block.count &- offset &- PackedStrings.headerSize(count)),
                        at: offset &+ 3 &+ 4 &* index)
            index &+= 1
        }

        /// The record, once every string is appended.
        func finish() -> PackedStrings {
            precondition(index == count, "fewer strings than the record was made for")
            block.store(UInt8(count), at: offset)
            block.store(present, at: offset + 1)
            return PackedStrings(block: block, offset: offset)
        }
    }
}

extension PackedStrings: Hashable {
    static func == (lhs: PackedStrings, rhs: PackedStrings) -> Bool {
        if lhs.block === rhs.block, lhs.offset == rhs.offset { return true }
        guard lhs.count == rhs.count else { return false }
        return (0..<lhs.count).allSatisfy { index in
            lhs.withBytes(index) { left in
                rhs.withBytes(index) { right in
                    switch (left, right) {
                    case let (left?, right?): left.elementsEqual(right)
                    case (nil, nil): true
                    default: false
                    }
                }
            }
        }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for index in 0..<count {
            withBytes(index) { bytes in
                guard let bytes else { return hasher.combine(-1) }
                hasher.combine(bytes.count)
                hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
            }
        }
    }
}
