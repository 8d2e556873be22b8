import Foundation
import PlaytraceCore
import PlaytracePlayer
import PlaytraceTelemetry
import PlaytraceTestSupport
import Testing

@Suite("Player telemetry tracker")
@MainActor
struct PlayerTelemetryTests {
    @Test("A Player session drives the instrument: actions, attributes and metrics")
    func session() async throws {
        let backend = RecordingBackend()
        var instrument: Instrument?
        let harness = try await PlayerHarness { h in
            let created = Instrument(hub: HubCore(), metricalc: MetricalcCore(), backends: [backend], clock: h.clock)
            instrument = created
            let url = h.url("vod/master.m3u8")
            return [PlayerItem.simple(url: url, metadata: TestMetadata(title: "A"), trackerAdapters: [
                PlayerTelemetryTracker.adapter(configuration: .init(instrument: created, sessionID: "viewer-1"),
                                               behavior: .mandatory) { metadata in
                    TelemetryMetadata(contentID: "urn:lab:\(metadata.title)", title: metadata.title, source: url.absoluteString)
                },
            ])]
        }
        let player = harness.player!
        player.play()
        await harness.advance(by: .seconds(5))
        #expect(player.currentSessionIdentifiers(trackedBy: PlayerTelemetryTracker.self) == ["viewer-1"])
        player.seek(.at(MediaTime(seconds: 20)))
        await harness.advance(by: .seconds(2))
        player.pause()
        await harness.advance(by: .seconds(5))
        player.play()
        await harness.advance(until: { player.playbackState == .ended }, limit: .seconds(60))
        let actions = backend.events.map(\.action.name)
        for expected in ["PlayerSet", "MediaRequest", "StreamLoad", "Start", "SeekBegin", "SeekFinish", "PauseBegin",
                         "PauseFinish", "End"] {
            #expect(actions.contains(expected), "missing \(expected) in \(actions)")
        }
        #expect(actions.firstIndex(of: "Start")! < actions.firstIndex(of: "SeekBegin")!)
        #expect(!actions.contains("Stop"), "the item ended: no Stop")
        let end = try #require(backend.events.last { $0.action == .end })
        #expect(end[.position] == .int(40_000))
        #expect(end[.duration] == .int(40_000))
        #expect(end[.title] == "A" && end[.contentId] == "urn:lab:A" && end[.sessionId] == "viewer-1")
        #expect(end[.engine] == "headless" && end[.platform] != nil && end[.bitrate] != nil)
        #expect(end[.accumPauseTime] == .int(5_000))
        let played = try #require(end[.accumPlayTime]?.int)
        // About 5 s, then 20 s after the seek from 5 s to 20 s; the lab's 12 s interstitial at 24 s is not content.
        #expect(abs(played - 25_000) <= 300, "\(played)")
        let metrics = Dictionary(grouping: backend.metrics, by: \.name)
        #expect(metrics["NumPlays"]?.count == 1)
        #expect(metrics["StartTime"]?.first.map { $0.value < 1_000 } == true)
        #expect(metrics["ContentPlaybackTime"]?.first?.value == Double(played))
        #expect(metrics["StartTime"]?.first?.dimensions[.contentId] == "urn:lab:A")
        #expect(player.currentSessionIdentifiers(trackedBy: PlayerTelemetryTracker.self).isEmpty, "no current item at the end")
        if let switchUp = backend.events.first(where: { $0.action == .qualityChangeUp }) {
            let bandwidths = harness.lab.configuration.variants.map(\.bandwidth)
            #expect(switchUp[.bitrate]?.int.map { $0 > bandwidths.min()! } == true, "the event carries the new variant")
        }
        let average = try #require(metrics["AverageBitrate"]?.first?.value)
        let bandwidths = harness.lab.configuration.variants.map { Double($0.bandwidth) }
        #expect(average >= bandwidths.min()! && average <= bandwidths.max()!)
        await harness.shutdown()
        _ = instrument
    }

    /// Plays the lab's on-demand stream (40 s of primary with an 8 s stitched break at 8 s, signalled by a SCTE-35
    /// date range and cue tags, and a 12 s interstitial at 24 s) straight through; returns the metrics and events.
    private func playLabStream(adsTracker: Bool) async throws -> (metrics: [String: Double], events: [Event]) {
        let (metrics, events) = try await playLabStreamRecording(adsTracker: adsTracker)
        var last: [String: Double] = [:]
        for metric in metrics { last[metric.name] = metric.value }
        return (last, events)
    }

