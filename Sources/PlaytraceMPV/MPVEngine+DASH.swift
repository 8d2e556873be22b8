#if MPV
import Foundation
import PlaytraceCore
import PlaytraceDASH
import PlaytraceDASHPlayback
import PlaytraceNetwork
import PlaytracePlayer

/// MPEG-DASH on libmpv. With an HTTP client, the engine reads the MPD itself, sets its clock (`UTCTiming`) and writes
/// it as HLS playlists (``DASHBridge``), which it reads as an HLS stream's for dates, the window and ad breaks. A live
/// MPD plays through them (FFmpeg's DASH reader cannot follow one, ``DASHBridge`` says why), the MPD fetched again
/// when `minimumUpdatePeriod` says so; an on-demand one plays through FFmpeg's DASH reader, which starts and seeks
/// in fragmented MP4 more surely than its HLS reader. Without an HTTP client, libmpv reads every MPD alone.
extension MPVEngine {
    /// Whether a source names an MPD (by its path's extension, `.mpd`, as FFmpeg recognises one).
    static func isMPD(_ url: URL) -> Bool { url.pathExtension.lowercased() == "mpd" }

    /// The largest MPD read (a live MPD of tens of thousands of timeline entries is a few megabytes).
    static let maximumMPDSize = 16 << 20

    /// Loads a DASH source once its MPD is read and its playlists written.
    func loadDASH(_ url: URL, at start: MediaTime?) {
        guard let transport else {
            loadPrimary(url, at: start)
            readPlaylist(url)
            return
        }
        loadGeneration += 1
        isReadingPlaylist = true
        let generation = loadGeneration
        Task { [weak self] in
            let received: Result<(HTTPResponse, Duration), EngineError>
            do {
                let response = try await transport.send(HTTPRequest(url: url, timeout: .seconds(10),
                                                                    maximumBodySize: Self.maximumMPDSize))
                received = response.isSuccess
                    ? .success((response, self?.stopwatch.elapsed ?? .zero))
                    : .failure(EngineError(kind: .network, message: "HTTP \(response.status) for the MPD", isFatal: true,
                                           url: url.absoluteString))
            } catch {
                received = .failure(EngineError(kind: .network, message: "the MPD could not be fetched: \(error)",
                                                isFatal: true, url: url.absoluteString))
            }
            await self?.mpdFetched(received, url: url, start: start, generation: generation)
        }
    }

    /// The MPD came (or did not): its session is made, its clock set, its playlists written, and libmpv loads.
    private func mpdFetched(_ received: Result<(HTTPResponse, Duration), EngineError>, url: URL, start: MediaTime?,
                            generation: Int) async {
        guard generation == loadGeneration, status != .idle else { return }
        let bridge: DASHBridge
        do {
            let (response, receivedAt) = try received.get()
            let presentation: ResolvedPresentation
            do {
                presentation = try DASHSession.resolve(response.body, url: response.url)
            } catch {
                throw EngineError(kind: .playlist, message: "the MPD cannot be read: \(error.description)", isFatal: true,
                                  url: url.absoluteString)
            }
            let session = DASHSession(playlists: DASHPlaylists(presentation, base: response.url),
                                      manifestURL: DASHSession.nextURL(of: presentation), fetchedAt: receivedAt)
            await synchroniseClock(session, dateHeader: response.header("Date"), receivedAt: receivedAt)
            guard generation == loadGeneration, status != .idle else { return }
            do {
                bridge = DASHBridge(session: session, directory: try DASHBridge.makeDirectory())
                try bridge.write(elapsed: stopwatch.elapsed)
            } catch {
                throw EngineError(kind: .playlist, message: "the MPD's playlists could not be written: \(error)",
                                  isFatal: true, url: url.absoluteString)
            }
        } catch let failure as EngineError {
            isReadingPlaylist = false
            fail(failure)
            return
        } catch {
            return
        }
        dashBridge?.remove()
        dashBridge = bridge
        isReadingPlaylist = false
        let isLive = bridge.session.presentation.type == .dynamic
        if isLive {
            primaryURL = bridge.multivariantURL
            loadPrimary(bridge.multivariantURL, at: start)
        } else {
            loadPrimary(url, at: start)
        }
        readPlaylist(bridge.multivariantURL)
        // After the read, which counts a load of its own.
        if isLive { dashTask = bridgeLoop(generation: loadGeneration) }
    }

