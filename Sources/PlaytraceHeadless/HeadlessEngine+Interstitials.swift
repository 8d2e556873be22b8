import Foundation
import PlaytraceCore
import PlaytraceHLS
import PlaytracePlayer

/// An interstitial a playlist announces: where it plays, how to get its assets, and whether it played.
struct ScheduledInterstitial {
    var event: InterstitialEvent
    var attributes: Interstitial
    /// The media playlist's URL, which the asset list or asset URI is relative to.
    var baseURL: URL
    var hasPlayed = false
}

/// The next asset of an interstitial, downloaded while the current one plays so that the switch does not wait.
struct AssetPrefetch {
    var index: Int
    /// Seconds of it downloaded, and whether all of it is.
    var buffered = 0.0
    var loaded = false
    /// Its error, said when it begins.
    var failure: String?
    var task: Task<Void, Never>?
}

/// The interstitial that plays: its assets as they become known, the one that plays and how much of it is
/// downloaded and played.
struct ActiveInterstitial {
    var scheduled: ScheduledInterstitial
    /// `nil` while the asset list is fetched.
    var assets: [InterstitialAsset]?
    var index = 0
    /// Seconds of the current asset downloaded, and played.
    var buffered = 0.0
    var assetElapsed = 0.0
    /// Whether the current asset's segments are all downloaded.
    var assetLoaded = false
    /// Whether it plays: `false` while it is preloaded, before the playhead reaches it.
    var isStarted = false
    /// Where on its timeline playback joined it (seconds): more than 0 when playback started while it was under way
    /// (`_HLS_start_offset`).
    var joinOffset = 0.0
    /// Whether the current asset's playhead runs: `false` until its data is there (at its beginning, after a
    /// stall). The tick that finds the data starts it; the movement begins with the next, soon after.
    var isRunning = false
    /// The current asset's failure met while it was preloaded, said when the interstitial starts.
    var preloadFailure: String?
    /// Seconds played in the whole interstitial.
    var elapsed = 0.0
    /// Where the current asset begins on the interstitial's timeline: the durations of the assets before it.
    var assetOffset = 0.0
    /// The position on the interstitial's timeline.
    var position: Double { assetOffset + assetElapsed }
    /// The next asset, downloaded once the current one is.
    var prefetch: AssetPrefetch?

