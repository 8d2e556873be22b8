import PlaytraceCore
import PlaytraceTelemetry

/// How the encoder writes a list's attributes as tags or fields (the general path, and the helpers the fast paths
/// share).
extension LineProtocolEncoder {
    /// Writes the tags (`tags`) or the fields of a list.
    func writeEntries(of attributes: AttributeList, tags: Bool, fields: inout FieldSeparator,
                                  to line: inout LineWriter) {
        attributes.withEntries { entries in
            for index in entries.indices
            where isTag(entries[index]) == tags && Self.isWritableName(entries[index].attribute) {
                if tags {
                    writeTag(entries[index], to: &line)
                } else {
                    if !NameTable.shared.writeFieldStart(entries[index].attribute.id, fields: &fields, to: &line) {
                        fields.write(to: &line)
                        Self.writeName(of: entries[index], to: &line)
                        line.byte(UInt8(ascii: "="))
                    }
                    Self.writeField(of: entries[index], to: &line)
                }
            }
        }
    }

    /// Whether an attribute is written as a tag.
    @inline(__always)
    func isTag(_ attribute: Attribute) -> Bool {
        guard let slot = Attribute.standardSlot(of: attribute.id) else {
            return hasCustomTags && tagAttributes.contains(attribute)
        }
        return slot < 64 ? tagMasks.0 & (1 << UInt64(slot)) != 0 : tagMasks.1 & (1 << UInt64(slot - 64)) != 0
    }

    /// What identifies the encoder's choice of tags, for caches.
    var tagKey: TagKey { tagChoice }

    /// Whether a text can be a tag's value: InfluxDB refuses empty ones, and backslashes alone write as nothing
    /// (such a tag is left out).
    static func isWritableTagText(_ text: String) -> Bool {
        text.utf8.contains { $0 != UInt8(ascii: "\\") }
    }

    /// Whether an attribute's name can be a key: a custom one empty or made of backslashes alone would write as
    /// nothing, and InfluxDB refuses the line (the whole batch): such an attribute is left out.
    static func isWritableName(_ attribute: Attribute) -> Bool {
        Attribute.standardSlot(of: attribute.id) != nil || isWritableTagText(attribute.name)
    }

    /// Whether an action's name can be the `action` tag's value (a custom one may not be): else the tag is left out.
    static func isWritableAction(_ action: Action) -> Bool {
        action.standardIndex != nil || isWritableTagText(action.name)
    }

    func writeTag(_ entry: borrowing AttributeList.Entry, to line: inout LineWriter) {
        guard Self.isWritableName(entry.attribute) else { return }
        switch entry.value {
        case .string(let text):
            guard Self.isWritableTagText(text) else { return }
            writeTagStart(entry, to: &line)
            Self.writeTagText(text, to: &line)
        case .int(let value):
            writeTagStart(entry, to: &line)
            line.integer(Int64(value))
        case .bool(let value):
            writeTagStart(entry, to: &line)
            if value { line.ascii("true") } else { line.ascii("false") }
        case .double(let value):
            writeTagStart(entry, to: &line)
            Self.writeTagText(value.description, to: &line)
        }
    }

    private func writeTagStart(_ entry: borrowing AttributeList.Entry, to line: inout LineWriter) {
        line.byte(UInt8(ascii: ","))
        Self.writeName(of: entry, to: &line)
        line.byte(UInt8(ascii: "="))
    }

    @inline(__always)
    static func writeName(of entry: borrowing AttributeList.Entry, to line: inout LineWriter) {
        if !NameTable.shared.writeName(entry.attribute.id, to: &line) {
            writeTagText(entry.attribute.name, to: &line)
        }
    }
}
