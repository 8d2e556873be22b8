import Foundation
import PlaytraceCore
import PlaytraceDASH
import PlaytraceDASHPlayback

/// What the engine keeps of the DASH presentation it plays: its playlists (``DASHPlaylists``), where and when its
/// MPD was last fetched, and the server's clock. A reference, so that an engine playing HLS pays one pointer for it.
final class DASHSession {
    var playlists: DASHPlaylists
    /// Where the MPD is fetched next: its `Location` when it has one, else the URL it last came from.
    var manifestURL: URL
    /// When the last fetch of the MPD started (the engine's clock): a refresh is due `minimumUpdatePeriod` after.
    var fetchedAt: Duration
    /// Whether a fetch of the MPD is under way (a second caller plays on with the presentation it has).
    var isFetching = false
    /// The server's time when the engine's clock read zero: the server's time now is this plus the clock's reading.
    var clockEpoch: StreamDate?
    /// Where the clock came from: a `UTCTiming` scheme, the MPD response's `Date`, or this machine.
    var clockSource = "none"
    /// How many of the playlists' problems were reported already.
    var problemsReported = 0

    init(playlists: DASHPlaylists, manifestURL: URL, fetchedAt: Duration) {
        self.playlists = playlists
        self.manifestURL = manifestURL
        self.fetchedAt = fetchedAt
    }

    var presentation: ResolvedPresentation { playlists.presentation }

    /// The server's time at the engine's clock reading `elapsed`; `nil` before the clock is known.
    func now(elapsed: Duration) -> StreamDate? { clockEpoch.map { $0 + elapsed } }

    /// Whether the MPD is to be fetched again (ISO/IEC 23009-1 5.4.1): a live one, `minimumUpdatePeriod` after the
    /// last fetch began (at once when it is 0); never without one (the MPD does not change).
    func isRefreshDue(elapsed: Duration) -> Bool {
        guard presentation.type == .dynamic, !isFetching,
              let period = presentation.written.minimumUpdatePeriod else { return false }
        return elapsed - fetchedAt >= period
    }

    /// Where the MPD says it will be next (`Location`, resolved against the URL it came from), else that URL.
    static func nextURL(of presentation: ResolvedPresentation) -> URL {
        for location in presentation.written.locations {
            if let url = URL(string: location.trimmingCharacters(in: .whitespacesAndNewlines), relativeTo: presentation.url)?
                .absoluteURL, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
                return url
            }
        }
        return presentation.url
    }
}
