public import Foundation
public import PlaytraceCore
import PlaytraceHLS
public import PlaytracePlayer

/// Where an interstitial's assets come from (rfc8216bis appendix D): its single `X-ASSET-URI`, or its
/// `X-ASSET-LIST` asked for with `_HLS_interstitial_id`, `_HLS_primary_id` and, when playback joins it under way,
/// `_HLS_start_offset`. Engines fetch the list their own way (and count the request); reading the answer is shared.
public enum InterstitialAssetSource: Sendable, Equatable {
    /// `X-ASSET-URI`: one asset, its duration known once its playlist is read.
    case asset(InterstitialAsset)
    /// `X-ASSET-LIST`: the list to fetch.
    case list(URL)

    /// Why an interstitial's assets cannot even be asked for.
    public struct Unusable: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// The source of an interstitial's assets.
    /// - Parameters:
    ///   - entry: the interstitial.
    ///   - primaryID: identifies this playback of the primary to the interstitial server.
    ///   - startOffset: how far into the interstitial playback joins it, if at all.
    public init(of entry: InterstitialSchedule.Entry, primaryID: String, startOffset: MediaTime = .zero) throws(Unusable) {
        if let uri = entry.attributes.assetURI {
            guard let url = URL(string: uri, relativeTo: entry.baseURL)?.absoluteURL else {
                throw Unusable(description: "X-ASSET-URI is not a URL: \(uri)")
            }
            self = .asset(InterstitialAsset(url: url.absoluteString, duration: nil))
            return
        }
        guard let list = entry.attributes.assetList,
              var components = URL(string: list, relativeTo: entry.baseURL).flatMap({
                  URLComponents(url: $0.absoluteURL, resolvingAgainstBaseURL: true)
              }) else {
            throw Unusable(description: "no usable X-ASSET-LIST or X-ASSET-URI")
        }
        components.queryItems = (components.queryItems ?? []) + [
            URLQueryItem(name: "_HLS_interstitial_id", value: entry.event.id),
            URLQueryItem(name: "_HLS_primary_id", value: primaryID),
        ]
        if startOffset > .zero {
            components.queryItems?.append(URLQueryItem(name: "_HLS_start_offset", value: String(format: "%.3f", startOffset.seconds)))
        }
        guard let url = components.url else { throw Unusable(description: "the asset list URL") }
        self = .list(url)
    }

    /// The assets of an asset list fetched at `url` (after redirects): read by `reader` when it recognises the body
    /// (VAST), otherwise as the HLS JSON, whose `SKIP-CONTROL` overrides the date range's.
    /// - Returns: the assets, and the skip control the list sets, if it does.
    public static func assets(of event: InterstitialEvent, listURL url: URL, body: [UInt8],
                              reader: (any InterstitialAssetListReader)?) async throws
        -> (assets: [InterstitialAsset], skipControl: InterstitialEvent.SkipControl?) {
        if let reader, let assets = try await reader.assets(for: event, listURL: url, body: body) {
            return (assets, nil)
        }
        let list = try InterstitialAssetList(json: Data(body))
        var skipControl: InterstitialEvent.SkipControl?
        if let control = list.skipControl, control.offset.isFinite, control.offset >= 0 {
            skipControl = InterstitialEvent.SkipControl(
                offset: MediaTime(seconds: control.offset),
                duration: control.duration.flatMap { $0.isFinite && $0 >= 0 ? MediaTime(seconds: $0) : nil },
                labelID: control.labelID)
        }
        let assets = list.assets.compactMap { asset -> InterstitialAsset? in
            guard let resolved = URL(string: asset.uri, relativeTo: url)?.absoluteURL else { return nil }
            return InterstitialAsset(url: resolved.absoluteString, duration: MediaTime(seconds: asset.duration))
        }
        return (assets, skipControl)
    }

    /// Whether an asset list's HTTP status says asking again cannot help (a client error other than 408 and 429).
    public static func isPermanent(status: Int?) -> Bool {
        status.map { (400..<500).contains($0) && ![408, 429].contains($0) } ?? false
    }
}
