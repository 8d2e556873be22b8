import PlaytraceCore
public import PlaytracePlayer

/// Breaks that no metadata provider lists — VAST ads played as interstitials, in-manifest signalling — and VAST's
/// error reporting.
extension AdBeaconingSession {
    /// `[REASON]` of `verificationNotExecuted`: 2, the verification is not supported (Playtrace runs no scripts).
    static let verificationNotSupported = 2

    /// Adds breaks that no metadata provider lists: merged by ID with those added before (fired states kept), kept
    /// until the session ends or retires them (``retireBreaks(endingBefore:)``), and never dropped by a metadata
    /// response.
    public func addPods(_ pods: [AdPod]) {
        // A retired break stays out (its events would fire twice).
        let pods = pods.filter { retiredPodEnds[$0.id] == nil }
        var merger = AdPodMerger()
        let previous = adPods.filter { pod in pods.contains { $0.id == pod.id } }
        let merged = merger.merge(pods, into: previous, playhead: nil)
        addedPodIDs.formUnion(pods.map(\.id))
        let ids = Set(merged.map(\.id))
        adPods = (adPods.filter { !ids.contains($0.id) } + merged).sorted { $0.startTime < $1.startTime }
        classifyPods()
        markRestored()
        boundariesChanged?()
    }

    /// Tracks VAST ads (``VASTAdBreak``): their break is added, and their macro values and error URLs kept.
    public func track(_ adBreak: VASTAdBreak) {
        vast.track(adBreak)
        addPods([adBreak.pod])
        log("VAST break \(adBreak.pod.id): \(adBreak.pod.ads.count) ad(s)", isError: false)
    }

    /// Keeps what resolving a VAST response took (``vastChains``): a break's latest resolution replaces its earlier
    /// one; past ``vastChainLimit`` the oldest is dropped.
    public func record(_ chain: VASTChainRecord) {
        vast.record(chain)
    }

    /// The interstitial each break belongs to, by break ID (breaks that begin where an interstitial does).
    public var interstitialOfPod: [String: String] { scheduler.podScopes }

    /// Where an interstitial begins on this session's ad timeline, when it can be placed there.
    public func adTimelinePosition(of interstitial: InterstitialEvent) -> AdTime? {
        PlaybackObservation.position(of: interstitial, on: timeline)
    }

    /// Sends VAST errors: each report's URLs with its `[ERRORCODE]`, once (a report made again, or by a restarted
    /// run of the session, is not sent twice). `podID` and `adID` name what the error is about, for the record.
    public func report(_ errors: [VASTErrorReport], podID: String, adID: String? = nil) {
        var firings: [BeaconFiring] = []
        for error in errors {
            log("VAST error \(error.code.rawValue): \(error.message)", isError: true)
            guard !error.urls.isEmpty else { continue }
            let digest = StableDigest.hex("\(error.code.rawValue) \(error.urls.joined(separator: " "))")
            let key = TrackingEventKey(podID: podID, adID: adID, event: .error,
                                       time: Int64(bitPattern: UInt64(digest, radix: 16) ?? 0) & Int64.max)
            guard vast.firesFirst(key) else { continue }
            firings.append(BeaconFiring(key: key, occurrence: 0, event: .error, mediaTime: lastPosition ?? .zero,
                                        crossing: stopwatch.elapsed, cause: .error, urls: error.urls, adPlayhead: nil,
                                        adStart: nil, podStart: 0, errorCode: error.code.rawValue))
        }
        dispatch(firings)
    }

    /// An asset of an interstitial could not be played (from ``AdTracker``, which reads it in the Player's metric
    /// events): the ad it was is ``AdFate/mediaFailed(_:)``, and when a VAST ad was that asset, error 405 goes to its
    /// chain.
    public func interstitialAssetFailed(_ interstitial: InterstitialEvent, index: Int, reason: String) {
        guard let podIndex = podIndices(of: interstitial).first(where: { adPods[$0].ads.indices.contains(index) }) else {
            return
        }
        let pod = adPods[podIndex]
        fates.ads[pod.id, default: [:]][pod.ads[index].id] = .mediaFailed(reason)
        guard let context = vast.context(pod: pod.id, ad: pod.ads[index].id) else { return }
        report([VASTErrorReport(code: .mediaFileDisplay, urls: context.errorURLs,
                                message: "the media file of ad \(pod.ads[index].id) could not be played: \(reason)")],
               podID: pod.id, adID: pod.ads[index].id)
    }

    /// An interstitial ended (from ``AdTracker``): what did not play out of its breaks gets its fate. Skipped by the
    /// viewer, the ad that played reports `skip`, and it and the ads after it are ``AdFate/skipped``; played with no
    /// ad (its VAST answered none), its break is ``AdFate/noAd(code:)``; failed, a break none of whose events fired is
    /// ``AdFate/failed(_:)``.
    public func interstitialEnded(_ interstitial: InterstitialEvent, outcome: InterstitialOutcome) {
        let pods = podIndices(of: interstitial)
        switch outcome {
        case .skipped:
            let position = lastInterstitialPositions[interstitial.id]
            if let position { report(.skip, at: position, scope: interstitial.id) }
            for podIndex in pods {
                let pod = adPods[podIndex]
                fates.pods[pod.id] = .skipped
                for ad in pod.ads where (position.map { ad.endTime > $0 } ?? true) && fates.ad(ad.id, in: pod.id) == nil {
                    fates.ads[pod.id, default: [:]][ad.id] = .skipped
                }
            }
        case .played:
            for podIndex in pods where adPods[podIndex].ads.isEmpty {
                let codes = vast.errorCodes(ofPod: adPods[podIndex].id)
                guard let code = codes.contains(.noAd) ? .noAd : codes.first else { continue }
                fates.pods[adPods[podIndex].id] = .noAd(code: code.rawValue)
            }
        case .failed(let reason):
            for podIndex in pods where !adPods[podIndex].allTrackingEvents.contains(where: { $0.reportingState.hasFired }) {
                fates.pods[adPods[podIndex].id] = .failed(reason)
            }
        }
    }

    /// The breaks an interstitial holds: its VAST break, and those that begin where it does.
    private func podIndices(of interstitial: InterstitialEvent) -> [Int] {
        let named = VASTAssetListReader.podID(of: interstitial)
        return adPods.indices.filter { adPods[$0].id == named || scheduler.podScopes[adPods[$0].id] == interstitial.id }
    }
}
