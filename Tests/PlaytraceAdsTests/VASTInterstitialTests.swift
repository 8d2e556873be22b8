import Foundation
import PlaytraceAds
import PlaytraceCore
import PlaytraceHeadless
import PlaytraceLab
import PlaytraceNetwork
import PlaytracePlayer
import PlaytraceTestSupport
import Testing

/// Interstitials whose asset lists are the lab's VAST ad server (``LabVAST``): the VAST flavour of the stream with
/// interstitials, a Harmonic session tracking its stitched break, the VAST tracker its interstitials.
@Suite("VAST: interstitials from an ad server, wrapper chains, errors", .serialized)
@MainActor
struct VASTInterstitialTests {
    /// The beacon paths (and queries) the sink accepted under `/beacons/vast/`.
    private func vastHits(_ h: AdSessionHarness) -> [String] {
        h.lab.beacons.accepted(under: "/beacons/vast/").map { hit in
            let path = String(hit.path.dropFirst("/beacons/vast/".count))
            guard let query = hit.query, !query.hasPrefix("cb=") else { return path }
            return "\(path)?\(query)"
        }
    }

    private static let adEvents = ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile",
                                   "complete", "progress-2.5s", "progress-10pc", "verificationNotExecuted?reason=2"]

    /// An ad's beacons; its creativeView carries its macros: [PODSEQUENCE], [ADCOUNT], [UNIVERSALADID], [BREAKPOSITION].
    private func ad(_ pod: String, _ ad: String, position: Int = 2) -> [String] {
        let number = ad.dropFirst(3)
        return Self.adEvents.map { "\(pod)/\(ad)/\($0)" }
            + ["\(pod)/\(ad)/creativeView?seq=\(number)&n=\(number)&id=lab.playtrace%20\(pod)-\(ad)&pos=\(position)"]
    }

    private func wrappers(_ pod: String, levels: Int, ads: Int) -> [String] {
        (1...levels).flatMap { level in
            (1...ads).flatMap { count in ["impression", "start", "complete"].map { "\(pod)/wrapper-\(level)/\($0)?ad=\(count)" } }
        }
    }

    @Test("Played through: every ad of every interstitial beaconed once, wrapper URLs for each ad; no ad → 303, a broken media file → 405")
    func playedThrough() async throws {
        let h = try await AdSessionHarness(playing: nil)
        h.engineConfiguration.assetListReader = VASTAssetListReader(session: h.session, transport: h.transport)
        let provider = HarmonicAdProvider(transport: h.transport, clock: h.clock)
        let info = try #require(await h.session.start(
            mediaUrl: URL(string: "\(h.base)/ssai/harmonic/vast-interstitials/master.m3u8")!, provider: provider))
        await h.makePlayer(url: info.manifestUrl)
        h.player.play()
        let player = h.player!
        let ended = await ClockStepper(clock: h.clock).advance(until: { player.playbackState == .ended }, limit: .seconds(150),
                                                               step: .milliseconds(100)) { await h.settle() }
        #expect(ended)
        try await h.shutdown()

        let expected = ad("pre", "ad-1", position: 1) + ad("mid-1", "ad-1") + ad("mid-1", "ad-2") + wrappers("mid-1", levels: 2, ads: 2)
            + ad("mid-2", "ad-1") + ad("mid-2", "ad-2") + ["mid-3/-/error?code=303", "mid-4/ad-1/error?code=405"]
            + ad("mid-4", "ad-2") + ad("post", "ad-1", position: 3)
        let hits = vastHits(h)
        #expect(hits.sorted() == expected.sorted(), "difference: \(Set(hits).symmetricDifference(expected).sorted())")
        // The stitched break, from the Harmonic metadata, beaconed as well; `about:blank` never requested.
        #expect(h.lab.beacons.accepted(under: "/beacons/harmonic/break-1/").count == 12)
        #expect(!h.lab.requests.all.contains { $0.path.contains("blank") })
        let late = h.session.beacons.filter { $0.firing.cause != .error && $0.lateness > .milliseconds(1) }
        #expect(late.isEmpty, "\(late.map { "\($0.firing.key) \($0.lateness)" })")
        // Each wrapper's tracking is part of each ad's events.
        let start = try #require(h.session.beacons.first { $0.firing.key.podID == "vast:mid-1" && $0.firing.event == .start
            && $0.firing.key.adID == "ad-2" })
        #expect(start.urls.count == 3, "the inline ad's start and both wrappers'")
        // mid-3 was reached and had no ad; the first ad of mid-4 never played, its media missing: each says so.
        #expect(h.session.fates.pods == ["vast:mid-3": .noAd(code: 303)])
        let failed = try #require(h.session.fates.ad("ad-1", in: "vast:mid-4"))
        guard case .mediaFailed(let reason) = failed else { Issue.record("\(failed)"); return }
        #expect(reason.contains("404"))
        #expect(h.session.fates.ads.count == 1)
        let list = AdPodList(pods: h.session.adPods, fates: h.session.fates) { String(Int($0.milliseconds)) }
        #expect(list.rows.filter { $0.kind == .unreachedPods }.map(\.sentence)
                    == ["1 break(s) reached: no ad (VAST 303): vast:mid-3 at \(Int(try #require(h.session.adPods.first { $0.id == "vast:mid-3" }?.startTime.milliseconds)))"])
        let adRow = try #require(list.rows.first { $0.id == "vast:mid-4/ad-1" })
        #expect(adRow.detail?.hasPrefix("Lab ad mid-4 ad-1 — ad media failed: ") == true, "\(adRow.detail ?? "")")
        #expect(list.rows.first { $0.kind == .unfiredEvents && $0.adID == "ad-1" && $0.podID == "vast:mid-4" }?.title
                    == "impression, verificationNotExecuted, creativeView, start, firstQuartile, midpoint, thirdQuartile, complete, progress")
    }

    @Test("A chain too deep: error 302 to every wrapper of it and no ad; five levels are accepted")
    func tooDeep() async throws {
        let h = try await AdSessionHarness(playing: nil)
        let resolver = VASTResolver(transport: h.transport)
        let resolution = await resolver.resolve(URL(string: "\(h.base)/vast/chain/6/mid-2.xml")!)
        #expect(resolution.ads.isEmpty)
        #expect(resolution.errors.map(\.code) == [.wrapperLimit])
        #expect(resolution.errors.first?.urls.count == 6, "the five wrappers followed, and the sixth, refused")
        #expect(resolution.fetches.count == 6)
        let five = await resolver.resolve(URL(string: "\(h.base)/vast/chain/5/mid-2.xml")!)
        #expect(five.ads.count == 2 && five.errors.isEmpty && five.ads[0].wrappers.count == 5, "five levels are accepted")
        #expect(five.ads[0].impressionURLs.count == 7, "two of the inline ad (one about:blank) and one per wrapper")
        try await h.shutdown()
    }

    @Test("A wrapper loop (a → b → a) ends at once: error 302, each wrapper's error URL once, nothing fetched twice")
    func wrapperLoop() async throws {
        let h = try await AdSessionHarness(playing: nil)
        let resolution = await VASTResolver(transport: h.transport).resolve(URL(string: "\(h.base)/vast/loop/a/mid-2.xml")!)
        try await h.shutdown()
        #expect(resolution.ads.isEmpty)
        #expect(resolution.errors.map(\.code) == [.wrapperLimit])
        let urls = resolution.errors.first?.urls.compactMap { URL(string: $0)?.path } ?? []
        #expect(urls == ["/beacons/vast/mid-2/loop-b/error", "/beacons/vast/mid-2/loop-a/error"], "\(urls)")
        #expect(resolution.fetches.map { URL(string: $0.url)?.path } == ["/vast/loop/a/mid-2.xml", "/vast/loop/b/mid-2.xml"])
        #expect(h.lab.requests.all.filter { $0.path.hasPrefix("/vast/loop/") }.count == 2)
    }

    @Test("Errors reach every level of the chain: 405 for a broken media file behind two wrappers, 302 to six wrappers")
    func errorsReachEveryLevel() async throws {
        let h = try await AdSessionHarness(playing: nil)
        let reader = VASTAssetListReader(session: h.session, transport: h.transport)
        let event = InterstitialEvent(id: "mid-4", start: MediaTime(seconds: 60), startDate: LabConfiguration().startDate + MediaTime(seconds: 60))
        func body(_ path: String) async throws -> (URL, [UInt8]) {
            let url = URL(string: "\(h.base)\(path)")!
            return (url, try await h.transport.send(HTTPRequest(url: url)).body)
        }
        // mid-4's pod behind two wrappers: its first ad's media file does not exist.
        let (chainURL, chainBody) = try await body("/vast/chain/2/mid-4.xml")
        let assets = try #require(try await reader.assets(for: event, listURL: chainURL, body: chainBody))
        #expect(assets.map { URL(string: $0.url)?.path } == ["/ads/9/index.m3u8", "/ads/1/index.m3u8"])
        h.session.interstitialAssetFailed(event, index: 0, reason: "HTTP 404")
        // The chain as the session keeps it for its report.
        let chain = try #require(h.session.vastChains.last)
        #expect(chain.podID == "vast:mid-4" && chain.interstitialID == "mid-4" && chain.errors.isEmpty)
        #expect(chain.requests.map(\.depth) == [0, 1, 2] && chain.requests.allSatisfy { $0.failure == nil })
        #expect(chain.ads.map(\.id) == ["ad-1", "ad-2"] && chain.ads.allSatisfy { !$0.leftOut && $0.chainURLs.count == 3 })
        // A chain too deep: 302 to each of its six wrappers.
        let (deepURL, deepBody) = try await body("/vast/chain/6/mid-2.xml")
        #expect(try await reader.assets(for: event, listURL: deepURL, body: deepBody)?.isEmpty == true)
        #expect(h.session.vastChains.count == 1, "a break's latest resolution replaces its earlier one")
        #expect(h.session.vastChains.first?.ads.isEmpty == true && h.session.vastChains.first?.errors.map(\.code) == [.wrapperLimit])
        #expect(h.session.vastChains.first?.requests.map(\.depth) == Array(0...5), "the response, then the five wrappers followed")
        // An ad without an HLS media file: left out, listed as such.
        h.lab.faults.add(LabFault(pathContains: "/vast/mp4-only.xml", kind: .body(
            #"<VAST version="4.2"><Ad id="mp4"><InLine><AdTitle>mp4</AdTitle><Creatives><Creative><Linear><Duration>00:00:04</Duration>"#
                + #"<MediaFiles><MediaFile type="video/mp4" delivery="progressive"><![CDATA[/ads/a.mp4]]></MediaFile></MediaFiles>"#
                + #"</Linear></Creative></Creatives></InLine></Ad></VAST>"#)))
        let mp4Event = InterstitialEvent(id: "mid-3", start: MediaTime(seconds: 52), startDate: LabConfiguration().startDate + MediaTime(seconds: 52))
        let (mp4URL, mp4Body) = try await body("/vast/mp4-only.xml")
        #expect(try await reader.assets(for: mp4Event, listURL: mp4URL, body: mp4Body)?.isEmpty == true)
        let leftOut = try #require(h.session.vastChains.first { $0.interstitialID == "mid-3" })
        #expect(leftOut.ads.map(\.leftOut) == [true] && leftOut.errors.map(\.code) == [.noSupportedMediaFile])
        // Reported again (the asset list fetched twice): not sent twice.
        _ = try await reader.assets(for: event, listURL: deepURL, body: deepBody)
        try await h.shutdown()
        let errors = h.lab.beacons.accepted(under: "/beacons/vast/").filter { $0.path.hasSuffix("/error") }
            .map { "\(String($0.path.dropFirst("/beacons/vast/".count)))?\($0.query ?? "")" }
        #expect(errors.sorted() == (["mid-4/ad-1", "mid-4/wrapper-1", "mid-4/wrapper-2"].map { "\($0)/error?code=405" }
            + (1...6).map { "mid-2/wrapper-\($0)/error?code=302" }).sorted(), "\(errors)")
        #expect(h.session.beacons.filter { $0.firing.cause == .error }.count == 2, "one report each, to all its URLs")
        #expect(h.session.beacons.first { $0.firing.cause == .error }?.urls.allSatisfy { !$0.url.contains("[") } == true)
    }

    @Test("Wrapper rules: allowMultipleAds false takes one ad of a pod; followAdditionalWrappers false ignores wrappers; fallbackOnNoAd")
    func wrapperRules() async throws {
        let h = try await AdSessionHarness(playing: nil)
        func wrapper(to next: String, _ attributes: String) -> String {
            #"<VAST version="4.2"><Ad id="w"><Wrapper \#(attributes)><VASTAdTagURI><![CDATA[\#(h.base)\#(next)]]></VASTAdTagURI>"#
                + #"<Error><![CDATA[\#(h.base)/beacons/w/error?c=[ERRORCODE]]]></Error></Wrapper></Ad></VAST>"#
        }
        h.lab.faults.add(LabFault(pathContains: "/rules/single.xml", kind: .body(wrapper(to: "/vast/pods/mid-1.xml", ""))))
        h.lab.faults.add(LabFault(pathContains: "/rules/nofollow.xml",
                                  kind: .body(wrapper(to: "/vast/chain/1/mid-1.xml", #"followAdditionalWrappers="false" allowMultipleAds="true""#))))
        h.lab.faults.add(LabFault(pathContains: "/rules/fallback.xml", kind: .body(
            #"<VAST version="4.2"><Ad id="p1" sequence="1"><Wrapper fallbackOnNoAd="true"><VASTAdTagURI><![CDATA[\#(h.base)/vast/pods/mid-3.xml]]></VASTAdTagURI></Wrapper></Ad>"#
                + #"<Ad id="spare"><InLine><AdTitle>spare</AdTitle><Creatives><Creative><Linear><Duration>00:00:04</Duration><MediaFiles><MediaFile type="application/x-mpegURL"><![CDATA[/ads/1/index.m3u8]]></MediaFile></MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>"#)))
        let resolver = VASTResolver(transport: h.transport)
        let single = await resolver.resolve(URL(string: "\(h.base)/rules/single.xml")!)
        #expect(single.ads.map(\.ad.id) == ["ad-1"], "allowMultipleAds is false by default: one ad of the pod")
        let nofollow = await resolver.resolve(URL(string: "\(h.base)/rules/nofollow.xml")!)
        #expect(nofollow.ads.isEmpty && nofollow.errors.map(\.code) == [.wrapper])
        let fallback = await resolver.resolve(URL(string: "\(h.base)/rules/fallback.xml")!)
        #expect(fallback.ads.map(\.ad.id) == ["spare"], "the wrapper led to no ad: the stand-alone ad replaces it")
        #expect(fallback.errors.map(\.code) == [.noAd])
        try await h.shutdown()
    }
}
