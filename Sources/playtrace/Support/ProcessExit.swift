import PlaytraceCore

/// What a one-shot command built and no longer needs, left for the process's exit to reclaim: a large model (a
/// parsed playlist of 100,000 segments and its report) costs about as much to free object by object as to print.
enum ProcessExit {
    /// What was kept: a global is never destroyed, so neither is what it holds.
    private static let kept = Locked<[any Sendable]>([])

    /// Keeps `value` alive until the process exits (deliberately never released).
    static func keep(_ value: some Sendable) {
        kept.withLock { $0.append(value) }
    }
}
