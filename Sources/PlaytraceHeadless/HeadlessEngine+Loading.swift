import Foundation
import PlaytraceCore
import PlaytraceDASH
import PlaytraceHLS
import PlaytraceNetwork
public import PlaytracePlayer

extension HeadlessEngine {
    public func load(_ source: EngineSource) {
        cancelTasks()
        generation += 1
        resetState()
        self.source = source
        skippedRanges = source.skippedRanges
        phase = .loading
        startupReference = stopwatch.elapsed
        updateStatus()
        let expected = generation
        tasks.load = Task { await self.performLoad(source, generation: expected) }
    }

    /// Loads an item's playlists, then starts its loops. Only the fetches are awaited here; what is done with each
    /// playlist is synchronous and out of line, so that this task's frames stay small while it waits.
    private func performLoad(_ source: EngineSource, generation expected: Int) async {
        // A finished task keeps its stack until its handle goes: the handle is dropped when the load ends.
        defer { if generation == expected { tasks.load = nil } }
        do {
            let (playlist, url, variables) = try await fetchMainPlaylist(source.url, generation: expected)
            guard generation == expected else { return }
            let media: MediaPlaylist
            let mediaURL: URL
            switch playlist {
            case .multivariant(let multivariant):
                adoptVariants(of: multivariant, url: url, variables: variables)
                await startSteering(multivariant.contentSteering, playlistURL: url)
                guard generation == expected else { return }
                var initial = try chooseInitialVariant(renditions: multivariant.renditions, url: url)
                var loaded: (MediaPlaylist, URL)?
                while loaded == nil {
                    do {
                        loaded = try await fetchMediaPlaylist(variant: initial, policy: retryPolicy(for: initial))
                    } catch let error as EngineError {
                        guard generation == expected else { return }
                        guard let next = failOverPlaylist(from: initial, error: error) else { throw error }
                        initial = next
                    }
                }
                guard generation == expected, let (variantPlaylist, variantURL) = loaded else { return }
                media = variantPlaylist
                mediaURL = variantURL
                downloadVariant = initial
            case .media(let playlist):
                variants = [VariantInfo(index: 0, bandwidth: 0, url: url.absoluteString)]
                media = playlist
                mediaURL = url
                downloadVariant = 0
            }
            try startPlayback(of: media, url: mediaURL, source: source)
        } catch let error as EngineError {
            guard generation == expected else { return }
            fail(error)
        } catch {
            // Cancelled by a new load or a stop.
        }
    }

    /// Fetches an item's main playlist: an HLS playlist, or an MPD presented as one (its clock set when live).
    private func fetchMainPlaylist(_ url: URL, generation expected: Int) async throws
        -> (Playlist, URL, [String: String])
    {
        let response = try await fetch(url, kind: .multivariantPlaylist, variant: nil)
        guard MPDDetection.isMPD(response.body) else { return try parsePlaylist(response, kind: .multivariantPlaylist) }
        let receivedAt = stopwatch.elapsed
        let multivariant = try adoptPresentation(response, fetchedAt: receivedAt)
        await synchroniseClock(mpdResponse: response, receivedAt: receivedAt)
        return (.multivariant(multivariant), response.url, [:])
    }

    /// Takes the variants of a multivariant playlist.
    @inline(never)
    private func adoptVariants(of multivariant: MultivariantPlaylist, url: URL, variables: [String: String]) {
        importedVariables = variables
        let steered = multivariant.contentSteering != nil
        variants = multivariant.variants.enumerated().compactMap { index, variant in
            guard let variantURL = URL(string: variant.uri, relativeTo: url)?.absoluteURL else { return nil }
            return VariantInfo(index: index, bandwidth: variant.bandwidth, averageBandwidth: variant.averageBandwidth,
                               width: variant.resolution?.width, height: variant.resolution?.height,
                               codecs: variant.codecs, url: variantURL.absoluteString,
                               pathwayID: steered ? variant.stream.pathwayID ?? "." : nil)
        }
    }

    /// Takes the renditions of a multivariant playlist and chooses the variant that starts.
    @inline(never)
    private func chooseInitialVariant(renditions: [Rendition], url: URL) throws -> Int {
        mediaSelection = MediaSelection(renditions, baseURL: url)
        guard !variants.isEmpty else {
            throw EngineError(kind: .playlist, message: "the multivariant playlist has no variant", isFatal: true,
                              url: url.absoluteString)
        }
        return selector.choose(current: nil, variants: candidateVariants(), estimate: nil, bufferedAhead: 0) ?? 0
    }

