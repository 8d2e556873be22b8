#if MPV
import Foundation
import PlaytraceCore
import PlaytraceHLSPlayback
import PlaytraceNetwork
import PlaytracePlayer

/// The interstitial that plays on libmpv: its assets once known, the one that plays, and how much was played.
struct PlayingInterstitial {
    var entry: InterstitialSchedule.Entry
    /// `nil` while the asset list is fetched.
    var assets: [InterstitialAsset]?
    var index = 0
    /// Where the current asset begins on the interstitial's timeline (the durations of the assets before it), and
    /// libmpv's position in it.
    var assetOffset = MediaTime.zero
    var assetElapsed = MediaTime.zero
    /// What was played of the whole interstitial.
    var elapsed = MediaTime.zero
    /// Where on its timeline playback joined it (past its start when playback started while it was under way).
    var joinOffset = MediaTime.zero
    /// The asset list's download.
    var task: Task<Void, Never>?
    /// Which interstitial begun this is (``MPVEngine/interstitialsBegun``): the answer of an asset list asked for an
    /// earlier one is dropped.
    var generation: Int

    /// The position on the interstitial's timeline.
    var position: MediaTime { assetOffset + assetElapsed }
}

/// HLS interstitials on libmpv (rfc8216bis appendix D), by the same rules as the headless engine's
/// (`InterstitialSchedule`): read from the media playlist the engine reads for libmpv. When the playhead comes two
/// frames from one, the primary pauses there; the asset list is fetched (through the engine's HTTP client, with
/// `_HLS_interstitial_id` and `_HLS_primary_id`), each asset is played as its own `loadfile`, then the primary is
/// loaded again at the interstitial's start plus its resume offset. FFmpeg has no place to keep the primary while an
/// asset plays, so resuming downloads the primary's playlist and segment again: a few hundred milliseconds in which
/// nothing moves (no stall is reported for it). Asset lists are not preloaded: each is fetched when its interstitial
/// begins.
extension MPVEngine {
    /// Notes the interstitials of the playlist just read.
    func noteInterstitials(of stream: StreamPlaylist) {
        guard configuration.playsInterstitials else { return }
        schedule.note(stream.playlist, baseURL: stream.url, placement: { stream.placement(sequence: $0) },
                      nearestBoundary: { stream.nearestSegmentBoundary(to: $0) })
    }

    /// Begins the mid-roll the next frames would enter, from a frame shown at `position`: the primary pauses at the
    /// interstitial's start. Returns whether one began.
    func reachInterstitial(from position: MediaTime) -> Bool {
        guard configuration.playsInterstitials, interstitial == nil, status == .playing, pendingSeek == nil,
              jumpTarget == nil else { return false }
        let lookahead = MediaTime(seconds: 2 / frameRate)
        guard let next = schedule.midRoll(from: min(playhead, position), to: position + lookahead)
        else { return false }
        reportProgress(to: max(position, next.event.start))
        playhead = next.event.start
        beginInterstitial(next)
        return true
    }

    /// A pre-roll, or the mid-roll under way where playback starts, at the primary's first frame. Returns whether
    /// one began.
    func beginInterstitialAtStart() -> Bool {
        guard configuration.playsInterstitials else { return false }
        if let preRoll = schedule.pending(.preRoll) {
            beginInterstitial(preRoll)
            return true
        }
        if let (underWay, offset) = schedule.underWay(at: playhead) {
            beginInterstitial(underWay, joinOffset: offset)
            return true
        }
        return false
    }

    /// The primary's end: a post-roll plays. Returns whether one began.
    func beginPostRoll() -> Bool {
        guard configuration.playsInterstitials, let postRoll = schedule.pending(.postRoll) else { return false }
        beginInterstitial(postRoll)
        return true
    }

