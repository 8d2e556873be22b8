/// The typed value of an attribute: what a backend stores as an integer, a float, a string or a boolean.
///
/// Values are typed at the source, so a backend never guesses (InfluxDB gets `42i` for an integer and `42.0` for
/// a float) and no cast can fail at run time.
public enum AttributeValue: Sendable, Hashable {
    case int(Int)
    case double(Double)
    case string(String)
    case bool(Bool)

    /// The value as a number, when it is one (booleans count as 0 or 1).
    public var number: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        case .bool(let value): value ? 1 : 0
        case .string: nil
        }
    }

    /// The value as an integer, when it is an integer.
    public var int: Int? {
        if case .int(let value) = self { return value }
        return nil
    }

    /// The value as a string, when it is a string.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The value as a boolean, when it is one.
    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }
}

extension AttributeValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByBooleanLiteral
{
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension AttributeValue: CustomStringConvertible {
    public var description: String {
        switch self {
        case .int(let value): "\(value)"
        case .double(let value): "\(value)"
        case .string(let value): value
        case .bool(let value): "\(value)"
        }
    }
}
