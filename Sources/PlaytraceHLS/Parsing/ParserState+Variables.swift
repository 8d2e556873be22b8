/// Variables (`EXT-X-DEFINE`): definitions, imports, query parameters, and their substitution in values.
extension ParserState {
    /// The text with every `{$name}` replaced by its value, within the playlist's substitution budget.
    mutating func substitute(_ text: String) throws(PlaylistParseError) -> String {
        guard text.contains("{$") else { return text }
        var result = ""
        var rest = Substring(text)
        while let open = rest.range(of: "{$") {
            result += rest[..<open.lowerBound]
            let afterOpen = rest[open.upperBound...]
            guard let close = afterOpen.firstIndex(of: "}") else {
                result += rest[open.lowerBound...]
                return result
            }
            let name = String(afterOpen[..<close])
            guard let value = variables[name] else {
                if unresolvedImports.contains(name) { result += "{$\(name)}" } else {
                    throw PlaylistParseError(line: line, reason: .undefinedVariable(name))
                }
                rest = afterOpen[afterOpen.index(after: close)...]
                continue
            }
            substitutionBudget -= value.utf8.count
            guard substitutionBudget >= 0 else {
                throw PlaylistParseError(line: line, reason: .limitExceeded(.substitutedBytes(totalSubstitutionBudget)))
            }
            result += value
            rest = afterOpen[afterOpen.index(after: close)...]
        }
        result += rest
        return result
    }

    /// The value of a variable defined outside the playlist: an error when the context is known and lacks it;
    /// unresolved (kept as a reference, with a warning) when the context is unknown.
    private mutating func resolveExternal(_ name: String, in context: [String: String]?, unknown: String)
        throws(PlaylistParseError) -> String?
    {
        guard let context else {
            unresolvedImports.insert(name)
            warnings.append(PlaylistWarning(line: line, message: unknown))
            return nil
        }
        guard let value = context[name] else { throw PlaylistParseError(line: line, reason: .undefinedVariable(name)) }
        return value
    }

    mutating func define(_ value: Span<UInt8>) throws(PlaylistParseError) {
        guard definedNames.count < options.limits.maximumVariables else {
            throw PlaylistParseError(line: line, reason: .limitExceeded(.variables(options.limits.maximumVariables)))
        }
        let reader = try attributes(value, .define)
        let definition: VariableDefinition
        let resolved: String?
        if let name = reader.string("NAME") {
            let text = try reader.requiredString("VALUE")
            definition = .value(name: name, value: text)
            resolved = text
        } else if let name = reader.string("IMPORT") {
            definition = .import(name: name)
            resolved = try resolveExternal(name, in: options.importedVariables,
                                           unknown: "the imported variable \(name) is unknown outside its multivariant playlist")
        } else if let name = reader.string("QUERYPARAM") {
            definition = .queryParameter(name: name)
            resolved = try resolveExternal(name, in: options.queryParameters,
                                           unknown: "the query parameter \(name) is unknown without the playlist's URL")
        } else {
            throw PlaylistParseError(line: line, reason: .missingAttribute(tag: TagName.define.text, attribute: "NAME"))
        }
        let name = definition.name
        guard !name.isEmpty, name.utf8.allSatisfy({ byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x5F
        }) else {
            throw PlaylistParseError(line: line, reason: .invalidAttribute(tag: TagName.define.text, attribute: "NAME", value: name))
        }
        guard !definedNames.contains(name) else {
            throw PlaylistParseError(line: line, reason: .duplicateVariable(name))
        }
        if let resolved, resolved.utf8.count > options.limits.maximumVariableValueLength {
            throw PlaylistParseError(line: line, reason: .limitExceeded(
                .variableValueLength(options.limits.maximumVariableValueLength)))
        }
        // A value that still holds "{$" would be substituted again by whoever reads the playlist written back:
        // substitution is one pass, so such a value cannot round-trip (and clients disagree on it).
        if let resolved, resolved.contains("{$") {
            throw PlaylistParseError(line: line, reason: .invalidAttribute(
                tag: TagName.define.text, attribute: Self.valueAttribute(of: definition), value: resolved))
        }
        if let resolved { variables[name] = resolved }
        definedNames.insert(name)
        media.definitions.append(definition)
    }

    /// The attribute of EXT-X-DEFINE that gives a definition its value.
    private static func valueAttribute(of definition: VariableDefinition) -> String {
        switch definition {
        case .value: "VALUE"
        case .import: "IMPORT"
        case .queryParameter: "QUERYPARAM"
        }
    }
}
