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

    func has(_ key: String) -> Bool {
        guard let value = object[key] else { return false }
        return !(value is NSNull)
    }

    /// A number (or `nil` when absent or null); a value of another type is a problem.
    func number(_ key: String, problems: inout [AdMetadataProblem]) -> Double? {
        guard let value = object[key], !(value is NSNull) else { return nil }
        if let number = value as? NSNumber, !Self.isBoolean(number) {
            let double = number.doubleValue
            if double.isFinite, abs(double) <= Self.largestNumber { return double }
            problems.append(AdMetadataProblem(path: path(of: key), message: "\(number) is out of range"))
            return nil
        }
        problems.append(AdMetadataProblem(path: path(of: key), message: "\(Self.kind(of: value)) where a number was expected"))
        return nil
    }

    /// A string; a number is taken in its decimal form (identifiers are both in real data).
    func identifier(_ key: String, problems: inout [AdMetadataProblem]) -> String? {
        guard let value = object[key], !(value is NSNull) else { return nil }
        if let string = value as? String { return string }
        if let number = value as? NSNumber, !Self.isBoolean(number) {
            let double = number.doubleValue
            if double.isFinite, double == double.rounded(), abs(double) < 1e15 { return String(Int64(double)) }
            return "\(double)"
        }
        problems.append(AdMetadataProblem(path: path(of: key), message: "\(Self.kind(of: value)) where an identifier was expected"))
        return nil
    }

    func string(_ key: String, problems: inout [AdMetadataProblem]) -> String? {
        guard let value = object[key], !(value is NSNull) else { return nil }
        if let string = value as? String { return string }
        problems.append(AdMetadataProblem(path: path(of: key), message: "\(Self.kind(of: value)) where a string was expected"))
        return nil
    }

    /// The first `limit` elements of an array (`nil` when absent or null); another type, or more elements than
    /// `limit`, is a problem.
    private func array(_ key: String, limit: Int, problems: inout [AdMetadataProblem]) -> ArraySlice<Any>? {
        guard let value = object[key], !(value is NSNull) else { return nil }
        guard let array = value as? [Any] else {
            problems.append(AdMetadataProblem(path: path(of: key), message: "\(Self.kind(of: value)) where an array was expected"))
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
            if let object = element as? [String: Any] {
                readers.append(JSONReader(object: object, path: elementPath))
            } else {
                problems.append(AdMetadataProblem(path: elementPath, message: "\(Self.kind(of: element)) where an object was expected"))
            }
        }
        return readers
    }

    /// The strings of an array (URLs); other elements, and strings over `maximumLength`, are problems.
    func strings(_ key: String, limit: Int, maximumLength: Int, problems: inout [AdMetadataProblem]) -> [String]? {
        guard let array = array(key, limit: limit, problems: &problems) else { return nil }
        var strings: [String] = []
        for (index, element) in array.enumerated() {
            guard let string = element as? String else {
                problems.append(AdMetadataProblem(path: "\(path(of: key))[\(index)]", message: "\(Self.kind(of: element)) where a URL string was expected"))
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
    func count(_ key: String) -> Int { (object[key] as? [Any])?.count ?? 0 }

    /// How many elements of an array lie past `limit` (and are not read).
    func countOver(_ key: String, limit: Int) -> Int { max(0, count(key) - limit) }

    private static func isBoolean(_ number: NSNumber) -> Bool {
        // JSONSerialization gives booleans as NSNumber too; their type encoding is "c" (a C char).
        String(cString: number.objCType) == "c"
    }

    static func kind(of value: Any) -> String {
        switch value {
        case is String: "a string"
        case let number as NSNumber: isBoolean(number) ? "a boolean" : "a number"
        case is [Any]: "an array"
        case is [String: Any]: "an object"
        case is NSNull: "null"
        default: "a value"
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
