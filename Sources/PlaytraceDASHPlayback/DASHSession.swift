public import Foundation
public import PlaytraceCore
public import PlaytraceDASH

/// What an engine keeps of the DASH presentation it plays: its playlists (``DASHPlaylists``), where and when its MPD
/// was last fetched, and the server's clock. A reference, so that an engine playing HLS pays one pointer for it; it
/// belongs to the engine's isolation and is not shared.
///
/// The engine fetches; the session decides what and when. Its clock is the engine's own (a stopwatch's elapsed
/// time), so that a test clock drives it:
///
/// ```swift
/// let presentation = try DASHSession.resolve(body, url: url)
/// let session = DASHSession(playlists: DASHPlaylists(presentation, base: url),
///                           manifestURL: DASHSession.nextURL(of: presentation), fetchedAt: elapsed)
/// let fellBack = await session.synchroniseClock(dateHeader: nil, receivedAt: elapsed, elapsed: { elapsed }) { _ in nil }
/// let playlist = session.playlists.mediaPlaylist(.rung(0, location: 0), at: session.now(elapsed: elapsed))
/// ```
public final class DASHSession {
    public var playlists: DASHPlaylists
    /// Where the MPD is fetched next: its `Location` when it has one, else the URL it last came from.
    public var manifestURL: URL
    /// When the last fetch of the MPD started (the engine's clock): a refresh is due `minimumUpdatePeriod` after.
    public var fetchedAt: Duration
    /// Whether a fetch of the MPD is under way (a second caller plays on with the presentation it has).
    public var isFetching = false
    /// The server's time when the engine's clock read zero: the server's time now is this plus the clock's reading.
    public var clockEpoch: StreamDate?
    /// Where the clock came from: a `UTCTiming` scheme, the MPD response's `Date`, or this machine.
    public var clockSource = "none"
    /// How many of the playlists' problems were reported already.
    public var problemsReported = 0
    /// The media timescale of the track downloaded (its initialization segment's `mdhd`), which `prft` times count in.
    public var trackTimescale: UInt32?
    /// How far the producer's wall clock was ahead of the stream's dates at the newest segment that carried a `prft`.
    private var segmentProducerClockOffset: Duration?
    /// The same, from the MPD's `ProducerReferenceTime` (a live MPD's, with a date for its wall clock).
    private var presentationProducerClockOffset: Duration?

    public init(playlists: DASHPlaylists, manifestURL: URL, fetchedAt: Duration) {
        self.playlists = playlists
        self.manifestURL = manifestURL
        self.fetchedAt = fetchedAt
        presentationProducerClockOffset = Self.producerClockOffset(of: playlists.presentation)
    }

    /// How far the producer's wall clock is ahead of the stream's dates (a producer date is a stream date plus this):
    /// from the segments' `prft` boxes, else the MPD's `ProducerReferenceTime`; `nil` when neither says.
    public var producerClockOffset: Duration? { segmentProducerClockOffset ?? presentationProducerClockOffset }

    /// Reads a media segment's `prft` against the segment's date (its first sample's place among the stream's
    /// dates). Returns whether ``producerClockOffset`` changed.
    public func noteProducerTime(inSegment bytes: [UInt8], segmentDate: StreamDate) -> Bool {
        guard let reading = SegmentProducerTime(segment: bytes),
              let producerDate = reading.producerDate(timescale: trackTimescale) else { return false }
        let offset = Duration.seconds((producerDate - segmentDate).seconds)
        let before = producerClockOffset
        segmentProducerClockOffset = offset
        return offset != before
    }

    /// The offset a live MPD's first `ProducerReferenceTime` with a date gives: its wall clock less the date the MPD's
    /// timeline gives its presentation time (availabilityStartTime + the period's start + (presentationTime −
    /// presentationTimeOffset) / timescale).
    static func producerClockOffset(of presentation: ResolvedPresentation) -> Duration? {
        guard presentation.type == .dynamic, let origin = presentation.availabilityStartTime else { return nil }
        for period in presentation.periods {
            for set in period.adaptationSets {
                for representation in set.representations {
                    guard let reference = representation.attributes.producerReferenceTimes.first(where: { $0.wallClock != nil }),
                          let wallClock = reference.wallClock else { continue }
                    let place = period.start
                        + representation.segments.addressing.periodOffset(ofPresentationTime: reference.presentationTime)
                    return .seconds((wallClock - (origin + place)).seconds)
                }
            }
        }
        return nil
    }

