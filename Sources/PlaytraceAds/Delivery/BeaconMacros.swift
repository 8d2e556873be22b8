public import PlaytraceCore

/// What the VAST macros of a beacon URL are filled with (IAB VAST 4.x §6 and the macro registry). A value left
/// `nil` is unknown: a registered macro without a value becomes `-1`, as the registry asks; `[CACHEBUSTING]` and
/// `[TIMESTAMP]` are always filled.
public struct BeaconMacroValues: Sendable, Hashable {
    /// When the beacon is sent (`[TIMESTAMP]`).
    public var timestamp: StreamDate
    /// Where the playhead is in the ad (`[ADPLAYHEAD]`).
    public var adPlayhead: MediaTime?
    /// Where the playhead is in the content (`[MEDIAPLAYHEAD]`, and the deprecated `[CONTENTPLAYHEAD]`).
    public var mediaPlayhead: MediaTime?
    /// 1 pre-roll, 2 mid-roll, 3 post-roll, 4 standalone, 0 other (`[BREAKPOSITION]`).
    public var breakPosition: Int?
    /// `[LIMITADTRACKING]`: whether the viewer limited ad tracking (0 or 1).
    public var limitAdTracking: Bool
    /// `[SERVERSIDE]`: 0, the client sends its own beacons.
    public var serverSide = 0
    /// `[ADCOUNT]`: the ad's position among those played in the break, from 1.
    public var adCount: Int?
    /// `[PODSEQUENCE]`: the ad's sequence in its pod.
    public var podSequence: Int?
    /// `[ASSETURI]`, `[CONTENTID]`, `[CONTENTURI]`, `[UNIVERSALADID]`, `[CLIENTUA]`.
    public var assetURI: String?
    public var contentID: String?
    public var contentURI: String?
    public var universalAdID: String?
    public var clientUA: String?
    /// `[ERRORCODE]` (error beacons) and `[REASON]` (verificationNotExecuted).
    public var errorCode: Int?
    public var reason: Int?
    /// `[ADSERVINGID]` and `[ADTYPE]`.
    public var adServingID: String?
    public var adType: String?

    public init(timestamp: StreamDate, adPlayhead: MediaTime? = nil, mediaPlayhead: MediaTime? = nil, breakPosition: Int? = nil,
                limitAdTracking: Bool = false) {
        self.timestamp = timestamp
        self.adPlayhead = adPlayhead
        self.mediaPlayhead = mediaPlayhead
        self.breakPosition = breakPosition
        self.limitAdTracking = limitAdTracking
    }
}

/// Fills the `[MACRO]`s of beacon URLs, in one pass over the URL (linear in its length).
///
/// Each value is percent-encoded (RFC 3986 unreserved characters kept). Registered macros this client cannot
/// fill become `-1`; bracketed text that is not a registered macro is left as it is.
///
/// ```swift
/// let url = BeaconMacros.fill("https://t.example/i?cb=[CACHEBUSTING]&ts=[TIMESTAMP]", with: values)
/// ```
public enum BeaconMacros {
    /// The macros of the IAB registry (VAST 4.3), plus vast-client-js's `RANDOM` alias of `CACHEBUSTING`.
    public static let registered: Set<String> = [
        "TIMESTAMP", "CACHEBUSTING", "RANDOM", "CONTENTPLAYHEAD", "MEDIAPLAYHEAD", "BREAKPOSITION",
        "BLOCKEDADCATEGORIES", "ADCATEGORIES", "ADCOUNT", "TRANSACTIONID", "PLACEMENTTYPE", "ADTYPE", "UNIVERSALADID",
        "BREAKMAXDURATION", "BREAKMAXADS", "BREAKMINADLENGTH", "BREAKMAXADLENGTH", "IFA", "IFATYPE", "CLIENTUA",
        "SERVERUA", "DEVICEUA", "SERVERSIDE", "DEVICEIP", "LATLONG", "DOMAIN", "PAGEURL", "APPBUNDLE", "VASTVERSIONS",
        "APIFRAMEWORKS", "EXTENSIONS", "VERIFICATIONVENDORS", "OMIDPARTNER", "MEDIAMIME", "PLAYERCAPABILITIES",
        "CLICKTYPE", "PLAYERSTATE", "INVENTORYSTATE", "PLAYERSIZE", "ADPLAYHEAD", "ASSETURI", "CONTENTID", "CONTENTURI",
        "PODSEQUENCE", "ADSERVINGID", "CLICKPOS", "ERRORCODE", "REASON", "LIMITADTRACKING", "REGULATIONS",
        "GDPRCONSENT", "STOREID", "STOREURL", "PLAYBACKMETHODS", "CONTENTCAT", "GPPSTRING", "GPPSECTIONID",
    ]

