public import PlaytraceCore

/// A point of the stream at which an engine ends a progress report exactly when the playhead reaches it while
/// playing (see ``PlaybackEngine/setProgressBoundaries(_:)``): a media time, or a stream date for streams that
/// carry program-date-time, or a time of an interstitial.
///
/// A tracker that must act the moment the playhead crosses a point — an ad tracker firing a quartile beacon — gives
/// its points as boundaries, so that the crossing is seen when it happens rather than at the next regular report.
public enum PlaybackBoundary: Sendable, Hashable {
    /// A position of the media.
    case time(MediaTime)
    /// A date of the stream's program-date-time.
    case date(StreamDate)
    /// A position on an interstitial's timeline (``InterstitialStatus/time``), by the interstitial's ID.
    case interstitial(id: String, time: MediaTime)
}
