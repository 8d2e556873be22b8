/// Retrieves what an item plays, typically from a web service: first the asset (a URL and its metadata), then,
/// optionally, newer metadata while the item plays (a live programme's current show, say).
///
/// A loader runs when its item is about to play (it became current or is preloaded as the next one), once per
/// item. A thrown error fails the item like an ``Asset/Resource/unavailable(_:)`` asset without metadata.
///
/// ```swift
/// struct MediaLoader: AssetLoader {
///     let id: String
///     let service: MediaService
///     func asset() async throws -> Asset<Media> {
///         let media = try await service.media(id: id)
///         return media.isBlocked ? .unavailable(MediaError.blocked, metadata: media)
///                                : .simple(url: media.streamURL, metadata: media)
///     }
/// }
/// let item = PlayerItem(loader: MediaLoader(id: "urn:1", service: service), trackerAdapters: [...])
/// ```
public protocol AssetLoader<Metadata>: Sendable {
    associatedtype Metadata: AssetMetadata
    /// Retrieves the asset.
    func asset() async throws -> Asset<Metadata>
    /// Newer metadata, after the asset, for as long as the item lives (none by default).
    func metadataUpdates() -> AsyncStream<Metadata>
}

public extension AssetLoader {
    func metadataUpdates() -> AsyncStream<Metadata> { AsyncStream { $0.finish() } }
}

/// A loader of an asset known in advance.
struct FixedAssetLoader<Metadata: AssetMetadata>: AssetLoader {
    let fixed: Asset<Metadata>
    func asset() async throws -> Asset<Metadata> { fixed }
}

/// A loader made of closures.
struct ClosureAssetLoader<Metadata: AssetMetadata>: AssetLoader {
    let load: @Sendable () async throws -> Asset<Metadata>
    let updates: @Sendable () -> AsyncStream<Metadata>
    func asset() async throws -> Asset<Metadata> { try await load() }
    func metadataUpdates() -> AsyncStream<Metadata> { updates() }
}
