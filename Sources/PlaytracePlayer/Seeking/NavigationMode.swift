/// How ``Player/returnToPreviousItem()`` behaves (Pillarbox's navigation modes).
public enum NavigationMode: Sendable, Hashable {
    /// Always to the previous item.
    case immediate
    /// Restart the current on-demand item when the playhead is at least `interval` past its start, or when there
    /// is no previous item; otherwise go to the previous item. This is what users expect of a "previous" button.
    case smart(interval: Duration)
}
