import Foundation
import PlaytraceCore
import PlaytraceHLS
import PlaytraceHLSPlayback
import PlaytracePlayer

/// HLS interstitials (rfc8216bis appendix D): when the playhead reaches one, the primary waits; the asset list is
/// fetched (with `_HLS_interstitial_id` and `_HLS_primary_id`) or the asset URI taken; each asset — an HLS stream
/// — is downloaded segment by segment (the next one once the current one is, while it plays) and played for its
/// duration; then the primary resumes at the interstitial's
/// start plus `X-RESUME-OFFSET` (by default, what the interstitial played). An asset-list error cancels the
/// interstitial and resumes at its start; an asset's error skips that asset. `X-PLAYOUT-LIMIT` ends it early; the
/// viewer may skip it unless `X-RESTRICT` has `SKIP` (and only while its skip control is shown). `CUE=PRE` plays
/// before the primary's first movement, `CUE=POST` after its end; without `CUE=ONCE` a seek back before a played
/// interstitial plays it again. A forward seek past a `JUMP`-restricted one plays it first, then goes on to the
/// seek's target.
extension HeadlessEngine {
    /// Notes the interstitials of a media playlist just merged (by their date, placed on the engine's timeline;
    /// `X-SNAP=OUT` moves one to the segment boundary nearest its date).
    func noteInterstitials(of playlist: MediaPlaylist, baseURL: URL) {
        interstitials.schedule.note(playlist, baseURL: baseURL, placement: { sequence in
            timeline.segment(sequence: sequence).map { .init(start: $0.start, date: $0.date) }
        }, nearestBoundary: { self.nearestSegmentBoundary(to: $0) })
        // Those played that a live window left behind are forgotten: a long session holds only what it can reach.
        interstitials.schedule.forgetPlayed(before: timeline.range.start)
        if interstitials.playedRanges.count > interstitials.schedule.entries.count {
            interstitials.playedRanges = interstitials.playedRanges.filter { interstitials.schedule.entries[$0.key] != nil }
        }
    }

    /// The segment boundary nearest a position (`X-SNAP`).
    func nearestSegmentBoundary(to position: MediaTime) -> MediaTime {
        guard let segment = timeline.segment(containing: position) else { return position }
        return position - segment.start <= segment.end - position ? segment.start : segment.end
    }

    /// The interstitials scheduled, in order of their start (for the snapshot).
    var interstitialSchedule: [InterstitialEvent] { interstitials.schedule.events }

    /// The first mid-roll not played yet whose start lies in `from...to`.
    func interstitial(from: MediaTime, to: MediaTime) -> ScheduledInterstitial? {
        configuration.playsInterstitials ? interstitials.schedule.midRoll(from: from, to: to) : nil
    }

    /// The first pre-roll (`CUE=PRE`) or post-roll (`CUE=POST`) not played yet, in order of their dates.
    func pendingInterstitial(_ placement: InterstitialEvent.Placement) -> ScheduledInterstitial? {
        configuration.playsInterstitials ? interstitials.schedule.pending(placement) : nil
    }

    /// The JUMP-restricted mid-roll not played yet that a forward seek from `from` to `to` plays first.
    func jumpRestrictedInterstitial(from: MediaTime, to: MediaTime) -> ScheduledInterstitial? {
        configuration.playsInterstitials ? interstitials.schedule.jumpRestricted(from: from, to: to) : nil
    }

    /// The mid-roll under way at a position where playback starts, joined there.
    func interstitialUnderWay(at position: MediaTime) -> (ScheduledInterstitial, offset: MediaTime)? {
        guard configuration.playsInterstitials, let (entry, offset) = interstitials.schedule.underWay(at: position) else { return nil }
        return (entry, offset)
    }

    /// Plays an interstitial from `offset` into it: the primary waits where playback starts.
    func joinInterstitial(_ scheduled: ScheduledInterstitial, at offset: MediaTime) {
        discardPreload()
        var active = ActiveInterstitial(scheduled: scheduled)
        active.joinOffset = offset
        let expected = generation
        active.task = Task { await self.loadAssets(of: scheduled, generation: expected) }
        interstitials.active = active
        beginInterstitial(scheduled)
    }

    /// A seek to `target` makes the interstitials after it, played but without `CUE=ONCE`, playable again.
    func rearmInterstitials(after target: MediaTime) { interstitials.schedule.rearm(after: target) }