    /// Stops the primary where it is and plays an interstitial (from `joinOffset` into it).
    func beginInterstitial(_ entry: InterstitialSchedule.Entry, joinOffset: MediaTime = .zero) {
        closePlayedRange(at: playhead)
        progressedTo = nil
        lastFramePosition = nil
        pendingLeap = nil
        handle.set("pause", "yes")
        let entry = schedule.begin(entry, at: playhead)
        interstitialsBegun += 1
        let generation = interstitialsBegun
        interstitial = PlayingInterstitial(entry: entry, joinOffset: joinOffset, generation: generation)
        emit(.interstitialBegan(entry.event))
        let source: InterstitialAssetSource
        do throws(InterstitialAssetSource.Unusable) {
            source = try InterstitialAssetSource(of: entry, primaryID: primaryID, startOffset: joinOffset)
        } catch {
            return endInterstitial(.failed(error.description), cancelled: true)
        }
        switch source {
        case .asset(let asset):
            assetsKnown([asset])
        case .list(let url):
            guard let transport else { return endInterstitial(.failed("no HTTP client to fetch the asset list"), cancelled: true) }
            let reader = configuration.assetListReader
            let event = entry.event
            interstitial?.task = Task { [weak self] in
                let result: Result<(assets: [InterstitialAsset], skipControl: InterstitialEvent.SkipControl?), any Error>
                do {
                    let response = try await transport.send(HTTPRequest(url: url, timeout: .seconds(10),
                                                                        maximumBodySize: Self.maximumAssetListSize))
                    guard (200..<300).contains(response.status) else {
                        throw EngineError(kind: .network, message: "HTTP \(response.status) for \(url.absoluteString)",
                                          isFatal: false, httpStatus: response.status)
                    }
                    result = .success(try await InterstitialAssetSource.assets(
                        of: event, listURL: response.url, body: response.body, reader: reader))
                } catch is CancellationError {
                    return
                } catch {
                    result = .failure(error)
                }
                await self?.assetListRead(result, generation: generation)
            }
        }
    }

    /// The largest asset list read (a VAST chain's answer is text: 4 MB is far more than any pod).
    static let maximumAssetListSize = 4 << 20

    private func assetListRead(_ result: Result<(assets: [InterstitialAsset], skipControl: InterstitialEvent.SkipControl?), any Error>,
                               generation: Int) {
        guard interstitial?.generation == generation else { return }
        switch result {
        case .success(let list):
            if let control = list.skipControl { interstitial?.entry.event.skipControl = control }
            assetsKnown(list.assets)
        case .failure(let error):
            // An asset-list error cancels the interstitial: the primary resumes at its start.
            endInterstitial(.failed("the asset list: \(error)"), cancelled: true)
        }
    }

    private func assetsKnown(_ assets: [InterstitialAsset]) {
        guard let playing = interstitial else { return }
        interstitial?.assets = assets
        guard !assets.isEmpty else { return endInterstitial(.played, cancelled: false) }
        // Joined under way: the assets before the offset are passed over, and the one it falls in begins there.
        let (first, into) = InterstitialSchedule.joinPoint(at: playing.joinOffset, in: assets)
        beginAsset(first, from: into)
    }

    /// Loads an asset in place of what libmpv plays, from `offset` into it.
    private func beginAsset(_ index: Int, from offset: MediaTime = .zero) {
        guard var playing = interstitial, let assets = playing.assets, assets.indices.contains(index) else { return }
        playing.index = index
        playing.assetOffset = InterstitialSchedule.offset(ofAsset: index, in: assets)
        playing.assetElapsed = offset
        let asset = assets[index]
        emit(.interstitialAssetBegan(playing.entry.event, index: index, asset: asset))
        // libmpv opens local files and any protocol FFmpeg knows: an asset list only gets it to fetch HTTP.
        guard let url = URL(string: asset.url), ["http", "https"].contains(url.scheme?.lowercased()) else {
            interstitial = playing
            return finishAsset(.failed("not an HTTP URL: \(asset.url)"))
        }
        isPrimaryReplaced = true
        interstitial = playing
        // The primary's audio track number means nothing in the asset.
        handle.set("aid", "auto")
        handle.set("speed", "1")
        handle.set("start", offset > .zero ? String(offset.seconds) : "none")
        pendingStarts += 1
        handle.command(["loadfile", url.absoluteString, "replace"])
        handle.set("pause", wantsToPlay ? "no" : "yes")
    }

