public import Foundation
public import Observation
import PlaytraceCore

/// Something to play: an asset loaded on demand, its metadata, and its trackers.
///
/// Items are objects: a player's playlist holds each at most once, and edits refer to items by reference. An item
/// belongs to one player at a time (its asset is loaded once, its trackers follow one playback at a time). The
/// trackers are created with the item (by their adapters) and live as long as it does.
///
/// ```swift
/// let item = PlayerItem.simple(url: url, metadata: media, trackerAdapters: [
///     CustomTracker.adapter(configuration: configuration) { media in CustomTracker.Metadata(media) }
/// ])
/// let loaded = PlayerItem(loader: MediaLoader(id: "urn:1"), trackerAdapters: [...])
/// ```
@MainActor
@Observable
public final class PlayerItem: Identifiable {
    /// Where the item's asset stands.
    public enum LoadState: Sendable, Hashable {
        /// Not requested yet.
        case pending
        /// The loader is running.
        case loading
        /// The asset is known.
        case loaded
        /// The loader failed, or the asset is unavailable.
        case failed
    }

    public nonisolated let id = UUID()
    /// The standard metadata, once loaded (and as it updates).
    public private(set) var metadata = PlayerMetadata.empty
    /// Where the asset stands.
    public private(set) var loadState = LoadState.pending
    /// Why the item last failed to play (its asset, or its playback), if it did.
    public internal(set) var error: (any Error)?
    /// The engine's state when the item's last playback session closed: everything it played, to the end (a
    /// summary reads it once the Player has moved on to another item).
    @ObservationIgnored public internal(set) var finalSnapshot: EngineSnapshot?

    @ObservationIgnored let trackers: [TrackerBox]
    @ObservationIgnored private let loadAsset: @MainActor (PlayerItem, Stopwatch) async -> LoadedAsset
    @ObservationIgnored private var loadTask: Task<LoadedAsset, Never>?
    /// The asset once loaded: kept as a value, since a finished task keeps its memory for as long as its handle does.
    @ObservationIgnored private var loaded: LoadedAsset?
    @ObservationIgnored private var updatesTask: Task<Void, Never>?
    /// Which ``follow(_:)`` the updates task is, so that only the current one drops its handle when it ends.
    @ObservationIgnored private var updatesGeneration = 0
    /// The metadata as the loader gave it, for trackers.
    @ObservationIgnored private(set) var assetMetadata: (any AssetMetadata)?
    /// Called when the metadata changes (the player follows its current item's).
    @ObservationIgnored var onMetadataChange: (@MainActor (PlayerItem) -> Void)?

    /// An item whose asset comes from a loader.
    public init<Loader: AssetLoader>(loader: Loader, trackerAdapters: [TrackerAdapter<Loader.Metadata>] = []) {
        trackers = trackerAdapters.map { $0.make() }
        // An asset known in advance has its metadata at once: trackers get it before they are first enabled.
        let immediate = (loader as? FixedAssetLoader<Loader.Metadata>)?.fixed.metadata
        loadAsset = { item, stopwatch in
            let started = stopwatch.elapsed
            let asset: Asset<Loader.Metadata>
            do {
                asset = try await loader.asset()
            } catch {
                return LoadedAsset(resource: .unavailable(error), startPosition: nil,
                                   serviceDuration: stopwatch.elapsed - started, finishedAt: stopwatch.elapsed)
            }
            let service = stopwatch.elapsed - started
            if immediate == nil { item.apply(asset.metadata) }
            item.follow(loader.metadataUpdates())
            switch asset.resource {
            case .simple(let url):
                return LoadedAsset(resource: .url(url), startPosition: asset.startPosition, serviceDuration: service,
                                   finishedAt: stopwatch.elapsed)
            case .unavailable(let error):
                return LoadedAsset(resource: .unavailable(error), startPosition: nil, serviceDuration: service,
                                   finishedAt: stopwatch.elapsed)
            }
        }
        if let immediate { apply(immediate) }
    }

    /// An item whose asset comes from an asynchronous closure (a web service call, say).
    public convenience init<Metadata: AssetMetadata>(
        trackerAdapters: [TrackerAdapter<Metadata>] = [],
        load: @escaping @Sendable () async throws -> Asset<Metadata>
    ) {
        self.init(loader: ClosureAssetLoader(load: load, updates: { AsyncStream { $0.finish() } }),
                  trackerAdapters: trackerAdapters)
    }

