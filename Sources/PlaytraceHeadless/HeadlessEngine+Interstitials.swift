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
    /// The current asset's failure met while it was preloaded, said when the interstitial starts.
    var preloadFailure: String?
    /// Seconds played in the whole interstitial.
    var elapsed = 0.0
    var task: Task<Void, Never>?
}

/// HLS interstitials (rfc8216bis appendix D): when the playhead reaches one, the primary waits; the asset list is
/// fetched (with `_HLS_interstitial_id` and `_HLS_primary_id`) or the asset URI taken; each asset — an HLS stream
/// — is downloaded segment by segment and played for its duration; then the primary resumes at the interstitial's
/// start plus `X-RESUME-OFFSET` (by default, what the interstitial played). An asset-list error cancels the
/// interstitial and resumes at its start; an asset's error skips that asset. `X-PLAYOUT-LIMIT` ends it early; the
/// viewer may skip it unless `X-RESTRICT` has `SKIP`.
extension HeadlessEngine {
    /// Notes the interstitials of a media playlist just merged (by their date, placed on the engine's timeline).
    func noteInterstitials(of playlist: MediaPlaylist, baseURL: URL) {
        for segment in playlist.segments {
            for range in segment.tags.dateRanges {
                guard let attributes = range.interstitial, scheduledInterstitials[range.id] == nil,
                      let placed = timeline.segment(sequence: segment.mediaSequence), let date = placed.date else { continue }
                let start = max(0, placed.start + (range.startDate.secondsSince1970 - date.secondsSince1970))
                let event = InterstitialEvent(
                    id: range.id, start: MediaTime(seconds: start), startDate: range.startDate,
                    resumeOffset: attributes.resumeOffset, playoutLimit: attributes.playoutLimit,
                    isSkipRestricted: attributes.restrictions.contains(.skip),
                    isJumpRestricted: attributes.restrictions.contains(.jump))
                scheduledInterstitials[range.id] = ScheduledInterstitial(event: event, attributes: attributes, baseURL: baseURL)
            }
        }
        // Those played that a live window left behind are forgotten: a long session holds only what it can reach.
        let windowStart = timeline.range.start
        scheduledInterstitials = scheduledInterstitials.filter { !$0.value.hasPlayed || $0.value.event.start >= windowStart }
    }

    /// The first interstitial not played yet whose start lies in `from...to`.
    func interstitial(from: Double, to: Double) -> ScheduledInterstitial? {
        guard configuration.playsInterstitials else { return nil }
        return scheduledInterstitials.values
            .filter { !$0.hasPlayed && $0.event.start.seconds >= from && $0.event.start.seconds <= to }
            .min { $0.event.start < $1.event.start }
    }

