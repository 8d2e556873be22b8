/// The engine's running tasks, one per job: each is cancelled and replaced when its job starts again, and all of
/// them when an item is loaded or stopped.
struct EngineTasks {
    /// Fetches the playlists of an item being loaded.
    var load: Task<Void, Never>?
    /// Advances the playhead.
    var playback: Task<Void, Never>?
    /// Fills the forward buffer.
    var download: Task<Void, Never>?
    /// Refreshes a live playlist.
    var refresh: Task<Void, Never>?
    /// Fetches the content steering manifest when it asks to be.
    var steering: Task<Void, Never>?

    mutating func cancelAll() {
        for task in [load, playback, download, refresh, steering] { task?.cancel() }
        self = EngineTasks()
    }
}

/// What the engine asked of the network: requests made and under way, and bytes received.
struct TransferCounts {
    var requests = 0
    var inFlight = 0
    var bytesReceived = 0

    /// Counts again from zero for a new item; the requests still under way stay counted until they end.
    mutating func reset() {
        requests = 0
        bytesReceived = 0
    }
}
