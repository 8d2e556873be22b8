public import PlaytraceCore

/// What identifies a playback (the `playbackId` attribute): the random UUID a hub draws for each playback, kept as
/// its 128 bits so that every event of the playback copies it without counting references, or a text given by hand.
///
/// ```swift
/// var random = FastRandom()
/// let drawn = PlaybackIdentifier.uuid(.random(using: &random))
/// let given: PlaybackIdentifier = .text("p1")
/// print(drawn, given)   // 1c28caea-0eac-42af-8f6d-9e27a947a541 p1
/// ```
public enum PlaybackIdentifier: Sendable, Hashable, CustomStringConvertible {
    case uuid(CompactUUID)
    case text(String)

    /// The text backends write.
    public var description: String {
        switch self {
        case .uuid(let uuid): uuid.description
        case .text(let text): text
        }
    }
}
