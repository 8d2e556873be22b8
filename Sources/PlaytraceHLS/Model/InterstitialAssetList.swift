public import Foundation

/// The JSON document an interstitial's `X-ASSET-LIST` points to:
/// `{"ASSETS": [{"URI": …, "DURATION": …}], "SKIP-CONTROL": {"OFFSET": …, "DURATION": …, "LABEL-ID": …}}`.
public struct InterstitialAssetList: Sendable, Hashable, Codable {
    public struct Asset: Sendable, Hashable, Codable {
        /// The asset's playlist.
        public var uri: String
        /// Its duration in seconds.
        public var duration: Double

        public init(uri: String, duration: Double) {
            self.uri = uri
            self.duration = duration
        }

        enum CodingKeys: String, CodingKey {
            case uri = "URI"
            case duration = "DURATION"
        }
    }

    /// `SKIP-CONTROL`: when the viewer may skip the interstitial, overriding the date range's `X-SKIP-CONTROL-…`.
    public struct SkipControl: Sendable, Hashable, Codable {
        /// Seconds from the interstitial's beginning to when the skip control appears.
        public var offset: Double
        /// Seconds it stays; `nil`: to the end.
        public var duration: Double?
        /// The label to show on it.
        public var labelID: String?

        public init(offset: Double, duration: Double? = nil, labelID: String? = nil) {
            self.offset = offset
            self.duration = duration
            self.labelID = labelID
        }

        enum CodingKeys: String, CodingKey {
            case offset = "OFFSET"
            case duration = "DURATION"
            case labelID = "LABEL-ID"
        }
    }

    public var assets: [Asset]
    public var skipControl: SkipControl?

    public init(assets: [Asset], skipControl: SkipControl? = nil) {
        self.assets = assets
        self.skipControl = skipControl
    }

    enum CodingKeys: String, CodingKey {
        case assets = "ASSETS"
        case skipControl = "SKIP-CONTROL"
    }

    /// Decodes an asset list.
    public init(json data: Data) throws {
        self = try JSONDecoder().decode(InterstitialAssetList.self, from: data)
    }

    /// The asset list as JSON.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }
}
