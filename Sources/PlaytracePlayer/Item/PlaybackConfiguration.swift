/// How an item's playback begins (Pillarbox's `PlaybackConfiguration`): where it starts.
///
/// ```swift
/// let item = PlayerItem.simple(url: url, metadata: media,
///                              configuration: PlaybackConfiguration(position: .at(MediaTime(seconds: 120))))
/// ```
///
/// A start inside a blocked range moves to its end; a start outside the seekable range is brought inside it. A
/// position given to ``Player/resume(_:in:)`` replaces the item's own, once.
public struct PlaybackConfiguration: Sendable, Hashable {
    /// Where playback starts; `nil`: the default position (the start on demand, near the live edge for live and
    /// DVR streams).
    public var position: SeekPosition?

    /// - Parameter position: where playback starts (`nil`: the default position).
    public init(position: SeekPosition? = nil) {
        self.position = position
    }

    /// The default position.
    public static let `default` = PlaybackConfiguration()
}
