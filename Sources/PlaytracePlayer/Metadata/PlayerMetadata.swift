public import PlaytraceCore

/// The standard metadata of an item that a player publishes and shows: what is playing, its image, its chapters
/// and its remarkable time ranges.
///
/// ```swift
/// let metadata = PlayerMetadata(title: "The show", subtitle: "Episode 3", imageSource: .url(artwork),
///                               chapters: chapters, timeRanges: [TimeRange(kind: .blocked, range: legal)])
/// ```
public struct PlayerMetadata: Sendable, Hashable {
    /// An identifier of the content, such as a URN.
    public var identifier: String?
    public var title: String?
    public var subtitle: String?
    public var description: String?
    public var imageSource: ImageSource
    public var episodeInformation: EpisodeInformation?
    public var chapters: [Chapter]
    public var timeRanges: [TimeRange]

    public init(
        identifier: String? = nil, title: String? = nil, subtitle: String? = nil, description: String? = nil,
        imageSource: ImageSource = .none, episodeInformation: EpisodeInformation? = nil, chapters: [Chapter] = [],
        timeRanges: [TimeRange] = []
    ) {
        self.identifier = identifier
        self.title = title
        self.subtitle = subtitle
        self.description = description
        self.imageSource = imageSource
        self.episodeInformation = episodeInformation
        self.chapters = chapters
        self.timeRanges = timeRanges
    }

    /// No metadata.
    public static let empty = PlayerMetadata()

    /// The blocked ranges, flattened.
    public var blockedRanges: BlockedRanges {
        BlockedRanges(timeRanges.filter(\.isBlocked).map(\.range))
    }

    /// The chapter that contains a time.
    public func chapter(at time: MediaTime) -> Chapter? {
        chapters.first { $0.timeRange.contains(time) }
    }
}

/// Metadata an app retrieves for an asset, mapped to the standard ``PlayerMetadata``. The same value is handed
/// as-is to the item's tracker adapters, which map it to what each tracker needs.
public protocol AssetMetadata: Sendable {
    /// The standard metadata to publish.
    var playerMetadata: PlayerMetadata { get }
}