    /// The primary reached an interstitial: it waits there while the interstitial plays (from what was preloaded,
    /// when it was).
    /// A pre-roll or post-roll begins where the primary is (where playback starts, or its end).
    func beginInterstitial(_ scheduled: ScheduledInterstitial) {
        let scheduled = interstitials.schedule.begin(scheduled, at: playhead)
        if interstitials.active?.scheduled.event.id != scheduled.event.id { discardPreload() }
        // An asset list refused for good while preloading is not asked for again: the interstitial is skipped.
        if interstitials.active == nil, let failure = interstitials.failedPreloads[scheduled.event.id], failure.isPermanent {
            var active = ActiveInterstitial(scheduled: scheduled)
            active.isStarted = true
            interstitials.active = active
            emit(.interstitialBegan(scheduled.event))
            return endInterstitial(failure.outcome, resumeAtStart: true)
        }
        if interstitials.active == nil { startLoading(scheduled) }
        interstitials.active?.isStarted = true
        interstitials.active?.scheduled.event.start = scheduled.event.start
        interstitials.active?.scheduled.event.datePosition = scheduled.event.datePosition
        let event = interstitials.active?.scheduled.event ?? scheduled.event
        emit(.interstitialBegan(event))
        if let active = interstitials.active, let assets = active.assets {
            guard assets.indices.contains(active.index) else {
                // The asset list, preloaded, was empty: nothing plays, and the resume offset applies.
                return endInterstitial(.played, resumeAtStart: false)
            }
            emit(.interstitialAssetBegan(event, index: active.index, asset: assets[active.index]))
            if let failure = active.preloadFailure {
                finishAsset(.failed(failure))
            } else if active.assetLoaded {
                prefetchNextAsset()
            }
        }
        updateStatus()
    }

    private func startLoading(_ scheduled: ScheduledInterstitial) {
        var active = ActiveInterstitial(scheduled: scheduled)
        let expected = generation
        active.task = Task { await self.loadAssets(of: scheduled, generation: expected) }
        interstitials.active = active
    }

    /// Starts downloading the next interstitial's asset list and first asset when the playhead is within
    /// ``Configuration/interstitialPreloadLead`` of it, as players do, so that it starts without waiting.
    func preloadInterstitial(near position: MediaTime) {
        guard interstitials.active == nil else { return }
        let lead = configuration.interstitialPreloadLead
        if let next = interstitial(from: position, to: position + lead) {
            // One that failed to preload is tried again when the playhead gets there, not at every tick before.
            guard interstitials.failedPreloads[next.event.id] == nil else { return }
            startLoading(next)
        } else if buffer.isComplete, let end = buffer.last?.end, end - position <= lead,
                  let postRoll = pendingInterstitial(.postRoll) {
            startLoading(postRoll)
        }
    }

    /// Forgets an interstitial preloaded but not started (a seek went elsewhere, another one came first).
    func discardPreload() {
        guard let active = interstitials.active, !active.isStarted else { return }
        active.cancelDownloads()
        interstitials.active = nil
    }

    /// The interstitial that plays (not one only preloaded).
    var playingInterstitial: ActiveInterstitial? { interstitials.playing }

    /// The asset URLs: the asset list's, or the single asset URI.
    private func loadAssets(of scheduled: ScheduledInterstitial, generation expected: Int) async {
        let joinOffset = interstitials.active?.scheduled.event.id == scheduled.event.id ? interstitials.active?.joinOffset ?? .zero : .zero
        let source: InterstitialAssetSource
        do throws(InterstitialAssetSource.Unusable) {
            source = try InterstitialAssetSource(of: scheduled, primaryID: interstitials.primaryID, startOffset: joinOffset)
        } catch {
            return failLoading(.failed(error.description), of: scheduled)
        }
        guard case .list(let url) = source else {
            if case .asset(let asset) = source { assetsKnown([asset], generation: expected) }
            return
        }
        do {
            let response = try await fetch(url, kind: .other, variant: nil)
            guard generation == expected, interstitials.active?.scheduled.event.id == scheduled.event.id else { return }
            // A reader may make requests of its own (a VAST ad server's wrapper chain): they are the engine's requests
            // in flight until it answers, so that whoever waits for the engine to be idle waits for them too.
            transfers.inFlight += 1
            let read: Result<(assets: [InterstitialAsset], skipControl: InterstitialEvent.SkipControl?), any Error>
            do {
                read = .success(try await InterstitialAssetSource.assets(
                    of: scheduled.event, listURL: response.url, body: response.body, reader: configuration.assetListReader))
            } catch {
                read = .failure(error)
            }
            transfers.inFlight -= 1
            let (assets, skipControl) = try read.get()
            guard generation == expected, interstitials.active?.scheduled.event.id == scheduled.event.id else { return }
            if let skipControl { interstitials.active?.scheduled.event.skipControl = skipControl }
            assetsKnown(assets, generation: expected)
        } catch is CancellationError {
            return
        } catch {
            guard generation == expected, interstitials.active?.scheduled.event.id == scheduled.event.id else { return }
            // An asset-list error cancels the interstitial: the primary resumes at its start.
            let isPermanent = InterstitialAssetSource.isPermanent(status: (error as? EngineError)?.httpStatus)
            failLoading(.failed("the asset list: \(error)"), of: scheduled, isPermanent: isPermanent)
        }
    }