    /// libmpv loaded the current asset: its duration, when the asset list did not give it.
    func interstitialAssetLoaded() {
        guard let playing = interstitial, let assets = playing.assets, assets.indices.contains(playing.index),
              assets[playing.index].duration == nil, let seconds = handle.double("duration") else { return }
        interstitial?.assets?[playing.index].duration = MediaTime(seconds: seconds)
    }

    /// A frame of the current asset was shown at `position` into it: the interstitial's playhead moves.
    func interstitialMoved(to position: MediaTime) {
        guard var playing = interstitial, isPrimaryReplaced else { return }
        let from = playing.assetElapsed
        // libmpv's timeline runs a little past the playlist's duration (the audio's priming samples first).
        var to = playing.assets?[playing.index].duration.map { min(position, $0) } ?? position
        if let limit = playing.entry.event.playoutLimit { to = min(to, from + max(.zero, limit - playing.elapsed)) }
        // A frame comes every few hundredths of a second: a longer step is a discontinuity, not a movement.
        let moved = wantsToPlay && to > from && to - from < 1
        playing.assetElapsed = to
        if moved {
            playing.elapsed += to - from
            let start = playing.assetOffset + from, end = playing.position
            interstitialPlayedRanges[playing.entry.event.id, default: MediaTimeRangeSet()]
                .insert(MediaTimeRange(start: start, end: end))
            interstitial = playing
            reportInterstitialProgress(of: playing.entry.event, from: start, to: end)
        } else {
            interstitial = playing
        }
        if let limit = playing.entry.event.playoutLimit, playing.elapsed >= limit - MediaTime(seconds: 1e-9) {
            emit(.interstitialAssetEnded(playing.entry.event, index: playing.index, outcome: .played))
            endInterstitial(.played, cancelled: false)
        }
    }

    /// Reports an interstitial's movement, in parts that end at its progress boundaries (a microsecond past each).
    private func reportInterstitialProgress(of event: InterstitialEvent, from start: MediaTime, to end: MediaTime) {
        guard progress.reportsProgress else { return }
        let at = playhead
        let date = stream?.date(at: at)
        var from = start
        func report(to position: MediaTime, lag: Duration) {
            emit(.progressed(PlaybackProgress(
                from: at, to: at, fromDate: date, toDate: date, rate: 1,
                interstitial: InterstitialProgress(event: event, from: from, to: position), lag: lag)))
            from = position
        }
        for boundary in progress.interstitialTimes[event.id] ?? []
        where boundary > from && boundary + ProgressBoundaries.overshoot < end {
            let split = boundary + ProgressBoundaries.overshoot
            report(to: split, lag: .seconds((end - split).seconds))
        }
        report(to: end, lag: .zero)
    }

    /// The current asset played to its end: the movement to its last instant is reported (libmpv's last position is
    /// its last frame's start), then the next asset begins, or the interstitial ends.
    func interstitialAssetReachedEnd() {
        guard let playing = interstitial, let assets = playing.assets, assets.indices.contains(playing.index) else { return }
        if let duration = assets[playing.index].duration, duration > playing.assetElapsed,
           duration - playing.assetElapsed < 1 {
            interstitialMoved(to: duration)
            guard interstitial?.generation == playing.generation else { return }
        }
        finishAsset(.played)
    }

    /// The current asset ended (played, or failed): the next one begins, or the interstitial ends.
    func finishAsset(_ outcome: InterstitialOutcome) {
        guard let playing = interstitial else { return }
        emit(.interstitialAssetEnded(playing.entry.event, index: playing.index, outcome: outcome))
        if let assets = playing.assets, playing.index + 1 < assets.count {
            beginAsset(playing.index + 1)
        } else {
            endInterstitial(.played, cancelled: false)
        }
    }

