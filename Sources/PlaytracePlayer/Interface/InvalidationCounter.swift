import Observation

/// Counts how often observed readings are invalidated, the way a view sees them: each reading is tracked with
/// `withObservationTracking`, counted when it changes, and tracked again (changes that come before it is tracked
/// again count once, as a view refreshes once for them). The observation test and benchmark use it.
@_spi(Benchmarking)
@MainActor
public final class InvalidationCounter {
    /// The invalidations so far, by reading.
    public private(set) var counts: [String: Int] = [:]
    private var isCounting = true

    /// Creates a counter.
    public init() {}

    /// Starts counting a reading.
    /// - Parameters:
    ///   - name: the reading's name in ``counts``.
    ///   - read: reads it.
    public func track<Value>(_ name: String, _ read: @escaping @MainActor @Sendable () -> Value) {
        counts[name] = counts[name] ?? 0
        withObservationTracking { _ = read() } onChange: { [weak self] in
            Task { @MainActor [weak self] in
                guard let self, self.isCounting else { return }
                self.counts[name, default: 0] += 1
                self.track(name, read)
            }
        }
    }

    /// Tracks the public readings a player's user interface makes.
    /// - Parameter player: the player.
    public func trackReadings(of player: Player) {
        track("playbackState") { player.playbackState }
        track("isBuffering") { player.isBuffering }
        track("isSeeking") { player.isSeeking }
        track("streamType") { player.streamType }
        track("error") { player.error == nil }
        track("metadata") { player.metadata.title }
        track("playbackSpeed") { player.playbackSpeed }
        track("seekableTimeRange") { player.seekableTimeRange }
        track("loadedTimeRange") { player.loadedTimeRange }
        track("buffer") { player.buffer }
        track("currentInterstitial") { player.currentInterstitial }
        track("mediaType") { player.mediaType }
        track("currentItem") { player.currentItem.map(ObjectIdentifier.init) }
        track("items") { player.items.count }
        track("mediaSelectionOptions") { player.mediaSelectionOptions(for: .legible) }
        track("selectedMediaOption") { player.selectedMediaOption(for: .legible) }
        track("currentMediaOption") { player.currentMediaOption(for: .audible) }
        track("isMuted") { player.isMuted }
        track("volume") { player.volume }
        track("engineSnapshot") { player.engineSnapshot }
    }

    /// Stops counting.
    public func stop() { isCounting = false }
}
