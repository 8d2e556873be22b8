import PlaytraceCore
import PlaytraceTelemetry

/// Writes events and metrics as one JSON object each (RFC 8259 escaping, typed values, stable key order).
enum JSONWriter {
    static func event(_ event: Event) -> String {
        var text = "{\"type\":\"event\",\"action\":"
        appendString(event.action.name, to: &text)
        text += ",\"date\":\"\(event.date.iso8601)\",\"attributes\":"
        appendAttributes(event.allAttributes, to: &text)
        text += "}"
        return text
    }

    static func metric(_ metric: Metric) -> String {
        var text = "{\"type\":\"metric\",\"name\":"
        appendString(metric.name, to: &text)
        text += ",\"kind\":\"\(metric.kind.rawValue)\",\"value\":"
        appendNumber(metric.value, to: &text)
        text += ",\"date\":\"\(metric.date.iso8601)\",\"dimensions\":"
        appendAttributes(metric.dimensions, to: &text)
        text += "}"
        return text
    }

    private static func appendAttributes(_ attributes: AttributeList, to text: inout String) {
        text += "{"
        var first = true
        for entry in attributes {
            if !first { text += "," }
            first = false
            appendString(entry.attribute.name, to: &text)
            text += ":"
            switch entry.value {
            case .int(let value): text += String(value)
            case .double(let value): appendNumber(value, to: &text)
            case .bool(let value): text += value ? "true" : "false"
            case .string(let value): appendString(value, to: &text)
            }
        }
        text += "}"
    }

    /// JSON has no NaN or infinity: they are written as null.
    private static func appendNumber(_ value: Double, to text: inout String) {
        text += value.isFinite ? "\(value)" : "null"
    }

    static func appendString(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
