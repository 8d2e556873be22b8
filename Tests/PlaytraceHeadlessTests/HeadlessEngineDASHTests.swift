import Foundation
import PlaytraceCore
import PlaytraceEngineConformance
import PlaytraceHeadless
import PlaytraceLab
import PlaytracePlayer
import Testing

/// The headless engine on the lab's MPEG-DASH presentations, on the test clock: what is particular to DASH (periods,
/// BaseURL locations, the MPD's clock and refreshes); what it shares with HLS runs in the conformance suite on both.
@Suite("Headless engine: DASH", .serialized)
struct HeadlessEngineDASHTests {
    @Test("A location that fails hands its segments to the MPD's next BaseURL: no gap, no stall, to the end")
    func failsOverAcrossBaseURLs() async throws {
        let harness = try await EngineHarness(lab: LabConfiguration(vodSegmentCount: 10))
        // The first location loses every content segment; the second has them all.
        harness.lab.faults.add(LabFault(pathContains: "/dash/vod/", kind: .status(404)))
        await harness.start("/dash/redundant/manifest.mpd")
        let loaded = await harness.advance(until: { $0.status == .playing || $0.status == .failed }, limit: .seconds(20))
        #expect(loaded.variants.count == 6, "three rungs at two locations: \(loaded.variants.map(\.url))")
        let end = await harness.advance(until: { $0.status == .ended || $0.status == .failed }, limit: .seconds(80))
        #expect(end.status == .ended, "error: \(String(describing: end.error))")
        #expect(end.playhead == 40)
        #expect(end.gaps.isEmpty, "the backup location delivered every segment")
        let backup = harness.lab.requests.matching("/dash-backup/vod/")
        #expect(backup.count >= 6, "the content came from the backup: \(backup.count)")
        // The ad period names its own BaseURL (../ads/): from the backup location it is the backup's.
        #expect(!harness.lab.requests.matching("/dash-backup/ads/").isEmpty)
        await harness.shutdown()
    }

    @Test("The on-demand profile (SegmentBase, ffmpeg's global sidx): the index read first, then each subsegment by its range")
    func playsSegmentBase() async throws {
        var configuration = LabConfiguration()
        configuration.mediaDirectory = EngineConformance.mediaDirectory
        let harness = try await EngineHarness(lab: configuration)
        await harness.start("/media/dash-ondemand/manifest.mpd")
        let end = await harness.advance(until: { $0.status == .ended || $0.status == .failed }, limit: .seconds(40))
        #expect(end.status == .ended && end.playhead == 12, "\(end.status) at \(end.playhead): \(String(describing: end.error))")
        #expect(end.gaps.isEmpty)
        let requests = await harness.recorder.events.compactMap { if case .request(let record) = $0 { record } else { nil } }
        let video = requests.filter { $0.url.hasSuffix("/video.mp4") }
        // Its index, its initialization, then 2 s subsegments: six of them, not the whole file in one.
        #expect(video.map(\.kind) == [.segmentIndex, .initializationSection] + Array(repeating: .segment, count: 6),
                "\(video.map(\.kind))")
        #expect(video.allSatisfy { $0.status == 206 }, "every request a range: \(video.map(\.status))")
        await harness.shutdown()
    }

    @Test("A live MPD: the clock from UTCTiming, the MPD fetched again at minimumUpdatePeriod, the window moving")
    func followsALiveMPD() async throws {
        let harness = try await EngineHarness(lab: LabConfiguration())
        await harness.start("/dash/live/manifest.mpd")
        let live = await harness.advance(until: { $0.status == .playing || $0.status == .failed }, limit: .seconds(20))
        #expect(live.streamType == .live, "\(live.status) \(String(describing: live.error))")
        let start = live.seekableRange.end
        let later = await harness.advance(until: { $0.seekableRange.end >= start + MediaTime(seconds: 20) }, limit: .seconds(40))
        #expect(later.status == .playing && later.stallCount == 0)
        #expect(harness.lab.requests.matching("/dash/time").count == 1, "the clock is read once")
        let fetches = harness.lab.requests.matching("/dash/live/manifest.mpd").count
        // One load, then one fetch per 4 s segment (minimumUpdatePeriod) over the 20 s or more that passed.
        #expect((5...9).contains(fetches), "\(fetches) MPD fetches")
        let events = await harness.recorder.events
        #expect(!events.contains { if case .error = $0 { true } else { false } }, "no warning: \(events)")
        await harness.shutdown()
    }

    @Test("Breaks signalled in the segments (emsg, SCTE-35): the same breaks as the MPD's EventStream signals")
    func readsBreaksFromEventMessages() async throws {
        func breaks(_ path: String) async throws -> [SignalledAdBreak] {
            let harness = try await EngineHarness(lab: LabConfiguration())
            await harness.start(path)
            // Long enough for a break to come through the window (one every 10 segments of 4 s).
            _ = await harness.advance(until: { !$0.adBreaks.isEmpty && $0.playhead.seconds > 50 }, limit: .seconds(90))
            let found = await harness.engine.snapshot().adBreaks
            await harness.shutdown()
            return found
        }
        let inband = try await breaks("/dash/emsg/manifest.mpd")
        let listed = try await breaks("/dash/live/manifest.mpd")
        #expect(!inband.isEmpty, "the segments' emsg boxes signal breaks")
        #expect(inband.map(\.startDate) == listed.map(\.startDate), "\(inband) vs \(listed)")
        #expect(inband.map(\.duration) == listed.map(\.duration))
        #expect(inband.allSatisfy { $0.duration == MediaTime(seconds: 12) })
    }
}
