import Foundation
import PlaytraceCore
import PlaytraceSession
import PlaytraceHLS
import PlaytraceNetwork

/// What `inspect` makes of a document that is JSON (or looks like it) and is not ad metadata: an HLS asset list, or
/// the reason it is none of the kinds `inspect` reads.
enum JSONDocument {
    enum Kind {
        case assetList(InterstitialAssetList)
        /// Not JSON: the parser's reason.
        case invalid(String)
        /// JSON of no kind `inspect` reads: its top-level keys.
        case unknown(keys: [String])
    }

    /// Whether the first byte that is not white space (or a byte-order mark) opens a JSON object or array.
    static func looksLikeJSON(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }) else { return false }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    static func classify(_ data: Data) -> Kind {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            return .invalid(reason)
        }
        guard let dictionary = object as? [String: Any] else { return .unknown(keys: []) }
        if dictionary["ASSETS"] != nil {
            do {
                return .assetList(try InterstitialAssetList(json: data))
            } catch {
                return .invalid("an HLS asset list whose ASSETS cannot be read: \(PlainText.describe(error))")
            }
        }
        return .unknown(keys: dictionary.keys.sorted())
    }
}

/// `inspect`'s report of an HLS asset list (what an interstitial's `X-ASSET-LIST` answers): its assets, their
/// durations and total, the skip control, and the problems found.
struct AssetListReport: Encodable {
    struct Asset: Encodable {
        var uri: String
        var durationSeconds: Double
    }

    var schemaVersion = InspectJSON.schemaVersion
    var source: String
    var kind = "hls-asset-list"
    var bytes: Int
    var assets: [Asset]
    var totalDurationSeconds: Double
    var skipControl: InspectJSON.SkipControl?
    var problems: [String]

    init(_ list: InterstitialAssetList, source: String, size: Int) {
        self.source = source
        bytes = size
        assets = list.assets.map { Asset(uri: $0.uri, durationSeconds: $0.duration) }
        totalDurationSeconds = list.assets.reduce(0) { $0 + $1.duration }
        skipControl = list.skipControl.map { control in
            InspectJSON.SkipControl(offsetSeconds: control.offset, durationSeconds: control.duration, labelID: control.labelID)
        }
        var problems: [String] = []
        if list.assets.isEmpty { problems.append("ASSETS is empty: the interstitial plays nothing") }
        for (index, asset) in list.assets.enumerated() {
            if !(asset.duration > 0) { problems.append("asset \(index + 1): DURATION \(asset.duration) is not positive") }
            if URL(string: asset.uri) == nil || asset.uri.isEmpty { problems.append("asset \(index + 1): URI \(asset.uri) is not a URL") }
        }
        self.problems = problems
    }

    var lines: [String] {
        var out = ["\(source): HLS asset list, \(bytes) bytes, \(assets.count) asset(s), \(Format.seconds(totalDurationSeconds))"]
        for (index, asset) in assets.enumerated() {
            out.append("  \(index + 1). \(Format.seconds(asset.durationSeconds))  \(asset.uri)")
        }
        if let skipControl { out.append("skip control: \(skipControl.text)") }
        out.append(problems.isEmpty ? "problems: none" : "problems (\(problems.count)):")
        for problem in problems { out.append("  \(problem)") }
        return out
    }
}

/// A transport that fetches nothing (`inspect --offline`): every request fails, saying so.
struct OfflineTransport: HTTPTransport {
    func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        throw .other("not fetched (--offline)")
    }
}