    /// The asset list could not be had: a started interstitial is cancelled (the primary resumes at its start); a
    /// preloaded one is forgotten, and tried again when the playhead gets there.
    private func failLoading(_ outcome: InterstitialOutcome, of scheduled: ScheduledInterstitial, isPermanent: Bool = true) {
        guard interstitials.active?.scheduled.event.id == scheduled.event.id else { return }
        if interstitials.active?.isStarted == true {
            endInterstitial(outcome, resumeAtStart: true)
        } else {
            logger.warning("an interstitial could not be preloaded", metadata: ["id": "\(scheduled.event.id)", "reason": "\(outcome)"])
            interstitials.failedPreloads[scheduled.event.id] = (outcome, isPermanent)
            discardPreload()
        }
    }

    private func assetsKnown(_ assets: [InterstitialAsset], generation expected: Int) {
        guard generation == expected, interstitials.active != nil else { return }
        interstitials.active?.assets = assets
        if assets.isEmpty {
            if interstitials.active?.isStarted == true { endInterstitial(.played, resumeAtStart: false) }
            return
        }
        // Joined under way: the assets before the offset are passed over, and the one it falls in begins there.
        let (first, into) = InterstitialSchedule.joinPoint(at: interstitials.active?.joinOffset ?? .zero, in: assets)
        beginAsset(first, from: into)
    }

    /// Begins an asset, from `offset` into it (when playback joined the interstitial under way).
    private func beginAsset(_ index: Int, from offset: MediaTime = .zero) {
        guard var active = interstitials.active, let assets = active.assets, assets.indices.contains(index) else { return }
        active.index = index
        active.assetOffset = InterstitialSchedule.offset(ofAsset: index, in: assets)
        active.assetElapsed = offset
        active.isRunning = false
        let asset = assets[index]
        var failure: String?
        if let prefetch = active.prefetch, prefetch.index == index {
            // Downloaded while the asset before played: its download (still running or done) is now the current one.
            active.buffered = prefetch.buffered
            active.assetLoaded = prefetch.loaded
            active.task = prefetch.task
            failure = prefetch.failure
        } else {
            active.prefetch?.task?.cancel()
            active.buffered = .zero
            active.assetLoaded = false
            let expected = generation
            active.task = Task { await self.downloadAsset(asset, index: index, generation: expected) }
        }
        active.prefetch = nil
        interstitials.active = active
        guard active.isStarted else { return }
        emit(.interstitialAssetBegan(active.scheduled.event, index: index, asset: asset))
        if let failure {
            finishAsset(.failed(failure))
        } else if active.assetLoaded {
            prefetchNextAsset()
        }
    }

    /// Starts downloading the asset after the current one, once the current one is downloaded and plays.
    private func prefetchNextAsset() {
        guard var active = playingInterstitial, active.prefetch == nil, let assets = active.assets,
              assets.indices.contains(active.index + 1) else { return }
        let index = active.index + 1
        let asset = assets[index]
        let expected = generation
        active.prefetch = AssetPrefetch(index: index, task: Task { await self.downloadAsset(asset, index: index, generation: expected) })
        interstitials.active = active
    }