    /// Builds the timeline from the first media playlist, places the playhead and starts the loops.
    @inline(never)
    private func startPlayback(of media: MediaPlaylist, url mediaURL: URL, source: EngineSource) throws {
        pendingSwitchReason = .initial
        timeline.merge(media, variant: downloadVariant ?? 0, baseURL: mediaURL)
        noteAdBreaks(of: media)
        noteInterstitials(of: media, baseURL: mediaURL)
        guard !timeline.segments.isEmpty else {
            throw EngineError(kind: .playlist, message: "the media playlist has no segment", isFatal: true,
                              url: mediaURL.absoluteString)
        }
        streamType = timeline.isFinished ? .onDemand
            : (timeline.range.duration >= configuration.minimumDVRWindow ? .dvr : .live)
        reposition(at: startPosition(source, media))
        phase = .ready
        emit(.loaded(streamType: streamType, duration: streamType == .onDemand ? timeline.range.end : nil,
                     variants: variants))
        updateStatus()
        startLoops()
    }

    private func startPosition(_ source: EngineSource, _ media: MediaPlaylist) -> MediaTime {
        let seekable = seekableRange()
        if let requested = source.startPosition { return unskipped(seekable.clamp(requested)) }
        if let start = media.start {
            let offset = start.timeOffset
            let position = offset >= .zero ? timeline.range.start + offset : timeline.range.end + offset
            return unskipped(seekable.clamp(position))
        }
        return unskipped(streamType == .onDemand ? seekable.start : seekable.end)
    }

    /// A position moved past the skipped range that contains it.
    func unskipped(_ position: MediaTime) -> MediaTime {
        skippedRanges.range(containing: position)?.end ?? position
    }

    /// Moves the playhead and the download position to a time, keeping nothing buffered.
    func reposition(at time: MediaTime) {
        playhead = time
        buffer.restart(at: timeline.segment(containing: time)?.sequence)
    }

    func startLoops() {
        let expected = generation
        tasks.playback = Task { await self.playbackLoop(generation: expected) }
        startDownloadLoop()
        if streamType != .onDemand {
            tasks.refresh = Task { await self.refreshLoop(generation: expected) }
        }
    }

    func startDownloadLoop() {
        tasks.download?.cancel()
        downloadGeneration += 1
        let expected = (generation, downloadGeneration)
        tasks.download = Task { await self.downloadLoop(generation: expected.0, downloadGeneration: expected.1) }
    }

    /// Fetches and parses the media playlist of a variant, and merges it into the timeline.
    @discardableResult
    func fetchMediaPlaylist(variant index: Int, policy: RetryPolicy = .standard) async throws -> (MediaPlaylist, URL) {
        guard let info = variant(at: index), let url = URL(string: info.url) else {
            throw EngineError(kind: .playlist, message: "no variant \(index)", isFatal: true)
        }
        let (playlist, finalURL, _) = try await fetchPlaylist(url, kind: .mediaPlaylist, variant: index, policy: policy)
        guard case .media(let media) = playlist else {
            throw EngineError(kind: .playlist, message: "a variant's URL gave a multivariant playlist", isFatal: true,
                              url: url.absoluteString)
        }
        return (media, finalURL)
    }

    @discardableResult
    func refreshVariant(_ index: Int, policy: RetryPolicy = .standard) async throws -> Bool {
        let (media, url) = try await fetchMediaPlaylist(variant: index, policy: policy)
        return merge(media, variant: index, url: url)
    }

    /// Merges a refreshed media playlist into the timeline; whether it brought something new.
    @inline(never)
    private func merge(_ media: MediaPlaylist, variant index: Int, url: URL) -> Bool {
        let changed = timeline.merge(media, variant: index, baseURL: url)
        noteAdBreaks(of: media)
        noteInterstitials(of: media, baseURL: url)
        return changed
    }

    /// How many target durations a live playlist may stay unchanged before it counts as stuck (ExoPlayer's
    /// `PLAYLIST_STUCK_TARGET_DURATION_COEFFICIENT`): a live origin adds a segment every target duration, and a
    /// refresh may come just before it.
    static let stuckPlaylistTargetDurations = 3.5