    isolated deinit {
        loadTask?.cancel()
        updatesTask?.cancel()
    }

    /// An item that plays a URL, with metadata.
    /// - Parameters:
    ///   - url: what to play.
    ///   - metadata: its metadata.
    ///   - configuration: where playback starts.
    ///   - trackerAdapters: its trackers.
    public static func simple<Metadata: AssetMetadata>(url: URL, metadata: Metadata,
                                                       configuration: PlaybackConfiguration = .default,
                                                       trackerAdapters: [TrackerAdapter<Metadata>] = []) -> PlayerItem {
        PlayerItem(loader: FixedAssetLoader(fixed: .simple(url: url, metadata: metadata, configuration: configuration)),
                   trackerAdapters: trackerAdapters)
    }

    /// An item that plays a URL, without metadata.
    /// - Parameters:
    ///   - url: what to play.
    ///   - configuration: where playback starts.
    ///   - trackerAdapters: its trackers.
    public static func simple(url: URL, configuration: PlaybackConfiguration = .default,
                              trackerAdapters: [TrackerAdapter<EmptyAssetMetadata>] = []) -> PlayerItem {
        PlayerItem(loader: FixedAssetLoader(fixed: .simple(url: url, configuration: configuration)),
                   trackerAdapters: trackerAdapters)
    }

    /// An item that cannot be played, with the metadata to show.
    public static func unavailable<Metadata: AssetMetadata>(_ error: any Error, metadata: Metadata,
                                                            trackerAdapters: [TrackerAdapter<Metadata>] = []) -> PlayerItem {
        PlayerItem(loader: FixedAssetLoader(fixed: .unavailable(error, metadata: metadata)), trackerAdapters: trackerAdapters)
    }

    /// Starts loading the asset, once; ``loadedAsset()`` gives every caller the same result.
    func load(stopwatch: Stopwatch) {
        guard loadTask == nil, loaded == nil else { return }
        loadState = .loading
        loadTask = Task { @MainActor [loadAsset] in
            let loaded = await loadAsset(self, stopwatch)
            self.loadState = loaded.isPlayable ? .loaded : .failed
            if case .unavailable(let error) = loaded.resource { self.error = error }
            self.loaded = loaded
            self.loadTask = nil
            return loaded
        }
    }

    /// The asset, once ``load(stopwatch:)`` has loaded it; nil when no load was started (or a failed one was
    /// forgotten since).
    func loadedAsset() async -> LoadedAsset? {
        if let loaded { return loaded }
        return await loadTask?.value
    }

    /// Forgets a failed load so that the next one runs the loader again.
    func resetFailedLoad() {
        guard loadState == .failed else { return }
        loadTask = nil
        loaded = nil
        updatesTask?.cancel()
        updatesTask = nil
        loadState = .pending
    }

    func apply(_ metadata: any AssetMetadata) {
        assetMetadata = metadata
        self.metadata = metadata.playerMetadata
        for tracker in trackers { tracker.updateMetadata(metadata) }
        onMetadataChange?(self)
    }

    private func follow<Metadata: AssetMetadata>(_ updates: AsyncStream<Metadata>) {
        updatesTask?.cancel()
        updatesGeneration += 1
        let generation = updatesGeneration
        updatesTask = Task { @MainActor [weak self] in
            for await metadata in updates {
                guard let self else { return }
                self.apply(metadata)
            }
            // The updates ended (a loader without any ends them at once): the handle goes, and the task's memory.
            if let self, self.updatesGeneration == generation { self.updatesTask = nil }
        }
    }
}

/// An item's asset once loaded, for the player.
struct LoadedAsset: Sendable {
    enum Resource: Sendable {
        case url(URL)
        case unavailable(any Error)
    }

    var resource: Resource
    var startPosition: MediaTime?
    /// How long the loader took.
    var serviceDuration: Duration
    /// When it finished, on the player's stopwatch.
    var finishedAt: Duration

    var isPlayable: Bool {
        if case .url = resource { return true }
        return false
    }
}