    /// Fetches an asset's playlist (its first variant's media playlist when it is a multivariant playlist) and its
    /// segments one after the other, counting what is buffered.
    private func downloadAsset(_ asset: InterstitialAsset, index: Int, generation expected: Int) async {
        // The asset is the current one, or the next one being prefetched (which may become current meanwhile).
        func isCurrent() -> Bool { generation == expected && interstitials.active?.index == index }
        func current() -> Bool { isCurrent() || (generation == expected && interstitials.active?.prefetch?.index == index) }
        do {
            guard let url = URL(string: asset.url) else { throw EngineError(kind: .playlist, message: "not a URL", isFatal: false) }
            var (playlist, playlistURL, _) = try await fetchPlaylist(url, kind: .mediaPlaylist, variant: nil)
            if case .multivariant(let multivariant) = playlist, let first = multivariant.variants.first,
               let variantURL = URL(string: first.uri, relativeTo: playlistURL)?.absoluteURL {
                (playlist, playlistURL, _) = try await fetchPlaylist(variantURL, kind: .mediaPlaylist, variant: nil)
            }
            guard case .media(let media) = playlist, current() else { return }
            let total = media.segments.reduce(0) { $0 + $1.duration }
            if asset.duration == nil { interstitials.active?.assets?[index].duration = MediaTime(seconds: total) }
            // Segments wholly before where the asset begins (joined under way) are not needed.
            var skip = isCurrent() ? (interstitials.active?.assetElapsed ?? .zero) : .zero
            for segment in media.segments {
                let duration = MediaTime(seconds: segment.duration)
                if skip >= duration {
                    skip -= duration
                    if isCurrent() { interstitials.active?.buffered += duration }
                    continue
                }
                skip = .zero
                guard let segmentURL = URL(string: segment.uri, relativeTo: playlistURL)?.absoluteURL else { continue }
                _ = try await fetch(segmentURL, kind: .segment, variant: nil)
                guard current() else { return }
                if isCurrent() {
                    interstitials.active?.buffered += duration
                } else {
                    interstitials.active?.prefetch?.buffered += duration
                }
            }
            if isCurrent() {
                interstitials.active?.assetLoaded = true
                prefetchNextAsset()
            } else {
                interstitials.active?.prefetch?.loaded = true
            }
        } catch is CancellationError {
            return
        } catch {
            guard current() else { return }
            // A prefetched asset's error is said when it begins.
            guard isCurrent() else {
                interstitials.active?.prefetch?.failure = "\(error)"
                return
            }
            // One asset's error skips that asset (when it plays: a preloaded one says it when it starts).
            if interstitials.active?.isStarted == true {
                finishAsset(.failed("\(error)"))
            } else {
                interstitials.active?.preloadFailure = "\(error)"
            }
        }
    }

    /// A tick while an interstitial plays: its playhead moves with the clock as far as its asset is downloaded.
    func advanceInterstitial(elapsed: Duration) {
        guard var active = playingInterstitial, let assets = active.assets, assets.indices.contains(active.index) else { return }
        let duration = assets[active.index].duration ?? (active.assetLoaded ? active.buffered : MediaTime(seconds: .infinity))
        var limit = min(duration, active.assetLoaded ? duration : active.buffered)
        if let playout = active.scheduled.event.playoutLimit {
            limit = min(limit, active.assetElapsed + max(.zero, playout - active.elapsed))
        }
        var move = max(.zero, min(MediaTime(elapsed), limit - active.assetElapsed))
        // A tick timed to reach a boundary reaches it, whatever the rounding of the clock's durations.
        if let aimed = boundaries.aimed, active.position + move < aimed,
           aimed - (active.position + move) < ProgressBoundaries.overshoot {
            move = min(aimed - active.position, limit - active.assetElapsed)
        }
        boundaries.aimed = nil
        // An asset that has not downloaded far enough keeps the viewer waiting: a stall, as in the primary.
        if move == .zero, !active.assetLoaded, active.assetElapsed < duration {
            interstitials.active?.isRunning = false
            if !stalls.isStalled {
                beginStall()
            }
            return
        }
        if stalls.isStalled {
            endStall()
            updateStatus()
        }
        // The data is there: playback starts now, and moves from the next tick (the time before was spent waiting).
        if !active.isRunning, move > .zero {
            interstitials.active?.isRunning = true
            return
        }
        if move > .zero {
            let from = active.position
            // An asset played to its limit ends exactly there, whatever the rounding of the ticks.
            active.assetElapsed = active.assetElapsed + move >= limit - Self.timeTolerance ? limit : active.assetElapsed + move
            active.elapsed += move
            interstitials.active = active
            interstitials.playedRanges[active.scheduled.event.id, default: MediaTimeRangeSet()]
                .insert(MediaTimeRange(start: from, end: active.position))
            if boundaries.reportsProgress {
                emit(.progressed(PlaybackProgress(
                    from: playhead, to: playhead, fromDate: timeline.date(at: playhead), toDate: timeline.date(at: playhead),
                    rate: 1, interstitial: InterstitialProgress(event: active.scheduled.event, from: from, to: active.position))))
            }
        }
        if let playout = active.scheduled.event.playoutLimit, active.elapsed >= playout - Self.timeTolerance {
            emit(.interstitialAssetEnded(active.scheduled.event, index: active.index, outcome: .played))
            return endInterstitial(.played, resumeAtStart: false)
        }
        if active.assetElapsed >= duration - Self.timeTolerance { finishAsset(.played) }
    }