    /// Cancels every download of the interstitial.
    func cancelDownloads() {
        task?.cancel()
        prefetch?.task?.cancel()
    }
    var task: Task<Void, Never>?
}

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
        for segment in playlist.segments {
            for range in segment.tags.dateRanges {
                guard let attributes = range.interstitial, scheduledInterstitials[range.id] == nil,
                      let placed = timeline.segment(sequence: segment.mediaSequence), let date = placed.date else { continue }
                let datePosition = max(0, placed.start + (range.startDate.secondsSince1970 - date.secondsSince1970))
                var start = datePosition
                if attributes.snap.contains(.out) { start = nearestSegmentBoundary(to: start) }
                let placement: InterstitialEvent.Placement = range.cue.contains(.pre) ? .preRoll
                    : range.cue.contains(.post) ? .postRoll : .midRoll
                let skipControl = attributes.skipControlOffset.map {
                    InterstitialEvent.SkipControl(offset: $0, duration: attributes.skipControlDuration,
                                                  labelID: attributes.skipControlLabelID)
                }
                let event = InterstitialEvent(
                    id: range.id, start: MediaTime(seconds: start), startDate: range.startDate,
                    resumeOffset: attributes.resumeOffset, playoutLimit: attributes.playoutLimit,
                    isSkipRestricted: attributes.restrictions.contains(.skip),
                    isJumpRestricted: attributes.restrictions.contains(.jump),
                    placement: placement, playsOnce: range.cue.contains(.once), skipControl: skipControl,
                    datePosition: MediaTime(seconds: datePosition), duration: range.duration ?? range.plannedDuration)
                scheduledInterstitials[range.id] = ScheduledInterstitial(event: event, attributes: attributes, baseURL: baseURL)
            }
        }
        // Those played that a live window left behind are forgotten: a long session holds only what it can reach.
        let windowStart = timeline.range.start
        scheduledInterstitials = scheduledInterstitials.filter { !$0.value.hasPlayed || $0.value.event.start >= windowStart }
        if interstitialPlayedRanges.count > scheduledInterstitials.count {
            interstitialPlayedRanges = interstitialPlayedRanges.filter { scheduledInterstitials[$0.key] != nil }
        }
    }

    /// The segment boundary nearest a position (`X-SNAP`).
    func nearestSegmentBoundary(to position: Double) -> Double {
        guard let segment = timeline.segment(containing: position) else { return position }
        return position - segment.start <= segment.end - position ? segment.start : segment.end
    }

    /// The interstitials scheduled, in order of their start (for the snapshot).
    var interstitialSchedule: [InterstitialEvent] {
        scheduledInterstitials.values.map(\.event).sorted { ($0.start, $0.id) < ($1.start, $1.id) }
    }

    /// The first mid-roll not played yet whose start lies in `from...to`.
    func interstitial(from: Double, to: Double) -> ScheduledInterstitial? {
        guard configuration.playsInterstitials else { return nil }
        return scheduledInterstitials.values
            .filter { !$0.hasPlayed && $0.event.placement == .midRoll && $0.event.start.seconds >= from && $0.event.start.seconds <= to }
            .min { ($0.event.start, $0.event.id) < ($1.event.start, $1.event.id) }
    }

    /// The first pre-roll (`CUE=PRE`) or post-roll (`CUE=POST`) not played yet, in order of their dates.
    func pendingInterstitial(_ placement: InterstitialEvent.Placement) -> ScheduledInterstitial? {
        guard configuration.playsInterstitials else { return nil }
        return scheduledInterstitials.values
            .filter { !$0.hasPlayed && $0.event.placement == placement }
            .min { ($0.event.startDate?.secondsSince1970 ?? 0, $0.event.id) < ($1.event.startDate?.secondsSince1970 ?? 0, $1.event.id) }
    }

    /// The last JUMP-restricted mid-roll not played yet that a forward seek from `from` to `to` would pass: it plays
    /// before the seek continues (the one nearest the target, as a snapback plays the break last passed).
    func jumpRestrictedInterstitial(from: Double, to: Double) -> ScheduledInterstitial? {
        guard configuration.playsInterstitials, to > from else { return nil }
        return scheduledInterstitials.values
            .filter {
                !$0.hasPlayed && $0.event.isJumpRestricted && $0.event.placement == .midRoll
                    && $0.event.start.seconds > from && $0.event.start.seconds <= to
            }
            .max { ($0.event.start, $0.event.id) < ($1.event.start, $1.event.id) }
    }

    /// The mid-roll under way at a position where playback starts: one that stands for a span of the primary (a
    /// resume offset other than 0, and a duration), begun before the position and not over at it. Playback joins it
    /// there, as players do on a live stream.
    func interstitialUnderWay(at position: Double) -> (ScheduledInterstitial, offset: Double)? {
        guard configuration.playsInterstitials else { return nil }
        for scheduled in scheduledInterstitials.values where !scheduled.hasPlayed && scheduled.event.placement == .midRoll {
            let span = scheduled.event.resumeOffset?.seconds ?? scheduled.event.duration?.seconds ?? 0
            let offset = position - scheduled.event.start.seconds
            if span > 0, offset > 0.001, offset < span - 0.001 { return (scheduled, offset) }
        }
        return nil
    }

    /// Plays an interstitial from `offset` into it: the primary waits where playback starts.
    func joinInterstitial(_ scheduled: ScheduledInterstitial, at offset: Double) {
        discardPreload()
        var active = ActiveInterstitial(scheduled: scheduled)
        active.joinOffset = offset
        let expected = generation
        active.task = Task { await self.loadAssets(of: scheduled, generation: expected) }
        activeInterstitial = active
        beginInterstitial(scheduled)
    }

    /// A seek to `target` makes the interstitials after it, played but without `CUE=ONCE`, playable again.
    func rearmInterstitials(after target: Double) {
        for (id, scheduled) in scheduledInterstitials
        where scheduled.hasPlayed && !scheduled.event.playsOnce && scheduled.event.placement == .midRoll
            && scheduled.event.start.seconds > target {
            scheduledInterstitials[id]?.hasPlayed = false
        }
    }

    /// The primary reached an interstitial: it waits there while the interstitial plays (from what was preloaded,
    /// when it was).
    /// A pre-roll or post-roll begins where the primary is (where playback starts, or its end).
    func beginInterstitial(_ scheduled: ScheduledInterstitial) {
        var scheduled = scheduled
        if scheduled.event.placement != .midRoll {
            scheduled.event.start = MediaTime(seconds: playhead)
            scheduled.event.datePosition = scheduled.event.start
        }
        scheduled.hasPlayed = true
        scheduledInterstitials[scheduled.event.id] = scheduled
        if activeInterstitial?.scheduled.event.id != scheduled.event.id { discardPreload() }
        // An asset list refused for good while preloading is not asked for again: the interstitial is skipped.
        if activeInterstitial == nil, let failure = failedPreloads[scheduled.event.id], failure.isPermanent {
            var active = ActiveInterstitial(scheduled: scheduled)
            active.isStarted = true
            activeInterstitial = active
            emit(.interstitialBegan(scheduled.event))
            return endInterstitial(failure.outcome, resumeAtStart: true)
        }
        if activeInterstitial == nil { startLoading(scheduled) }
        activeInterstitial?.isStarted = true
        activeInterstitial?.scheduled.event.start = scheduled.event.start
        activeInterstitial?.scheduled.event.datePosition = scheduled.event.datePosition
        let event = activeInterstitial?.scheduled.event ?? scheduled.event
        emit(.interstitialBegan(event))
        if let active = activeInterstitial, let assets = active.assets {
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
        activeInterstitial = active
    }

    /// Starts downloading the next interstitial's asset list and first asset when the playhead is within
    /// ``Configuration/interstitialPreloadLead`` of it, as players do, so that it starts without waiting.
    func preloadInterstitial(near position: Double) {
        guard activeInterstitial == nil else { return }
        let lead = configuration.interstitialPreloadLead
        if let next = interstitial(from: position, to: position + lead) {
            // One that failed to preload is tried again when the playhead gets there, not at every tick before.
            guard failedPreloads[next.event.id] == nil else { return }
            startLoading(next)
        } else if allDownloaded, let end = buffer.last?.end, end - position <= lead,
                  let postRoll = pendingInterstitial(.postRoll) {
            startLoading(postRoll)
        }
    }

    /// Forgets an interstitial preloaded but not started (a seek went elsewhere, another one came first).
    func discardPreload() {
        guard let active = activeInterstitial, !active.isStarted else { return }
        active.cancelDownloads()
        activeInterstitial = nil
    }

    /// The interstitial that plays (not one only preloaded).
    var playingInterstitial: ActiveInterstitial? { activeInterstitial?.isStarted == true ? activeInterstitial : nil }

    /// The asset URLs: the asset list's, or the single asset URI.
    private func loadAssets(of scheduled: ScheduledInterstitial, generation expected: Int) async {
        if let uri = scheduled.attributes.assetURI {
            guard let url = URL(string: uri, relativeTo: scheduled.baseURL)?.absoluteURL else {
                return failLoading(.failed("X-ASSET-URI is not a URL: \(uri)"), of: scheduled)
            }
            return assetsKnown([InterstitialAsset(url: url.absoluteString, duration: nil)], generation: expected)
        }
        guard let list = scheduled.attributes.assetList,
              var components = URL(string: list, relativeTo: scheduled.baseURL).flatMap({
                  URLComponents(url: $0.absoluteURL, resolvingAgainstBaseURL: true)
              }) else {
            return failLoading(.failed("no usable X-ASSET-LIST or X-ASSET-URI"), of: scheduled)
        }
        components.queryItems = (components.queryItems ?? []) + [
            URLQueryItem(name: "_HLS_interstitial_id", value: scheduled.event.id),
            URLQueryItem(name: "_HLS_primary_id", value: primaryID),
        ]
        if let offset = activeInterstitial?.joinOffset, offset > 0, activeInterstitial?.scheduled.event.id == scheduled.event.id {
            components.queryItems?.append(URLQueryItem(name: "_HLS_start_offset", value: String(format: "%.3f", offset)))
        }
        guard let url = components.url else { return failLoading(.failed("the asset list URL"), of: scheduled) }
        do {
            let response = try await fetch(url, kind: .other, variant: nil)
            guard generation == expected, activeInterstitial?.scheduled.event.id == scheduled.event.id else { return }
            if let reader = configuration.assetListReader,
               let assets = try await reader.assets(for: scheduled.event, listURL: response.url, body: response.body) {
                guard generation == expected, activeInterstitial?.scheduled.event.id == scheduled.event.id else { return }
                return assetsKnown(assets, generation: expected)
            }
            let assetList = try InterstitialAssetList(json: Data(response.body))
            if let control = assetList.skipControl, control.offset.isFinite, control.offset >= 0 {
                // The asset list's SKIP-CONTROL overrides the date range's.
                activeInterstitial?.scheduled.event.skipControl = InterstitialEvent.SkipControl(
                    offset: MediaTime(seconds: control.offset),
                    duration: control.duration.flatMap { $0.isFinite && $0 >= 0 ? MediaTime(seconds: $0) : nil },
                    labelID: control.labelID)
            }
            let assets = assetList.assets.compactMap { asset -> InterstitialAsset? in
                guard let resolved = URL(string: asset.uri, relativeTo: response.url)?.absoluteURL else { return nil }
                return InterstitialAsset(url: resolved.absoluteString, duration: MediaTime(seconds: asset.duration))
            }
            assetsKnown(assets, generation: expected)
        } catch is CancellationError {
            return
        } catch {
            guard generation == expected, activeInterstitial?.scheduled.event.id == scheduled.event.id else { return }
            // An asset-list error cancels the interstitial: the primary resumes at its start.
            let status = (error as? EngineError)?.httpStatus
            let isPermanent = status.map { (400..<500).contains($0) && ![408, 429].contains($0) } ?? false
            failLoading(.failed("the asset list: \(error)"), of: scheduled, isPermanent: isPermanent)
        }
    }

    /// The asset list could not be had: a started interstitial is cancelled (the primary resumes at its start); a
    /// preloaded one is forgotten, and tried again when the playhead gets there.
    private func failLoading(_ outcome: InterstitialOutcome, of scheduled: ScheduledInterstitial, isPermanent: Bool = true) {
        guard activeInterstitial?.scheduled.event.id == scheduled.event.id else { return }
        if activeInterstitial?.isStarted == true {
            endInterstitial(outcome, resumeAtStart: true)
        } else {
            logger.warning("an interstitial could not be preloaded", metadata: ["id": "\(scheduled.event.id)", "reason": "\(outcome)"])
            failedPreloads[scheduled.event.id] = (outcome, isPermanent)
            discardPreload()
        }
    }

    private func assetsKnown(_ assets: [InterstitialAsset], generation expected: Int) {
        guard generation == expected, activeInterstitial != nil else { return }
        activeInterstitial?.assets = assets
        if assets.isEmpty {
            if activeInterstitial?.isStarted == true { endInterstitial(.played, resumeAtStart: false) }
            return
        }
        // Joined under way: the assets before the offset are passed over, and the one it falls in begins there.
        var first = 0
        var into = activeInterstitial?.joinOffset ?? 0
        while into > 0, first + 1 < assets.count, let duration = assets[first].duration?.seconds, into >= duration {
            into -= duration
            first += 1
        }
        beginAsset(first, from: into)
    }

    /// Begins an asset, from `offset` seconds into it (when playback joined the interstitial under way).
    private func beginAsset(_ index: Int, from offset: Double = 0) {
        guard var active = activeInterstitial, let assets = active.assets, assets.indices.contains(index) else { return }
        active.index = index
        active.assetOffset = assets[..<index].reduce(0) { $0 + ($1.duration?.seconds ?? 0) }
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
            active.buffered = 0
            active.assetLoaded = false
            let expected = generation
            active.task = Task { await self.downloadAsset(asset, index: index, generation: expected) }
        }
        active.prefetch = nil
        activeInterstitial = active
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
        activeInterstitial = active
    }

    /// Fetches an asset's playlist (its first variant's media playlist when it is a multivariant playlist) and its
    /// segments one after the other, counting what is buffered.
    private func downloadAsset(_ asset: InterstitialAsset, index: Int, generation expected: Int) async {
        // The asset is the current one, or the next one being prefetched (which may become current meanwhile).
        func isCurrent() -> Bool { generation == expected && activeInterstitial?.index == index }
        func current() -> Bool { isCurrent() || (generation == expected && activeInterstitial?.prefetch?.index == index) }
        do {
            guard let url = URL(string: asset.url) else { throw EngineError(kind: .playlist, message: "not a URL", isFatal: false) }
            var (playlist, playlistURL, _) = try await fetchPlaylist(url, kind: .mediaPlaylist, variant: nil)
            if case .multivariant(let multivariant) = playlist, let first = multivariant.variants.first,
               let variantURL = URL(string: first.uri, relativeTo: playlistURL)?.absoluteURL {
                (playlist, playlistURL, _) = try await fetchPlaylist(variantURL, kind: .mediaPlaylist, variant: nil)
            }
            guard case .media(let media) = playlist, current() else { return }
            let total = media.segments.reduce(0) { $0 + $1.duration }
            if asset.duration == nil { activeInterstitial?.assets?[index].duration = MediaTime(seconds: total) }
            // Segments wholly before where the asset begins (joined under way) are not needed.
            var skip = isCurrent() ? (activeInterstitial?.assetElapsed ?? 0) : 0
            for segment in media.segments {
                if skip >= segment.duration {
                    skip -= segment.duration
                    if isCurrent() { activeInterstitial?.buffered += segment.duration }
                    continue
                }
                skip = 0
                guard let segmentURL = URL(string: segment.uri, relativeTo: playlistURL)?.absoluteURL else { continue }
                _ = try await fetch(segmentURL, kind: .segment, variant: nil)
                guard current() else { return }
                if isCurrent() {
                    activeInterstitial?.buffered += segment.duration
                } else {
                    activeInterstitial?.prefetch?.buffered += segment.duration
                }
            }
            if isCurrent() {
                activeInterstitial?.assetLoaded = true
                prefetchNextAsset()
            } else {
                activeInterstitial?.prefetch?.loaded = true
            }
        } catch is CancellationError {
            return
        } catch {
            guard current() else { return }
            // A prefetched asset's error is said when it begins.
            guard isCurrent() else {
                activeInterstitial?.prefetch?.failure = "\(error)"
                return
            }
            // One asset's error skips that asset (when it plays: a preloaded one says it when it starts).
            if activeInterstitial?.isStarted == true {
                finishAsset(.failed("\(error)"))
            } else {
                activeInterstitial?.preloadFailure = "\(error)"
            }
        }
    }

    /// A tick while an interstitial plays: its playhead moves with the clock as far as its asset is downloaded.
    func advanceInterstitial(elapsed: Double) {
        guard var active = playingInterstitial, let assets = active.assets, assets.indices.contains(active.index) else { return }
        let duration = assets[active.index].duration?.seconds ?? (active.assetLoaded ? active.buffered : .infinity)
        var limit = min(duration, active.assetLoaded ? duration : active.buffered)
        if let playout = active.scheduled.event.playoutLimit?.seconds {
            limit = min(limit, active.assetElapsed + max(0, playout - active.elapsed))
        }
        var move = max(0, min(elapsed, limit - active.assetElapsed))
        // A tick timed to reach a boundary reaches it, whatever the rounding of the clock's durations.
        if let aimed = aimedBoundary, active.position + move < aimed, aimed - (active.position + move) < Self.boundaryOvershoot {
            move = min(aimed - active.position, limit - active.assetElapsed)
        }
        aimedBoundary = nil
        // An asset that has not downloaded far enough keeps the viewer waiting: a stall, as in the primary.
        if move == 0, !active.assetLoaded, active.assetElapsed < duration {
            activeInterstitial?.isRunning = false
            if stallStartedAt == nil {
                beginStall()
            }
            return
        }
        if stallStartedAt != nil {
            endStall()
            updateStatus()
        }
        // The data is there: playback starts now, and moves from the next tick (the time before was spent waiting).
        if !active.isRunning, move > 0 {
            activeInterstitial?.isRunning = true
            return
        }
        if move > 0 {
            let from = active.position
            // An asset played to its limit ends exactly there, whatever the rounding of the ticks.
            active.assetElapsed = active.assetElapsed + move >= limit - 1e-9 ? limit : active.assetElapsed + move
            active.elapsed += move
            activeInterstitial = active
            interstitialPlayedRanges[active.scheduled.event.id, default: MediaTimeRangeSet()]
                .insert(MediaTimeRange(start: MediaTime(seconds: from), end: MediaTime(seconds: active.position)))
            if reportsProgress {
                let at = MediaTime(seconds: playhead)
                emit(.progressed(PlaybackProgress(
                    from: at, to: at, fromDate: timeline.date(at: playhead), toDate: timeline.date(at: playhead), rate: 1,
                    interstitial: InterstitialProgress(event: active.scheduled.event, from: MediaTime(seconds: from),
                                                       to: MediaTime(seconds: active.position)))))
            }
        }
        if let playout = active.scheduled.event.playoutLimit?.seconds, active.elapsed >= playout - 1e-9 {
            emit(.interstitialAssetEnded(active.scheduled.event, index: active.index, outcome: .played))
            return endInterstitial(.played, resumeAtStart: false)
        }
        if active.assetElapsed >= duration - 1e-9 { finishAsset(.played) }
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
        if let target = seekAfterInterstitial {
            seekAfterInterstitial = nil
            seek(to: MediaTime(seconds: target))
            return
        }
        if active.scheduled.event.placement == .postRoll { return reachedEnd() }
        // After a pre-roll, playback may start inside an interstitial under way: it is joined.
        if active.scheduled.event.placement == .preRoll, let (underWay, offset) = interstitialUnderWay(at: playhead) {
            return joinInterstitial(underWay, at: offset)
        }
        // A pre-roll leaves the primary where it starts unless its resume offset is written; one joined under way
        // counts from its start.
        let played = active.scheduled.event.placement == .preRoll ? 0 : active.joinOffset + active.elapsed
        let offset = resumeAtStart ? 0 : (active.scheduled.event.resumeOffset?.seconds ?? played)
        var target = active.scheduled.event.start.seconds + offset
        if active.scheduled.attributes.snap.contains(.in) { target = nearestSegmentBoundary(to: target) }
        if abs(target - playhead) > 1e-9 { resumePrimary(at: target) }
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
    func seekLeavesInterstitial(to target: Double) -> Bool {
        guard let active = playingInterstitial else { return true }
        guard interstitialStatus?.canSkip == true else {
            seekAfterInterstitial = target
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
        activeInterstitial = nil
        if stallStartedAt != nil { endStall() }
        emit(.interstitialEnded(active.scheduled.event, outcome: outcome))
    }

    /// What plays of the interstitial now, for the snapshot.
    var interstitialStatus: InterstitialStatus? {
        playingInterstitial.map {
            InterstitialStatus(event: $0.scheduled.event, assets: $0.assets ?? [], assetIndex: $0.assets == nil ? nil : $0.index,
                               elapsed: MediaTime(seconds: $0.elapsed), time: MediaTime(seconds: $0.position))
        }
    }
}