    /// Ends the interstitial and goes on: to the seek that waited for it, to the end after a post-roll, to the
    /// interstitial under way after a pre-roll, else to the primary at the interstitial's start plus its resume
    /// offset (its start when it was cancelled).
    func endInterstitial(_ outcome: InterstitialOutcome, cancelled: Bool) {
        guard let playing = close(outcome) else { return }
        if let target = seekAfterInterstitial {
            seekAfterInterstitial = nil
            schedule.rearm(after: target)
            return resumePrimary(at: target, asSeek: true)
        }
        if playing.entry.event.placement == .postRoll {
            status = .ended
            emit(.statusChanged(.ended))
            emit(.ended)
            return
        }
        if playing.entry.event.placement == .preRoll, beginInterstitialAtStart() { return }
        let target = InterstitialSchedule.resumePosition(
            after: playing.entry, played: playing.joinOffset + playing.elapsed, cancelled: cancelled,
            nearestBoundary: { position in stream.map { $0.nearestSegmentBoundary(to: position) } ?? position })
        resumePrimary(at: unskipped(target), asSeek: false)
    }

    /// Stops the interstitial that plays: its download cancelled, a stall in it ended, its end said.
    private func close(_ outcome: InterstitialOutcome) -> PlayingInterstitial? {
        guard let playing = interstitial else { return nil }
        playing.task?.cancel()
        interstitial = nil
        if let stalled = stalls.end(at: stopwatch.elapsed) { emit(.stallEnded(after: stalled)) }
        emit(.interstitialEnded(playing.entry.event, outcome: outcome))
        return playing
    }

    /// The primary plays again from `target`: loaded again when an asset replaced it, otherwise resumed (moved
    /// first when the target is elsewhere). `asSeek`: the move is the seek that waited for the interstitial.
    private func resumePrimary(at target: MediaTime, asSeek: Bool) {
        progressedTo = nil
        lastFramePosition = nil
        if asSeek {
            pendingSeek = PendingSeek(target: target, window: target...target, isResent: true)
            emit(.seekBegan(target: target))
        }
        guard isPrimaryReplaced, let primaryURL else {
            if abs((target - playhead).seconds) > 1e-6 {
                if !asSeek { jumpTarget = target }
                seekPrimary(to: target)
            }
            playhead = target
            handle.set("pause", wantsToPlay ? "no" : "yes")
            updateStatus()
            return
        }
        playhead = target
        isResumingPrimary = true
        isPrimaryReplaced = false
        // The primary's audio choice again (libmpv keeps the last `aid` written: the asset's "auto").
        if let audio = selectedMediaOptions[.audio], let track = track(of: audio) { handle.set("aid", String(track)) }
        handle.set("speed", String(rate))
        loadPrimary(primaryURL, at: target)
        handle.set("pause", wantsToPlay ? "no" : "yes")
        updateStatus()
    }

    /// A seek while an interstitial plays: one the viewer may skip ends, skipped, and the primary plays from the
    /// seek's target; otherwise the seek waits for the interstitial's end.
    func seekDuringInterstitial(to target: MediaTime) {
        guard let playing = interstitial else { return }
        guard interstitialStatus?.canSkip == true else {
            seekAfterInterstitial = target
            return
        }
        emit(.interstitialAssetEnded(playing.entry.event, index: playing.index, outcome: .skipped))
        _ = close(.skipped)
        schedule.rearm(after: target)
        resumePrimary(at: target, asSeek: true)
    }

    /// Skips the interstitial that plays, unless it is `X-RESTRICT=SKIP` or its skip control is not shown.
    public func skipInterstitial() {
        guard let playing = interstitial, interstitialStatus?.canSkip == true else { return }
        emit(.interstitialAssetEnded(playing.entry.event, index: playing.index, outcome: .skipped))
        endInterstitial(.skipped, cancelled: false)
    }

    /// What plays of the interstitial now, for the snapshot.
    var interstitialStatus: InterstitialStatus? {
        interstitial.map {
            InterstitialStatus(event: $0.entry.event, assets: $0.assets ?? [], assetIndex: $0.assets == nil ? nil : $0.index,
                               elapsed: $0.elapsed, time: $0.position)
        }
    }
}
#endif