    /// Sets a live presentation's clock; one not from `UTCTiming` is a warning.
    private func synchroniseClock(_ session: DASHSession, dateHeader: String?, receivedAt: Duration) async {
        guard let transport else { return }
        let stopwatch = stopwatch
        let fellBack = await session.synchroniseClock(dateHeader: dateHeader, receivedAt: receivedAt,
                                                      elapsed: { stopwatch.elapsed }) { request in
            guard let response = try? await transport.send(HTTPRequest(method: request.method, url: request.url,
                                                                       timeout: .seconds(5), maximumBodySize: 4_096)),
                  response.isSuccess else { return nil }
            return (response.body, response.header("Date"))
        }
        if fellBack {
            emit(.error(EngineError(kind: .playlist, message: "the live MPD's clock could not be read from any UTCTiming; "
                                        + "its segments are timed by \(session.clockSource)", isFatal: false,
                                    url: session.presentation.url.absoluteString)))
        }
    }

    /// Writes a live presentation's playlists every half target duration (at least every second), the MPD fetched
    /// again first when a refresh is due, until the item changes.
    private func bridgeLoop(generation: Int) -> Task<Void, Never> {
        let stopwatch = stopwatch
        return Task { [weak self] in
            while !Task.isCancelled {
                guard let self, let interval = await self.bridgeTick(generation: generation) else { return }
                do { try await stopwatch.sleep(for: interval) } catch { return }
            }
        }
    }

    /// One round of ``bridgeLoop(generation:)``: the wait before the next, `nil` to stop.
    private func bridgeTick(generation: Int) async -> Duration? {
        guard generation == loadGeneration, status != .idle, let bridge = dashBridge, let transport else { return nil }
        let session = bridge.session
        if session.isRefreshDue(elapsed: stopwatch.elapsed) {
            session.isFetching = true
            session.fetchedAt = stopwatch.elapsed
            let url = session.manifestURL
            let outcome: Result<ResolvedPresentation, EngineError>
            do {
                let response = try await transport.send(HTTPRequest(url: url, timeout: .seconds(10),
                                                                    maximumBodySize: Self.maximumMPDSize))
                guard response.isSuccess else { throw EngineError(kind: .network, message: "HTTP \(response.status)", isFatal: false) }
                outcome = .success(try DASHSession.resolve(response.body, url: response.url))
            } catch let error as EngineError {
                outcome = .failure(error)
            } catch {
                outcome = .failure(EngineError(kind: .playlist, message: "\(error)", isFatal: false))
            }
            session.isFetching = false
            guard generation == loadGeneration, status != .idle else { return nil }
            switch outcome {
            case .success(let presentation): session.update(with: presentation)
            case .failure(let error):
                emit(.error(EngineError(kind: .network, message: "the live MPD's refresh: \(error.message); the presentation "
                                            + "already loaded plays on", isFatal: false, url: url.absoluteString)))
            }
        }
        do {
            try bridge.write(elapsed: stopwatch.elapsed)
        } catch {
            emit(.error(EngineError(kind: .playlist, message: "the MPD's playlists could not be written: \(error)",
                                    isFatal: false)))
        }
        let target = session.presentation.written.maxSegmentDuration ?? .seconds(2)
        return max(.seconds(1), target / 2)
    }

    /// Ends the DASH presentation of the item: its loop stops, its playlists go.
    func closeDASH() {
        dashTask?.cancel()
        dashTask = nil
        dashBridge?.remove()
        dashBridge = nil
    }
}
#endif
