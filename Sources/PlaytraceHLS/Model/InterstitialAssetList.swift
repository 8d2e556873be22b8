public import Foundation

/// The JSON document an interstitial's `X-ASSET-LIST` points to: `{"ASSETS": [{"URI": …, "DURATION": …}]}`.
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

    public var assets: [Asset]

    public init(assets: [Asset]) { self.assets = assets }

    enum CodingKeys: String, CodingKey { case assets = "ASSETS" }

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
