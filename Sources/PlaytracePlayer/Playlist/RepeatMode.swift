/// What happens when the current item ends or navigation reaches an end of the list.
public enum RepeatMode: String, Sendable, Hashable, CaseIterable {
    /// Play through the list once.
    case off
    /// Repeat the current item.
    case one
    /// Start the list again after its last item.
    case all
}
