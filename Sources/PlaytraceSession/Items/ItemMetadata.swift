import PlaytraceCore
public import PlaytracePlayer

/// What a session knows of an item before it plays: its title and subtitle (narrated, and the summary's), its
/// chapters and blocked ranges (the Player's), and where it comes from (the telemetry's `source`).
public struct ItemMetadata: AssetMetadata {
    public let title: String
    public let subtitle: String
    public let chapters: [Chapter]
    public let timeRanges: [TimeRange]
    public var source: String?

    public init(title: String, subtitle: String, chapters: [Chapter] = [], timeRanges: [TimeRange] = [],
                source: String? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.chapters = chapters
        self.timeRanges = timeRanges
        self.source = source
    }

    public var playerMetadata: PlayerMetadata {
        PlayerMetadata(identifier: title, title: title, subtitle: subtitle, chapters: chapters, timeRanges: timeRanges)
    }
}