    /// The current asset ended: the next one begins, or the interstitial ends.
    private func finishAsset(_ outcome: InterstitialOutcome) {
        guard let active = playingInterstitial else { return }
        active.task?.cancel()
        emit(.interstitialAssetEnded(active.scheduled.event, index: active.index, outcome: outcome))
        if let assets = active.assets, active.index + 1 < assets.count {
            beginAsset(active.index + 1)
        } else {
            endInterstitial(.played, resumeAtStart: false)
        }
    }

    /// Ends the interstitial and resumes the primary: at its start when it was cancelled, otherwise at its start plus
    /// its resume offset (by default, what it played; `X-SNAP=IN` moves it to the nearest segment boundary). A seek
    /// that waited for the interstitial goes on instead; a post-roll's end is the primary's.
    func endInterstitial(_ outcome: InterstitialOutcome, resumeAtStart: Bool) {
        guard let active = playingInterstitial else { return }
        close(active, outcome)
        if let target = interstitials.seekAfter {
            interstitials.seekAfter = nil
            seek(to: target)
            return
        }
        if active.scheduled.event.placement == .postRoll { return reachedEnd() }
        // After a pre-roll, playback may start inside an interstitial under way: it is joined.
        if active.scheduled.event.placement == .preRoll, let (underWay, offset) = interstitialUnderWay(at: playhead) {
            return joinInterstitial(underWay, at: offset)
        }
        // A pre-roll leaves the primary where it starts unless its resume offset is written; one joined under way
        // counts from its start.
        let target = InterstitialSchedule.resumePosition(
            after: active.scheduled, played: active.joinOffset + active.elapsed, cancelled: resumeAtStart,
            nearestBoundary: { self.nearestSegmentBoundary(to: $0) })
        if abs((target - playhead).seconds) > Self.timeTolerance.seconds { resumePrimary(at: target) }
        updateStatus()
    }

    /// Skips the interstitial that plays, unless it is `X-RESTRICT=SKIP` or its skip control is not shown.
    public func skipInterstitial() {
        guard let active = playingInterstitial, interstitialStatus?.canSkip == true else { return }
        emit(.interstitialAssetEnded(active.scheduled.event, index: active.index, outcome: .skipped))
        endInterstitial(.skipped, resumeAtStart: false)
    }

    /// A seek while an interstitial plays: one the viewer may skip ends, skipped, and the seek goes on (`true`);
    /// otherwise the seek waits for its end (`false`).
    func seekLeavesInterstitial(to target: MediaTime) -> Bool {
        guard let active = playingInterstitial else { return true }
        guard interstitialStatus?.canSkip == true else {
            interstitials.seekAfter = target
            return false
        }
        emit(.interstitialAssetEnded(active.scheduled.event, index: active.index, outcome: .skipped))
        close(active, .skipped)
        return true
    }

    /// Stops an interstitial: its downloads cancelled, a stall in it ended, its end said. Where the primary goes
    /// next is the caller's.
    private func close(_ active: ActiveInterstitial, _ outcome: InterstitialOutcome) {
        active.cancelDownloads()
        interstitials.active = nil
        if stalls.isStalled { endStall() }
        emit(.interstitialEnded(active.scheduled.event, outcome: outcome))
    }

    /// What plays of the interstitial now, for the snapshot.
    var interstitialStatus: InterstitialStatus? {
        playingInterstitial.map {
            InterstitialStatus(event: $0.scheduled.event, assets: $0.assets ?? [], assetIndex: $0.assets == nil ? nil : $0.index,
                               elapsed: $0.elapsed, time: $0.position)
        }
    }
}