    /// Refreshes the live playlist of the variant being downloaded, every target duration (half of it after a
    /// refresh that brought nothing new), until the stream ends or the item changes.
    private func refreshLoop(generation expected: Int) async {
        var progress = RefreshProgress(lastChange: stopwatch.elapsed)
        while !Task.isCancelled, generation == expected {
            let target = max(timeline.targetDuration.seconds, 1)
            do {
                try await stopwatch.sleep(for: .seconds(progress.changedLastTime ? target : target / 2))
            } catch { return }
            guard generation == expected, let index = downloadVariant else { return }
            do {
                let changed = try await refreshVariant(index, policy: retryPolicy(for: index))
                guard generation == expected,
                      playlistRefreshed(changed: changed, variant: index, targetSeconds: target, progress: &progress)
                else { return }
            } catch let error as EngineError {
                guard generation == expected else { return }
                // Another variant takes over; its playlist is loaded at once by the download loop.
                guard failOverPlaylist(from: index, error: error) != nil else {
                    fail(error)
                    return
                }
                progress.changedLastTime = false
            } catch {
                return
            }
        }
    }

    /// What the refresh loop knows of the live playlist's progress.
    private struct RefreshProgress {
        var changedLastTime = true
        var lastChange: Duration
    }

    /// Notes a refresh; false when the loop ends (the stream ended, or stopped with no variant to take over).
    @inline(never)
    private func playlistRefreshed(changed: Bool, variant index: Int, targetSeconds target: Double,
                                   progress: inout RefreshProgress) -> Bool {
        progress.changedLastTime = changed
        emit(.playlistRefreshed(window: timeline.range, mediaSequence: timeline.first?.sequence ?? 0))
        if timeline.isFinished { return false }
        if changed {
            progress.lastChange = stopwatch.elapsed
        } else if stopwatch.elapsed - progress.lastChange >= .seconds(target * Self.stuckPlaylistTargetDurations) {
            // The stream stopped: another variant takes over if its playlist moves; otherwise the item fails
            // rather than waiting for ever.
            let unchanged = (stopwatch.elapsed - progress.lastChange).seconds
            let error = EngineError(
                kind: .playlist,
                message: "the live playlist has not changed for \(String(format: "%.1f", unchanged)) s (more than "
                    + "\(Self.stuckPlaylistTargetDurations) target durations): the stream stopped",
                isFatal: true, url: variant(at: index)?.url)
            guard failOverPlaylist(from: index, error: error) != nil else {
                fail(error)
                return false
            }
        }
        return true
    }

    /// Fetches a playlist; a DASH track's is made from the presentation held (``dashMediaPlaylist(_:url:)``).
    func fetchPlaylist(_ url: URL, kind: RequestRecord.Kind, variant: Int?, policy: RetryPolicy = .standard) async throws
        -> (Playlist, URL, [String: String])
    {
        if let track = dash?.playlists.track(of: url) {
            return (.media(try await dashMediaPlaylist(track, url: url)), url, [:])
        }
        let response = try await fetch(url, kind: kind, variant: variant, policy: policy)
        return try parsePlaylist(response, kind: kind)
    }

    /// Parses a fetched playlist: synchronous, and kept out of line so that the parser's locals stay on the thread's
    /// stack instead of the async frames that the engine's loops hold for as long as they run.
    @inline(never)
    private func parsePlaylist(_ response: HTTPResponse, kind: RequestRecord.Kind) throws
        -> (Playlist, URL, [String: String])
    {
        let parser = PlaylistParser(options: PlaylistParser.Options(
            importedVariables: kind == .mediaPlaylist ? importedVariables : nil,
            queryParameters: Self.queryParameters(of: response.url),
            keepingLastSegments: configuration.maximumPlaylistSegments))
        do {
            let outcome = try parser.parseWithWarnings(bytes: response.body)
            for warning in outcome.warnings {
                logger.debug("playlist warning", metadata: ["url": "\(response.url)", "warning": "\(warning)"])
            }
            return (outcome.playlist, response.url, outcome.variables)
        } catch {
            throw EngineError(kind: .playlist, message: error.description, isFatal: true, url: response.url.absoluteString)
        }
    }

    static func queryParameters(of url: URL) -> [String: String] {
        guard let items = URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems else { return [:] }
        var parameters: [String: String] = [:]
        for item in items where parameters[item.name] == nil { parameters[item.name] = item.value ?? "" }
        return parameters
    }
}
