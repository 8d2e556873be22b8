/// Text for a terminal line: cut to a width counted in visible characters (ANSI SGR sequences take none).
package enum TerminalText {
    package static let bold = "\u{1B}[1m"
    package static let normal = "\u{1B}[22m"
    package static let reset = "\u{1B}[0m"

    package static func visibleWidth(_ text: String) -> Int {
        var width = 0
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if scalar == "m" { inEscape = false }
            } else if scalar == "\u{1B}" {
                inEscape = true
            } else {
                width += 1
            }
        }
        return width
    }

    /// `text` cut to `width` visible characters, styles reset when cut.
    package static func fit(_ text: String, width: Int) -> String {
        guard visibleWidth(text) > width else { return text }
        var out = ""
        var visible = 0
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                out.unicodeScalars.append(scalar)
                if scalar == "m" { inEscape = false }
                continue
            }
            if scalar == "\u{1B}" {
                inEscape = true
                out.unicodeScalars.append(scalar)
                continue
            }
            guard visible < width - 1 else { break }
            out.unicodeScalars.append(scalar)
            visible += 1
        }
        return out + "…" + reset
    }
}
