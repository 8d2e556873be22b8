#if MPV
import Foundation
import PlaytraceCore
import PlaytraceHLSPlayback
import PlaytraceHLS
import PlaytraceNetwork
import PlaytracePlayer

/// Live streams on libmpv. FFmpeg's HLS reader follows a live playlist on its own, but tells nothing of it, and
/// starts its time at 0 wherever it begins (three segments from the end by default): the engine reads the playlist
/// itself every target duration (window, dates, ad breaks, interstitials), and places libmpv's time on the
/// playlist's timeline by the first segment FFmpeg opens, which FFmpeg names in its verbose log. FFmpeg cannot seek
/// in a live stream: a seek outside what libmpv holds loads the stream again at the segment that covers the target.
extension MPVEngine {
    /// Loads the primary to play from `position`: on demand libmpv starts there (`start`); a live stream starts at
    /// the segment that covers it (FFmpeg's `live_start_index`, counted from the end of the playlist the engine
    /// read last), or where FFmpeg starts by default without a position.
    func loadPrimary(_ url: URL, at position: MediaTime?) {
        // A DASH presentation's playlists are files whose segments are at the origin: FFmpeg, which allows a local
        // playlist only local files by default, is told which protocols it may open.
        let readerOptions = Self.readerOptions + (url.isFileURL ? ",protocol_whitelist=[file,http,https,tcp,tls,crypto,data]" : "")
        if let stream, stream.isLive {
            let startSequence = position.flatMap(stream.sequence(at:))
            origin.startLoad(startSequence: startSequence, isKnown: false)
            let fromEnd = startSequence.flatMap(stream.segmentsFromEnd(sequence:))
            handle.set("demuxer-lavf-o", readerOptions + (fromEnd.map { ",live_start_index=-\($0)" } ?? ""))
            handle.set("start", "none")
            handle.requestLogMessages(level: "v")
        } else {
            // Until the engine knows where libmpv's time begins (on demand: once it knows the stream is on demand).
            origin.startLoad(startSequence: nil, isKnown: stream?.isLive == false)
            handle.set("demuxer-lavf-o", readerOptions)
            handle.set("start", position.map { String($0.seconds) } ?? "none")
        }
        pendingStarts += 1
        handle.command(["loadfile", url.absoluteString, "replace"])
    }

    /// One of FFmpeg's verbose log lines: the first segments it opens after a load of a live primary place libmpv's
    /// time on the engine's timeline.
    func readerLogged(_ text: String) {
        let prefix = "hls: Opening '"
        guard !origin.isPlaced, text.hasPrefix(prefix), let end = text.dropFirst(prefix.count).firstIndex(of: "'")
        else { return }
        let url = String(text.dropFirst(prefix.count)[..<end])
        guard !url.hasSuffix(".m3u8"), origin.noteOpened(url) else { return }
        placeOrigin()
    }

    /// Places libmpv's time 0 at the start of the segment FFmpeg began with, once both it and the playlist are
    /// known; on demand, libmpv's time is the engine's.
    func placeOrigin() {
        guard !origin.isPlaced, let stream else { return }
        guard stream.isLive else {
            origin.place(at: .zero)
            return
        }
        // FFmpeg's log reaches the first libmpv instance of the process, whichever instance's FFmpeg wrote it: a
        // segment far from where this load starts is another engine's.
        let expected = expectedStartSequence(in: stream)
        guard let placement = origin.openedSegments.lazy.compactMap({ stream.sequence(of: $0) })
            .filter({ sequence in expected.map { abs(sequence - $0) <= Self.startSlack } ?? true })
            .compactMap({ stream.placement(sequence: $0) }).first else { return }
        place(at: placement)
    }

    /// How many segments FFmpeg may start from where the engine expects it to: the playlist FFmpeg reads may have
    /// grown since the engine's last read.
    static let startSlack = 2

    /// Where FFmpeg starts this load: the segment the load asked for, or by default the third from the end.
    private func expectedStartSequence(in stream: StreamPlaylist) -> Int? {
        guard let first = stream.playlist.segments.first, let last = stream.playlist.segments.last else { return nil }
        return origin.startSequence ?? max(last.mediaSequence - 2, first.mediaSequence)
    }

    /// A frame came, and FFmpeg named no segment of the playlist the engine read (its log lines lost, a window that
    /// slid between its read and the engine's): libmpv's time is placed where FFmpeg starts, the segment the load
    /// asked for or, by default, the third from the end.
    func placeOriginWithoutLog() {
        guard !origin.isPlaced, let stream, stream.isLive, let sequence = expectedStartSequence(in: stream),
              let placement = stream.placement(sequence: sequence) else { return }
        place(at: placement)
    }

    private func place(at placement: InterstitialSchedule.SegmentPlacement) {
        origin.place(at: placement.start)
        handle.requestLogMessages(level: "error")
        if let target = pendingSeek?.target {
            // A seek that loaded the stream again lands where FFmpeg starts: the start of the segment that covers the
            // target (FFmpeg seeks nowhere in a live stream, and libmpv holds nothing of it yet).
            pendingSeek?.window = min(placement.start, target)...target
        }
    }

    /// Whether libmpv holds the media at `position` (what it buffered ahead, and what it keeps behind): a seek
    /// there needs no new load.
    func isCached(_ position: MediaTime) -> Bool {
        guard let text = handle.string("demuxer-cache-state"), let data = text.data(using: .utf8),
              let state = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let ranges = state["seekable-ranges"] as? [[String: Any]] else { return false }
        let time = (position - origin.time).seconds
        return ranges.contains { range in
            guard let start = range["start"] as? Double, let end = range["end"] as? Double else { return false }
            return time >= start && time <= end
        }
    }

    /// Reads a live playlist again every target duration, until it ends or the item changes.
    func refreshLoop(_ url: URL, every interval: MediaTime, generation: Int) -> Task<Void, Never>? {
        guard let transport else { return nil }
        let stopwatch = stopwatch
        let period = Duration.seconds(max(interval.seconds, 1))
        return Task { [weak self] in
            while !Task.isCancelled {
                do { try await stopwatch.sleep(for: period) } catch { return }
                let result: Result<MediaPlaylist, StreamPlaylist.ReadError>
                do throws(StreamPlaylist.ReadError) {
                    result = .success(try await StreamPlaylist.readMedia(url, transport: transport))
                } catch {
                    result = .failure(error)
                }
                guard let self, await self.refreshed(result, generation: generation) else { return }
            }
        }
    }

    /// A refresh of the live playlist came back: whether to go on refreshing.
    func refreshed(_ result: Result<MediaPlaylist, StreamPlaylist.ReadError>, generation: Int) -> Bool {
        guard generation == loadGeneration, status != .idle, var stream else { return false }
        switch result {
        case .success(let playlist):
            stream.refresh(with: playlist)
            self.stream = stream
            streamChanged(stream)
            return stream.isLive
        case .failure(let failure):
            emit(.error(EngineError(kind: .network, message: "the live playlist's refresh: \(failure)", isFatal: false)))
            return true
        }
    }

    /// The stream's playlist was read, or read again: its dates, interstitials and ad breaks apply.
    func streamChanged(_ stream: StreamPlaylist) {
        placeBoundaries()
        noteInterstitials(of: stream)
        if adBreaks.note(stream.playlist, offset: stream.origin, windowStart: stream.window.start) {
            emit(.adBreaksChanged(adBreaks.sorted))
        }
    }
}
#endif
