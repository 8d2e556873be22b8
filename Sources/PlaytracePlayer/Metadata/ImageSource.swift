public import Foundation

/// Where an image comes from. Images are described, not loaded: a user interface (or the now-playing
/// integration) loads them only when it shows them.
public enum ImageSource: Sendable, Hashable {
    /// No image.
    case none
    /// An image to download.
    case url(URL)
    /// An image already in memory (encoded PNG, JPEG…).
    case data(Data)
}