    public var presentation: ResolvedPresentation { playlists.presentation }

    /// Reads and resolves an MPD's bytes as fetched from `url` (after redirects).
    public static func resolve(_ body: [UInt8], url: URL) throws(MPDParseError) -> ResolvedPresentation {
        ResolvedPresentation(try MPDParser().parse(Data(body)), url: url)
    }

    /// The server's time at the engine's clock reading `elapsed`; `nil` before the clock is known.
    public func now(elapsed: Duration) -> StreamDate? { clockEpoch.map { $0 + elapsed } }

    /// Whether the MPD is to be fetched again (ISO/IEC 23009-1 5.4.1): a live one, `minimumUpdatePeriod` after the
    /// last fetch began (at once when it is 0); never without one (the MPD does not change).
    public func isRefreshDue(elapsed: Duration) -> Bool {
        guard presentation.type == .dynamic, !isFetching,
              let period = presentation.written.minimumUpdatePeriod else { return false }
        return elapsed - fetchedAt >= period
    }

    /// Takes a refreshed MPD: its presentation, and its `Location` for the next fetch.
    public func update(with presentation: ResolvedPresentation) {
        playlists.update(presentation)
        manifestURL = Self.nextURL(of: presentation)
        presentationProducerClockOffset = Self.producerClockOffset(of: presentation)
    }

    /// Where the MPD says it will be next (`Location`, resolved against the URL it came from), else that URL.
    public static func nextURL(of presentation: ResolvedPresentation) -> URL {
        for location in presentation.written.locations {
            if let url = URL(string: location.trimmingCharacters(in: .whitespacesAndNewlines), relativeTo: presentation.url)?
                .absoluteURL, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
                return url
            }
        }
        return presentation.url
    }

    /// A clock request's answer: its body and its `Date` header.
    public typealias ClockAnswer = (body: [UInt8], dateHeader: String?)

    /// Sets the server's clock of a live presentation (nothing for a static one): from its `UTCTiming` elements in
    /// order (the offset taken at the request's midpoint), else the MPD response's `Date` header (as dash.js does),
    /// else this machine's clock. Returns whether it fell back from `UTCTiming`, which the engine says as a warning
    /// (a live window then depends on a clock the MPD did not name).
    /// - Parameters:
    ///   - dateHeader: the MPD response's `Date` header.
    ///   - receivedAt: the engine's clock when the MPD response came.
    ///   - elapsed: the engine's clock now.
    ///   - fetch: asks the server's time; `nil` when the request failed (or the engine moved on).
    ///   - isolation: the engine's actor, on which the session stays.
    public func synchroniseClock(dateHeader: String?, receivedAt: Duration, elapsed: () -> Duration,
                                 isolation: isolated (any Actor)? = #isolation,
                                 fetch: (UTCTiming.Request) async -> ClockAnswer?) async -> Bool {
        guard presentation.type == .dynamic else { return false }
        for timing in presentation.written.utcTimings {
            if let direct = timing.directTime {
                clockEpoch = direct + (.zero - receivedAt)
                clockSource = "UTCTiming direct"
                return false
            }
            for request in timing.requests {
                let sent = elapsed()
                guard let answer = await fetch(request) else { continue }
                let received = elapsed()
                guard let server = timing.serverTime(body: answer.body, dateHeader: answer.dateHeader) else { continue }
                let midpoint = sent + (received - sent) / 2
                clockEpoch = server + (.zero - midpoint)
                clockSource = "UTCTiming \(request.url.absoluteString)"
                return false
            }
        }
        if let date = dateHeader.flatMap(HTTPDate.parse) {
            clockEpoch = StreamDate(date) + (.zero - receivedAt)
            clockSource = "the MPD response's Date header"
        } else {
            clockEpoch = StreamDate(Date()) + (.zero - elapsed())
            clockSource = "this machine's clock"
        }
        return true
    }
}