    /// The primary reached an interstitial: it waits there while the interstitial plays (from what was preloaded,
    /// when it was).
    func beginInterstitial(_ scheduled: ScheduledInterstitial) {
        scheduledInterstitials[scheduled.event.id]?.hasPlayed = true
        if activeInterstitial?.scheduled.event.id != scheduled.event.id { discardPreload() }
        if activeInterstitial == nil { startLoading(scheduled) }
        activeInterstitial?.isStarted = true
        emit(.interstitialBegan(scheduled.event))
        if let active = activeInterstitial, let assets = active.assets, assets.indices.contains(active.index) {
            emit(.interstitialAssetBegan(scheduled.event, index: active.index, asset: assets[active.index]))
            if let failure = active.preloadFailure { finishAsset(.failed(failure)) }
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
        guard activeInterstitial == nil,
              let next = interstitial(from: position, to: position + configuration.interstitialPreloadLead) else { return }
        startLoading(next)
    }

    /// Forgets an interstitial preloaded but not started (a seek went elsewhere, another one came first).
    func discardPreload() {
        guard let active = activeInterstitial, !active.isStarted else { return }
        active.task?.cancel()
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
        guard let url = components.url else { return failLoading(.failed("the asset list URL"), of: scheduled) }
        do {
            let response = try await fetch(url, kind: .other, variant: nil)
            guard generation == expected, activeInterstitial?.scheduled.event.id == scheduled.event.id else { return }
            let assetList = try InterstitialAssetList(json: Data(response.body))
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
            failLoading(.failed("the asset list: \(error)"), of: scheduled)
        }
    }

    /// The asset list could not be had: a started interstitial is cancelled (the primary resumes at its start); a
    /// preloaded one is forgotten, and tried again when the playhead gets there.
    private func failLoading(_ outcome: InterstitialOutcome, of scheduled: ScheduledInterstitial) {
        guard activeInterstitial?.scheduled.event.id == scheduled.event.id else { return }
        if activeInterstitial?.isStarted == true {
            endInterstitial(outcome, resumeAtStart: true)
        } else {
            logger.warning("an interstitial could not be preloaded", metadata: ["id": "\(scheduled.event.id)", "reason": "\(outcome)"])
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
        beginAsset(0)
    }

    private func beginAsset(_ index: Int) {
        guard var active = activeInterstitial, let assets = active.assets, assets.indices.contains(index) else { return }
        active.index = index
        active.buffered = 0
        active.assetElapsed = 0
        active.assetLoaded = false
        let asset = assets[index]
        let expected = generation
        active.task = Task { await self.downloadAsset(asset, index: index, generation: expected) }
        activeInterstitial = active
        if active.isStarted { emit(.interstitialAssetBegan(active.scheduled.event, index: index, asset: asset)) }
    }

    /// Fetches an asset's playlist (its first variant's media playlist when it is a multivariant playlist) and its
    /// segments one after the other, counting what is buffered.
    private func downloadAsset(_ asset: InterstitialAsset, index: Int, generation expected: Int) async {
        func current() -> Bool { generation == expected && activeInterstitial?.index == index && activeInterstitial != nil }
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
            for segment in media.segments {
                guard let segmentURL = URL(string: segment.uri, relativeTo: playlistURL)?.absoluteURL else { continue }
                _ = try await fetch(segmentURL, kind: .segment, variant: nil)
                guard current() else { return }
                activeInterstitial?.buffered += segment.duration
            }
            activeInterstitial?.assetLoaded = true
        } catch is CancellationError {
            return
        } catch {
            guard current() else { return }
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
        let move = max(0, min(elapsed, limit - active.assetElapsed))
        // An asset that has not downloaded far enough keeps the viewer waiting: a stall, as in the primary.
        if move == 0, !active.assetLoaded, active.assetElapsed < duration {
            if stallStartedAt == nil {
                beginStall()
            }
            return
        }
        if stallStartedAt != nil {
            endStall()
            updateStatus()
        }
        if move > 0 {
            let from = active.elapsed
            active.assetElapsed += move
            active.elapsed += move
            activeInterstitial = active
            if reportsProgress {
                let at = MediaTime(seconds: playhead)
                emit(.progressed(PlaybackProgress(
                    from: at, to: at, fromDate: timeline.date(at: playhead), toDate: timeline.date(at: playhead), rate: 1,
                    interstitial: InterstitialProgress(event: active.scheduled.event, from: MediaTime(seconds: from),
                                                       to: MediaTime(seconds: active.elapsed)))))
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
    /// its resume offset (by default, what it played).
    func endInterstitial(_ outcome: InterstitialOutcome, resumeAtStart: Bool) {
        guard let active = playingInterstitial else { return }
        active.task?.cancel()
        activeInterstitial = nil
        if stallStartedAt != nil { endStall() }
        emit(.interstitialEnded(active.scheduled.event, outcome: outcome))
        let offset = resumeAtStart ? 0 : (active.scheduled.event.resumeOffset?.seconds ?? active.elapsed)
        let target = active.scheduled.event.start.seconds + offset
        if offset > 0 { resumePrimary(at: target) }
        updateStatus()
    }

    /// Skips the interstitial that plays, unless it is `X-RESTRICT=SKIP`.
    public func skipInterstitial() {
        guard let active = playingInterstitial, !active.scheduled.event.isSkipRestricted else { return }
        emit(.interstitialAssetEnded(active.scheduled.event, index: active.index, outcome: .skipped))
        endInterstitial(.skipped, resumeAtStart: false)
    }

    /// What plays of the interstitial now, for the snapshot.
    var interstitialStatus: InterstitialStatus? {
        playingInterstitial.map {
            InterstitialStatus(event: $0.scheduled.event, assets: $0.assets ?? [], assetIndex: $0.assets == nil ? nil : $0.index,
                               elapsed: MediaTime(seconds: $0.elapsed))
        }
    }
}
