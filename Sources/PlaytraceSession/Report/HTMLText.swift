import Foundation

/// HTML text made safe: everything a report shows comes from the network (URLs, IDs, error texts), so every piece of
/// text is escaped, and nothing from a session ever becomes a link, a script or a style.
enum HTMLText {
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                // Control characters other than tab and newline have no place in a report.
                if character.value < 0x20 && character != "\t" && character != "\n" || character.value == 0x7F {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(character)
                }
            }
        }
        return out
    }

    /// `<tag class="…">escaped text</tag>`.
    static func element(_ tag: String, _ text: String, class name: String? = nil) -> String {
        "<\(tag)" + (name.map { " class=\"\($0)\"" } ?? "") + ">" + escape(text) + "</\(tag)>"
    }

    /// A number for an SVG attribute: one decimal, no exponent.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        return String(format: "%.1f", value)
    }
}
