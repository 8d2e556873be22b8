import ArgumentParser
import Foundation
import PlaytraceCore

/// The headers `play` sends, each option on its own kind of request: media (playlists, segments, keys, interstitial
/// assets), ad decisions and metadata (SSAI session set-up, metadata polls, VAST), beacons. SSAI ad decisions and ad
/// servers answer by device and user agent, as players' own requests carry them.
struct RequestOptions: ParsableArguments {
    @Option(name: .customLong("header"), help: ArgumentHelp(
        "A header for media requests, NAME:VALUE (repeatable): playlists, segments, keys.", valueName: "name:value"))
    var mediaHeaders: [String] = []

    @Option(name: .customLong("ads-header"), help: ArgumentHelp(
        "A header for ad requests, NAME:VALUE (repeatable): SSAI session set-up, ad metadata, VAST.",
        valueName: "name:value"))
    var adsHeaders: [String] = []

    @Option(name: .customLong("beacon-header"), help: ArgumentHelp(
        "A header for beacons, NAME:VALUE (repeatable).",
        discussion: "Header values are sent, never stored or printed: a beacon that an earlier run left in the outbox "
            + "goes out without them.", valueName: "name:value"))
    var beaconHeaders: [String] = []

    @Option(name: .customLong("user-agent"), help: ArgumentHelp(
        "The User-Agent of media, ad and beacon requests.", discussion: "By default Playtrace/\(PlaytraceVersion.current)."))
    var userAgent: String?

    /// Headers the HTTP client sets itself, or that would change what a request is.
    static let reserved: Set<String> = ["host", "content-length", "transfer-encoding", "connection", "upgrade", "te",
                                        "trailer"]

    func validate() throws {
        for (option, values) in [("--header", mediaHeaders), ("--ads-header", adsHeaders), ("--beacon-header", beaconHeaders)] {
            for (index, value) in values.enumerated() {
                _ = try Self.parse(value, option: option, index: index + 1)
            }
        }
        if let userAgent, !Self.isValidValue(userAgent) || userAgent.isEmpty {
            throw ValidationError("--user-agent must be one line of visible characters")
        }
    }

    enum Kind { case media, ads, beacons }

    /// The headers of a kind of request, the user agent last.
    func headers(for kind: Kind) -> [(name: String, value: String)] {
        let values = switch kind {
        case .media: mediaHeaders
        case .ads: adsHeaders
        case .beacons: beaconHeaders
        }
        let parsed = values.compactMap { try? Self.parse($0, option: "", index: 0) }
        return parsed + [("User-Agent", userAgent ?? "Playtrace/\(PlaytraceVersion.current)")]
    }

    /// `NAME:VALUE` (spaces around the value dropped, as curl's `-H`). An error names the option and the header by
    /// its place and name, never its value (it may be a token).
    static func parse(_ text: String, option: String, index: Int) throws -> (name: String, value: String) {
        guard let colon = text.firstIndex(of: ":") else {
            throw ValidationError("\(option) #\(index): expected NAME:VALUE")
        }
        let name = String(text[..<colon])
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        let token = "!#$%&'*+-.^_`|~"
        guard !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic
                || ("0"..."9").contains($0) || token.unicodeScalars.contains($0)) }) else {
            throw ValidationError("\(option) #\(index): the name is not a header name (letters, digits, -)")
        }
        guard !reserved.contains(name.lowercased()) else {
            throw ValidationError("\(option) \(name): the HTTP client sets it")
        }
        guard isValidValue(value) else {
            throw ValidationError("\(option) \(name): the value must be one line of visible characters")
        }
        return (name, value)
    }

    /// No control character but the tab (no line break could add a header or a request).
    private static func isValidValue(_ value: String) -> Bool {
        value.unicodeScalars.allSatisfy { $0 == "\t" || ($0.value >= 0x20 && $0.value != 0x7F) }
    }
}