    private static let longestName = registered.map(\.utf8.count).max() ?? 0

    /// The URL with its macros filled. `random` draws `[CACHEBUSTING]` (eight digits, zero-padded).
    public static func fill(_ template: String, with values: BeaconMacroValues,
                            random: () -> UInt32 = { UInt32.random(in: 0..<100_000_000) }) -> String {
        guard template.utf8.contains(UInt8(ascii: "[")) else { return template }
        var output = ""
        output.reserveCapacity(template.utf8.count + 32)
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "[") {
            output += rest[..<open]
            let afterOpen = rest.index(after: open)
            // A macro name is short and made of capitals, digits and underscores; anything else is plain text.
            var cursor = afterOpen
            var length = 0
            while cursor < rest.endIndex, length <= longestName, let ascii = rest[cursor].asciiValue,
                  (ascii >= 65 && ascii <= 90) || (ascii >= 48 && ascii <= 57) || ascii == 95 {
                cursor = rest.index(after: cursor)
                length += 1
            }
            if cursor < rest.endIndex, rest[cursor] == "]", length > 0,
               let value = value(of: String(rest[afterOpen..<cursor]), in: values, random: random) {
                output += percentEncoded(value)
                rest = rest[rest.index(after: cursor)...]
            } else {
                output += "["
                rest = rest[afterOpen...]
            }
        }
        output += rest
        return output
    }

    /// The value of a registered macro (`-1` when unknown); `nil` for a name that is not a macro.
    private static func value(of name: String, in values: BeaconMacroValues, random: () -> UInt32) -> String? {
        guard registered.contains(name) else { return nil }
        let known: String? = switch name {
        case "TIMESTAMP": values.timestamp.iso8601Milliseconds
        case "CACHEBUSTING", "RANDOM": eightDigits(random())
        case "ADPLAYHEAD": values.adPlayhead.map { clockTime($0.seconds) }
        case "MEDIAPLAYHEAD", "CONTENTPLAYHEAD": values.mediaPlayhead.map { clockTime($0.seconds) }
        case "BREAKPOSITION": values.breakPosition.map(String.init)
        case "LIMITADTRACKING": values.limitAdTracking ? "1" : "0"
        case "SERVERSIDE": String(values.serverSide)
        case "ADCOUNT": values.adCount.map(String.init)
        case "PODSEQUENCE": values.podSequence.map(String.init)
        case "ASSETURI": values.assetURI
        case "CONTENTID": values.contentID
        case "CONTENTURI": values.contentURI
        case "UNIVERSALADID": values.universalAdID
        case "CLIENTUA": values.clientUA
        case "ADSERVINGID": values.adServingID
        case "ADTYPE": values.adType
        case "ERRORCODE": values.errorCode.map(String.init)
        case "REASON": values.reason.map(String.init)
        default: nil
        }
        return known ?? "-1"
    }

    private static func eightDigits(_ value: UInt32) -> String {
        let digits = String(value % 100_000_000)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    /// `HH:MM:SS.mmm`.
    static func clockTime(_ seconds: Double) -> String {
        let milliseconds = Int64(saturating: max(0, seconds.isFinite ? seconds : 0) * 1000)
        let hours = milliseconds / 3_600_000
        let minutes = milliseconds / 60_000 % 60
        let wholeSeconds = milliseconds / 1000 % 60
        func padded(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(padded(hours, 2)):\(padded(minutes, 2)):\(padded(wholeSeconds, 2)).\(padded(milliseconds % 1000, 3))"
    }

    /// RFC 3986 percent-encoding: unreserved characters kept, every other byte encoded.
    static func percentEncoded(_ value: String) -> String {
        var output = ""
        output.reserveCapacity(value.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                output.unicodeScalars.append("%")
                output.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                output.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 15)]))
            }
        }
        return output
    }
}

public extension BeaconMacroValues {
    /// Takes a VAST ad's own values (`[ASSETURI]`, `[UNIVERSALADID]`, `[PODSEQUENCE]`, `[ADCOUNT]`,
    /// `[ADSERVINGID]`, `[ADTYPE]`).
    mutating func apply(_ context: VASTAdContext) {
        assetURI = context.assetURI ?? assetURI
        universalAdID = context.universalAdID ?? universalAdID
        podSequence = context.podSequence ?? podSequence
        adCount = context.adCount
        adServingID = context.adServingID ?? adServingID
        adType = context.adType ?? adType
    }
}
