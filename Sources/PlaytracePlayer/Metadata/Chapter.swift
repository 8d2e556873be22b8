public import PlaytraceCore

/// A marked part of an item: a title, an optional image, and where it lies on the item's timeline.
public struct Chapter: Sendable, Hashable, Identifiable {
    /// Identifies the chapter within its item.
    public var id: String
    public var title: String?
    public var imageSource: ImageSource
    /// Where the chapter lies.
    public var timeRange: MediaTimeRange

    public init(id: String, title: String? = nil, imageSource: ImageSource = .none, timeRange: MediaTimeRange) {
        self.id = id
        self.title = title
        self.imageSource = imageSource
        self.timeRange = timeRange
    }
}
