import Foundation

/// Reads one JSON object of ad metadata leniently: each accessor says what is wrong with a field (as a problem
/// with its path) instead of throwing, so that one bad element costs only itself.
struct JSONReader {
    let object: [String: Any]
    let path: String

    /// The largest magnitude a time or duration may have: 1e15 (in milliseconds, some 31,000 years; in seconds, far
    /// more), so that every value converts to whole milliseconds in 64 bits.
    static let largestNumber = 1e15

    /// Parses a body into its root object, within the limits.
    static func root(of body: some Collection<UInt8>, limits: AdMetadataLimits) throws(AdMetadataError) -> JSONReader {
        guard body.count <= limits.maximumBodyBytes else {
            throw .bodyTooLarge(size: body.count, limit: limits.maximumBodyBytes)
        }
        let value: Any
        do {
            value = try JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])
        } catch {
            throw .invalidJSON(Self.summary(of: error))
        }
        guard let object = value as? [String: Any] else { throw .notAnObject }
        return JSONReader(object: object, path: "")
    }

    private static func summary(of error: any Error) -> String {
        let nsError = error as NSError
        if let detail = nsError.userInfo[NSDebugDescriptionErrorKey] as? String { return detail }
        return "\(error)"
    }

    func path(of key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The value under `key`, classified (`nil` when absent).
    private func value(_ key: String) -> Value? {
        object[key].map(Value.init)
    }

    func has(_ key: String) -> Bool {
        switch value(key) {
        case nil, .null?: false
        default: true
        }
    }

    /// A number (or `nil` when absent or null); a value of another type is a problem.
    func number(_ key: String, problems: inout [AdMetadataProblem]) -> Double? {
        switch value(key) {
        case nil, .null?:
            return nil
        case .number(let double)?:
            if double.isFinite, abs(double) <= Self.largestNumber { return double }
            problems.append(AdMetadataProblem(path: path(of: key), message: "\(double) is out of range"))
            return nil
        case let other?:
            problems.append(AdMetadataProblem(path: path(of: key), message: "\(other.kind) where a number was expected"))
            return nil
        }
    }

    /// A string; a number is taken in its decimal form (identifiers are both in real data).
    func identifier(_ key: String, problems: inout [AdMetadataProblem]) -> String? {
        switch value(key) {
        case nil, .null?:
            return nil
        case .string(let string)?:
            return string
        case .number(let double)?:
            if double.isFinite, double == double.rounded(), abs(double) < 1e15 { return String(Int64(double)) }
            return "\(double)"
        case let other?:
            problems.append(AdMetadataProblem(path: path(of: key), message: "\(other.kind) where an identifier was expected"))
            return nil
        }
    }

    func string(_ key: String, problems: inout [AdMetadataProblem]) -> String? {
        switch value(key) {
        case nil, .null?:
            return nil
        case .string(let string)?:
            return string
        case let other?:
            problems.append(AdMetadataProblem(path: path(of: key), message: "\(other.kind) where a string was expected"))
            return nil
        }
    }

    /// The first `limit` elements of an array (`nil` when absent or null); another type, or more elements than
    /// `limit`, is a problem.
    private func array(_ key: String, limit: Int, problems: inout [AdMetadataProblem]) -> ArraySlice<Any>? {
        let array: [Any]
        switch value(key) {
        case nil, .null?:
            return nil
        case .array(let elements)?:
            array = elements
        case let other?:
            problems.append(AdMetadataProblem(path: path(of: key), message: "\(other.kind) where an array was expected"))
            return nil
        }
        if array.count > limit {
            problems.append(AdMetadataProblem(path: path(of: key), message: "\(array.count) elements: only the first \(limit) are read"))
        }
        return array.prefix(limit)
    }

    /// The objects of an array, each with its path; other elements are problems. At most `limit` are read.
    func objects(_ key: String, limit: Int, problems: inout [AdMetadataProblem]) -> [JSONReader]? {
        guard let array = array(key, limit: limit, problems: &problems) else { return nil }
        var readers: [JSONReader] = []
        readers.reserveCapacity(array.count)
        for (index, element) in array.enumerated() {
            let elementPath = "\(path(of: key))[\(index)]"
            switch Value(element) {
            case .object(let object):
                readers.append(JSONReader(object: object, path: elementPath))
            case let other:
                problems.append(AdMetadataProblem(path: elementPath, message: "\(other.kind) where an object was expected"))
            }
        }
        return readers
    }

    /// The strings of an array (URLs); other elements, and strings over `maximumLength`, are problems.
    func strings(_ key: String, limit: Int, maximumLength: Int, problems: inout [AdMetadataProblem]) -> [String]? {
        guard let array = array(key, limit: limit, problems: &problems) else { return nil }
        var strings: [String] = []
        for (index, element) in array.enumerated() {
            let value = Value(element)
            guard case .string(let string) = value else {
                problems.append(AdMetadataProblem(path: "\(path(of: key))[\(index)]", message: "\(value.kind) where a URL string was expected"))
                continue
            }
            guard string.utf8.count <= maximumLength else {
                problems.append(AdMetadataProblem(path: "\(path(of: key))[\(index)]", message: "a URL of \(string.utf8.count) bytes, over the limit of \(maximumLength)"))
                continue
            }
            strings.append(string)
        }
        return strings
    }

    /// The number of elements of an array (0 when absent or not an array).
    func count(_ key: String) -> Int {
        guard case .array(let elements)? = value(key) else { return 0 }
        return elements.count
    }

    /// How many elements of an array lie past `limit` (and are not read).
    func countOver(_ key: String, limit: Int) -> Int { max(0, count(key) - limit) }

    /// A value of `JSONSerialization`'s tree, by its JSON type.
    ///
    /// The Swift types (strings, arrays, dictionaries) are tested before the classes (`NSNull`, `NSNumber`): on
    /// Linux, testing a Swift array or dictionary against a class bridges the whole tree beneath it to Foundation
    /// objects first, which made every test of an element cost time in proportion to the body.
    private enum Value {
        case string(String)
        case array([Any])
        case object([String: Any])
        case number(Double)
        case boolean
        case null
        case other

        init(_ value: Any) {
            if let string = value as? String {
                self = .string(string)
            } else if let array = value as? [Any] {
                self = .array(array)
            } else if let object = value as? [String: Any] {
                self = .object(object)
            } else if value is NSNull {
                self = .null
            } else if let number = value as? NSNumber {
                // JSONSerialization gives booleans as NSNumber too; their type encoding is "c" (a C char).
                self = String(cString: number.objCType) == "c" ? .boolean : .number(number.doubleValue)
            } else {
                self = .other
            }
        }

        var kind: String {
            switch self {
            case .string: "a string"
            case .array: "an array"
            case .object: "an object"
            case .number: "a number"
            case .boolean: "a boolean"
            case .null: "null"
            case .other: "a value"
            }
        }
    }
}

/// Gives duplicate identifiers within one list a `#2`, `#3`… suffix so that every element has its own identity.
struct IdentifierDeduplicator {
    private var seen: [String: Int] = [:]

    mutating func unique(_ identifier: String) -> String {
        let count = (seen[identifier] ?? 0) + 1
        seen[identifier] = count
        return count == 1 ? identifier : "\(identifier)#\(count)"
    }
}
