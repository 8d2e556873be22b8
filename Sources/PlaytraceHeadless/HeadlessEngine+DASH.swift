import Foundation
import PlaytraceCore
import PlaytraceDASH
import PlaytraceDASHPlayback
import PlaytraceHLS
import PlaytraceNetwork
import PlaytracePlayer

/// MPEG-DASH: the MPD is read, presented as HLS playlists (``DASHPlaylists``) and played by the same loops, so that
/// ABR, failover, gaps, the live window and ad breaks behave as on HLS. A variant's or rendition's "playlist" is
/// made from the presentation the engine holds, at the server's time; the MPD itself is fetched again only when
/// a live one says so (`minimumUpdatePeriod`), from its `Location` when it gives one.
extension HeadlessEngine {
    /// Reads a fetched MPD and keeps it as the presentation being played; returns its ladder as a multivariant
    /// playlist.
    func adoptPresentation(_ response: HTTPResponse, fetchedAt: Duration) throws(EngineError) -> MultivariantPlaylist {
        let presentation = try Self.resolve(response)
        let playlists = DASHPlaylists(presentation, base: response.url,
                                      maximumSegments: presentation.type == .dynamic
                                          ? configuration.maximumPlaylistSegments ?? 500_000 : 500_000)
        let session = DASHSession(playlists: playlists, manifestURL: DASHSession.nextURL(of: presentation),
                                  fetchedAt: fetchedAt)
        dash = session
        reportPresentationProblems(presentation.problems)
        return playlists.multivariantPlaylist()
    }

    private static func resolve(_ response: HTTPResponse) throws(EngineError) -> ResolvedPresentation {
        do {
            return try DASHSession.resolve(response.body, url: response.url)
        } catch {
            throw EngineError(kind: .playlist, message: "the MPD cannot be read: \(error.description)", isFatal: true,
                              url: response.url.absoluteString)
        }
    }

    private func reportPresentationProblems(_ problems: [MPDProblem]) {
        for problem in problems.prefix(100) {
            logger.debug("MPD problem", metadata: ["problem": "\(problem)"])
        }
    }

    /// Sets the server's clock of a live presentation (``DASHSession/synchroniseClock(dateHeader:receivedAt:elapsed:isolation:fetch:)``),
    /// its requests counted as `clock` requests; a clock not from `UTCTiming` is a warning.
    func synchroniseClock(mpdResponse: HTTPResponse, receivedAt: Duration) async {
        guard let session = dash, session.presentation.type == .dynamic else { return }
        let expected = generation
        let stopwatch = stopwatch
        let fellBack = await session.synchroniseClock(dateHeader: mpdResponse.header("Date"), receivedAt: receivedAt,
                                                      elapsed: { stopwatch.elapsed }) { request in
            guard let response = try? await fetch(request.url, kind: .clock, variant: nil, method: request.method),
                  generation == expected else { return nil }
            return (response.body, response.header("Date"))
        }
        guard fellBack, generation == expected else { return }
        warn(EngineError(kind: .playlist, message: "the live MPD's clock could not be read from any UTCTiming; "
                            + "its segments are timed by \(session.clockSource)", isFatal: false,
                         url: session.presentation.url.absoluteString), "")
    }

    /// The media playlist of a DASH track, made from the presentation held, the MPD fetched again first when a
    /// refresh is due. A refresh that fails is a warning: the presentation held plays on (its segments are still
    /// named by the clock), and the refresh loop notices a window that stops moving.
    func dashMediaPlaylist(_ track: DASHTrack, url: URL) async throws -> MediaPlaylist {
        guard let session = dash else {
            throw EngineError(kind: .playlist, message: "no DASH presentation is loaded", isFatal: true, url: url.absoluteString)
        }
        if session.isRefreshDue(elapsed: stopwatch.elapsed) {
            await refreshPresentation(session)
        }
        await readIndexes(for: track, session: session)
        let now = session.now(elapsed: stopwatch.elapsed)
        guard let playlist = session.playlists.mediaPlaylist(track, at: now) else {
            throw EngineError(kind: .playlist, message: "the DASH presentation has no such track", isFatal: true,
                              url: url.absoluteString)
        }
        if session.playlists.problems.count > session.problemsReported {
            reportPresentationProblems(Array(session.playlists.problems[session.problemsReported...]))
            session.problemsReported = session.playlists.problems.count
        }
        return playlist
    }

