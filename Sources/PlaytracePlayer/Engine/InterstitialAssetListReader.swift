public import Foundation

/// Reads an interstitial's asset list when it is not the HLS JSON: an ad server's answer (VAST) turned into the
/// assets to play. An engine hands it each asset list it fetched; a reader that does not recognise the body
/// answers `nil` and the engine reads the JSON itself.
///
/// ```swift
/// var configuration = HeadlessEngine.Configuration()
/// configuration.assetListReader = VASTAssetListReader(session: session, transport: transport)
/// ```
public protocol InterstitialAssetListReader: Sendable {
    /// The assets of `interstitial` from the asset list fetched at `url` (after redirects), or `nil` when the body
    /// is not this reader's format. Throws when it is, but holds nothing usable: the interstitial is then cancelled,
    /// as for any asset-list error.
    func assets(for interstitial: InterstitialEvent, listURL url: URL, body: [UInt8]) async throws -> [InterstitialAsset]?
}
