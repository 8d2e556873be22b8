/// A `SegmentTemplate@media` or `@initialization` value, read once into its pieces, then filled per segment
/// (ISO/IEC 23009-1 5.3.9.4.4): `$RepresentationID$`, `$Number$`, `$Bandwidth$` and `$Time$`, each number with an
/// optional width (`$Number%05d$`: zero-padded to five digits, never cut); `$$` is a dollar sign.
///
/// ```swift
/// let template = SegmentURLTemplate("video/$RepresentationID$/seg-$Number%05d$.m4s")
/// template.url(representationID: "720p", number: 42)   // "video/720p/seg-00042.m4s"
/// ```
///
/// Lenient where players are: an identifier the standard does not define, or a `$` without its closing one, is
/// kept as text (as Shaka keeps it) and listed in ``problems``; the format letters Shaka accepts besides `d`
/// (`i`, `u`: decimal; `x`, `X`: hexadecimal; `o`: octal) are accepted too. Widths above
/// ``maximumWidth`` are capped, so that no template makes a URL of unbounded size.
public struct SegmentURLTemplate: Sendable, Hashable {
    /// The largest width honoured (`%0Nd`).
    public static let maximumWidth = 32

    /// A number's format: its base and width.
    public struct NumberFormat: Sendable, Hashable {
        public var width: Int
        public var radix: Int
        public var uppercase: Bool

        public static let plain = NumberFormat(width: 0, radix: 10, uppercase: false)
    }

    /// One piece of a template.
    public enum Piece: Sendable, Hashable {
        case text(String)
        case representationID
        case number(NumberFormat)
        case bandwidth(NumberFormat)
        case time(NumberFormat)
        /// `$SubNumber$` (ISO/IEC 23009-1 5th edition), for segment sequences.
        case subNumber(NumberFormat)
    }

    /// The text as written.
    public let text: String
    public let pieces: [Piece]
    /// What was kept as text, and why.
    public let problems: [String]

    public init(_ text: String) {
        self.text = text
        var pieces: [Piece] = []
        var problems: [String] = []
        var literal = ""
        var rest = Substring(text)
        func flush() {
            if !literal.isEmpty { pieces.append(.text(literal)) }
            literal = ""
        }
        while let dollar = rest.firstIndex(of: "$") {
            literal += rest[..<dollar]
            let afterDollar = rest.index(after: dollar)
            guard let closing = rest[afterDollar...].firstIndex(of: "$") else {
                problems.append("a '$' without its closing '$' is kept as text")
                literal += rest[dollar...]
                rest = rest[rest.endIndex...]
                break
            }
            let identifier = rest[afterDollar..<closing]
            rest = rest[rest.index(after: closing)...]
            if identifier.isEmpty {
                literal += "$"
                continue
            }
            let name: Substring
            var format = NumberFormat.plain
            if let percent = identifier.firstIndex(of: "%") {
                name = identifier[..<percent]
                guard let parsed = Self.format(identifier[identifier.index(after: percent)...]) else {
                    problems.append("$\(identifier)$ has a format that is not %0Nd: kept as text")
                    literal += "$\(identifier)$"
                    continue
                }
                format = parsed
            } else {
                name = identifier
            }
            let piece: Piece
            switch name {
            case "RepresentationID":
                if format != .plain { problems.append("$RepresentationID$ takes no format: it is ignored") }
                piece = .representationID
            case "Number": piece = .number(format)
            case "Bandwidth": piece = .bandwidth(format)
            case "Time": piece = .time(format)
            case "SubNumber": piece = .subNumber(format)
            default:
                problems.append("$\(identifier)$ is not an identifier of the standard: kept as text")
                literal += "$\(identifier)$"
                continue
            }
            flush()
            pieces.append(piece)
        }
        literal += rest
        flush()
        self.pieces = pieces
        self.problems = problems
    }

    /// Whether the template uses `$Number$` (else, with a timeline, `$Time$` addresses its segments).
    public var usesNumber: Bool { pieces.contains { if case .number = $0 { true } else { false } } }
    /// Whether the template uses `$Time$`.
    public var usesTime: Bool { pieces.contains { if case .time = $0 { true } else { false } } }

    /// The URL (relative, as written) of one segment. A value the template uses and that is not given is written
    /// as nothing.
    public func url(representationID: String? = nil, number: Int64? = nil, bandwidth: Int64? = nil,
                    time: Int64? = nil, subNumber: Int64? = nil) -> String {
        var url = ""
        for piece in pieces {
            switch piece {
            case .text(let text): url += text
            case .representationID: url += representationID ?? ""
            case .number(let format): url += number.map { Self.write($0, format) } ?? ""
            case .bandwidth(let format): url += bandwidth.map { Self.write($0, format) } ?? ""
            case .time(let format): url += time.map { Self.write($0, format) } ?? ""
            case .subNumber(let format): url += subNumber.map { Self.write($0, format) } ?? ""
            }
        }
        return url
    }

    /// `0Nd` and its variants (`%d`, `%05x`); `nil` for anything else.
    private static func format(_ text: Substring) -> NumberFormat? {
        guard let letter = text.last else { return nil }
        let radix: Int
        var uppercase = false
        switch letter {
        case "d", "i", "u": radix = 10
        case "x": radix = 16
        case "X": radix = 16; uppercase = true
        case "o": radix = 8
        default: return nil
        }
        // The standard writes a leading 0 (%05d); Shaka reads the width with or without it.
        var width = 0
        for character in text.dropLast() {
            guard let digit = character.asciiValue, (0x30...0x39).contains(digit) else { return nil }
            width = min(width * 10 + Int(digit - 0x30), maximumWidth)
        }
        return NumberFormat(width: width, radix: radix, uppercase: uppercase)
    }

    private static func write(_ value: Int64, _ format: NumberFormat) -> String {
        let digits = String(value.magnitude, radix: format.radix, uppercase: format.uppercase)
        let sign = value < 0 ? "-" : ""
        let padding = max(0, format.width - digits.count - sign.count)
        return sign + String(repeating: "0", count: padding) + digits
    }
}