    /// Reads the `SegmentBase` indexes a track's playlist needs (``DASHPlaylists/indexRequests(for:)``), each a
    /// byte-range request that fails over across the `BaseURL` locations. An index that cannot be had or read is a
    /// warning: its file then plays as one segment.
    private func readIndexes(for track: DASHTrack, session: DASHSession) async {
        let expected = generation
        for request in session.playlists.indexRequests(for: track) {
            var failure = "no URL"
            var fetched: [UInt8]?
            for url in request.urls {
                do {
                    fetched = try await fetch(ResourceLocation(url: url, byteRange: request.range.hls), kind: .segmentIndex,
                                              variant: nil).body
                    break
                } catch let error as EngineError {
                    failure = error.message
                } catch {
                    failure = "\(error)"
                }
            }
            guard generation == expected else { return }
            let problems = session.playlists.problems.count
            if let fetched {
                session.playlists.applyIndex(fetched, for: request)
            } else {
                session.playlists.indexFailed(request, reason: failure)
            }
            if session.playlists.problems.count > problems, let problem = session.playlists.problems.last {
                warn(EngineError(kind: .playlist, message: problem.message, isFatal: false, url: request.urls.first?.absoluteString), "")
            }
        }
    }

    /// Fetches the live MPD again and takes it.
    private func refreshPresentation(_ session: DASHSession) async {
        let expected = generation
        session.isFetching = true
        session.fetchedAt = stopwatch.elapsed
        defer { session.isFetching = false }
        do {
            let response = try await fetch(session.manifestURL, kind: .manifest, variant: nil)
            guard generation == expected else { return }
            session.update(with: try Self.resolve(response))
        } catch let error as EngineError {
            guard generation == expected else { return }
            warn(error, "; the presentation already loaded plays on")
        } catch {
            return
        }
    }

    /// Reads the `emsg` boxes of a DASH segment whose MPD declares in-band events. A SCTE-35 break new to the
    /// presentation is marked on the variant's playlist at once (made again from the presentation held), and so
    /// reaches the ad-break ledger as a break the MPD signals does; SVTA2053 signaling reaches it directly
    /// (``noteInbandSignaling(_:segment:segmentStart:)``).
    func noteInbandEvents(in body: [UInt8], segment: TimelineSegment, variant: Int) async {
        guard let session = dash else { return }
        let messages = EventMessage.messages(inSegment: body).messages
        guard !messages.isEmpty else { return }
        // The segment's MPD time: its date less the MPD's anchor, else its place on the engine's timeline (an
        // on-demand presentation's, which starts at 0).
        let start: Duration
        if let date = segment.date, let origin = session.presentation.availabilityStartTime {
            start = .seconds(date.secondsSince1970 - origin.secondsSince1970)
        } else {
            start = .seconds(segment.start.seconds)
        }
        noteInbandSignaling(session.playlists.inbandSignaling(messages, segmentStart: start), segment: segment, segmentStart: start)
        guard session.playlists.noteInbandEvents(messages, segmentStart: start) else { return }
        _ = try? await refreshVariant(variant)
    }

    /// Notes SVTA2053 signaling carried in a segment as ad breaks that carry it (source `emsg-svta2053`), placed on
    /// the engine's timeline and dated from the segment they came in (`segmentStart`: its MPD time); an ad session
    /// that reads the stream's own signaling takes its ads from there.
    private func noteInbandSignaling(_ signals: [DASHPlaylists.InbandSignaling], segment: TimelineSegment,
                                     segmentStart: Duration) {
        var changed = false
        for signal in signals {
            let offset = signal.start - segmentStart
            let adBreak = SignalledAdBreak(id: signal.id, source: "emsg-svta2053", start: segment.start + MediaTime(offset),
                                           startDate: segment.date.map { $0 + offset }, duration: MediaTime(signal.duration),
                                           isClosed: true, creativeSignaling: signal.json)
            if adBreaks.note(adBreak, windowStart: timeline.range.start) { changed = true }
        }
        if changed { emit(.adBreaksChanged(adBreaks.sorted)) }
    }
}