    private func playLabStreamRecording(adsTracker: Bool) async throws -> (metrics: [Metric], events: [Event]) {
        let backend = RecordingBackend()
        var instrument: Instrument?
        var ads: AdTelemetryTracker?
        let harness = try await PlayerHarness { h in
            let created = Instrument(hub: adsTracker ? HubCoreAds() : HubCore(), metricalc: MetricalcCore(),
                                     backends: [backend], clock: h.clock)
            instrument = created
            return [PlayerItem.simple(url: h.url("vod/master.m3u8"), metadata: TestMetadata(title: "A"), trackerAdapters: [
                PlayerTelemetryTracker.adapter(configuration: .init(instrument: created), behavior: .mandatory) { _ in
                    TelemetryMetadata()
                },
            ])]
        }
        let player = harness.player!
        if adsTracker, let instrument { ads = AdTelemetryTracker(instrument: instrument, sessionID: "viewer") }
        player.play()
        await harness.advance(until: { player.time.seconds >= 8 }, limit: .seconds(20))
        // An ads tracker that knows the stitched break reports it as well (as an SSAI session would).
        ads?.breakBegan(roll: .mid)
        ads?.adBegan(TelemetryAd(id: "ad-1"))
        await harness.advance(until: { player.time.seconds >= 12 }, limit: .seconds(20))
        ads?.adEnded()
        ads?.adBegan(TelemetryAd(id: "ad-2"))
        await harness.advance(until: { player.time.seconds >= 16 }, limit: .seconds(20))
        ads?.adEnded()
        ads?.breakEnded()
        await harness.advance(until: { player.playbackState == .ended }, limit: .seconds(60))
        await harness.shutdown()
        _ = instrument
        return (backend.metrics, backend.events)
    }

    @Test("One QoE with or without an ads tracker: every metric the same, the PlayTime counters add up to ContentPlaybackTime")
    func oneQoEWithOrWithoutAnAdsTracker() async throws {
        func summed(_ metrics: [Metric]) -> [String: Double] {
            var values: [String: Double] = [:]
            for metric in metrics {
                values[metric.name] = metric.kind == .counter ? (values[metric.name] ?? 0) + metric.value : metric.value
            }
            return values
        }
        let without = summed(try await playLabStreamRecording(adsTracker: false).metrics)
        let with = summed(try await playLabStreamRecording(adsTracker: true).metrics)
        for values in [without, with] {
            let content = try #require(values["ContentPlaybackTime"])
            #expect(values["PlayTime"] == content, "the PlayTime counters add up to ContentPlaybackTime: \(values)")
        }
        #expect(Set(without.keys) == Set(with.keys), "the same metrics: \(without.keys.sorted()) \(with.keys.sorted())")
        for (name, value) in without {
            let other = try #require(with[name], "\(name)")
            // Virtual time: only the moment the ads tracker's break opens may move a figure, by a tick at most.
            let tolerance = name == "AverageBitrate" ? value * 0.02 : (name.hasSuffix("Time") ? 150 : 0)
            #expect(abs(other - value) <= tolerance, "\(name): \(value) without an ads tracker, \(other) with one")
        }
    }

    @Test("Content time excludes the stitched break the stream signals and the interstitial: content + ads = watched")
    func contentTimeAddsUp() async throws {
        let (metrics, events) = try await playLabStream(adsTracker: false)
        let content = try #require(metrics["ContentPlaybackTime"])
        let watched = try #require(metrics["WatchedTime"])
        let startup = try #require(metrics["StartTime"])
        #expect(abs(content - 32_000) <= 150, "32 s of the 40 s primary are content: \(content)")
        #expect(abs(watched - (content + 8_000 + 12_000 + startup)) <= 150,
                "watched \(watched) = content \(content) + 8 s stitched + 12 s interstitial + startup \(startup)")
        let breaks = events.filter { $0.action == .adBreakBegin || $0.action == .adBreakFinish }.map(\.action.name)
        #expect(breaks == ["AdBreakBegin", "AdBreakFinish", "AdBreakBegin", "AdBreakFinish"], "\(breaks)")
    }

    @Test("With an ads tracker reporting the stitched break too, content time is the same and no break is reported twice")
    func contentTimeWithAnAdsTracker() async throws {
        let (metrics, events) = try await playLabStream(adsTracker: true)
        let content = try #require(metrics["ContentPlaybackTime"])
        #expect(abs(content - 32_000) <= 150, "\(content)")
        let begins = events.filter { $0.action == .adBreakBegin }
        #expect(begins.count == 1 && begins.first?[.isAdsTracker] == .bool(true), "the ads tracker's break only")
    }

    @Test("A start that fails watched nothing")
    func failedStartWatchedNothing() async throws {
        let backend = RecordingBackend()
        var instrument: Instrument?
        let harness = try await PlayerHarness { h in
            let created = Instrument(hub: HubCore(), metricalc: MetricalcCore(), backends: [backend], clock: h.clock)
            instrument = created
            return [PlayerItem.simple(url: h.url("missing/master.m3u8"), metadata: TestMetadata(title: "A"), trackerAdapters: [
                PlayerTelemetryTracker.adapter(configuration: .init(instrument: created), behavior: .mandatory) { _ in
                    TelemetryMetadata()
                },
            ])]
        }
        let player = harness.player!
        player.play()
        await harness.advance(until: { player.error != nil }, limit: .seconds(30))
        await harness.advance(by: .seconds(3))
        player.removeAllItems()
        await harness.advance(by: .seconds(1))
        await harness.shutdown()
        _ = instrument
        let watched = backend.metrics.first { $0.name == "WatchedTime" }
        #expect(watched?.value == 0)
        #expect(backend.metrics.contains { $0.name == "PlaybackFailure" })
    }
}
