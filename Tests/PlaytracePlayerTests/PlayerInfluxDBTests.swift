import Foundation
import PlaytraceBackends
import PlaytraceCore
import PlaytraceLab
import PlaytraceNetwork
import PlaytracePlayer
import PlaytraceTelemetry
import PlaytraceTestSupport
import Testing

@Suite("A lab session through the Player into the real InfluxDB", .enabled(if: InfluxDBServer.url != nil))
@MainActor
struct PlayerInfluxDBTests {
    @Test("A warning, a seek, a pause and a stall: the points read back from InfluxDB say what happened, with their tags and types")
    func session() async throws {
        let server = InfluxDBServer(url: try #require(InfluxDBServer.url))
        _ = try await server.query("CREATE DATABASE \(server.database)")
        let outbox = try Outbox(path: nil, couriers: [InfluxDBBackend.courier(transport: server.transport)])
        var configuration = InfluxDBBackend.Configuration(url: server.url, api: .v1(database: server.database))
        configuration.flushInterval = .seconds(3_600)
        let collected = RecordingBackend()
        var instrument: Instrument?
        // The primary's events: the lab's interstitial would take the delayed stretch and the stall.
        var lab = LabConfiguration(vodSegmentCount: 40)
        lab.vodHasInterstitial = false
        let harness = try await PlayerHarness(lab: lab) { h in
            let influx = InfluxDBBackend(configuration: configuration, outbox: outbox)
            let created = Instrument(hub: HubCore(), metricalc: MetricalcCore(), backends: [influx, collected], clock: h.clock)
            created.ready()
            instrument = created
            let url = h.url("vod/master.m3u8")
            return [PlayerItem.simple(url: url, metadata: TestMetadata(title: "Lab"), trackerAdapters: [
                PlayerTelemetryTracker.adapter(configuration: .init(instrument: created, sessionID: "viewer 7"),
                                               behavior: .mandatory) { _ in
                    TelemetryMetadata(contentID: "urn:lab:vod", title: "Lab \"VOD\"", source: url.absoluteString)
                },
            ])]
        }
        let player = harness.player!
        harness.lab.faults.add(LabFault(pathContains: ".ts", kind: .status(503), remaining: 1))
        player.play()
        await harness.advance(until: { collected.events.contains { $0.action == .start } }, limit: .seconds(10))
        player.seek(.at(MediaTime(seconds: 20)))
        await harness.advance(by: .seconds(2))
        player.pause()
        await harness.advance(by: .seconds(3))
        player.play()
        // Each segment answered 20 s late (of clock time): the 30 s buffer runs dry, then refills once it is lifted.
        harness.lab.faults.add(LabFault(pathContains: ".ts", kind: .delay(milliseconds: 20_000)))
        await harness.advance(until: { player.isBuffering }, limit: .seconds(60))
        await harness.advance(by: .seconds(2))
        harness.lab.faults.clear()
        await harness.advance(until: { player.playbackState == .ended }, limit: .seconds(120))
        await harness.shutdown()
        instrument?.shutdown()
        await outbox.flush()
        let statistics = try await outbox.statistics()
        #expect(statistics.pending == 0 && statistics.rejected == 0, "\(statistics)")

        let events = try await server.rows("SELECT * FROM events")
        let actions = events.compactMap { $0["action"] as? String }
        #expect(actions == collected.events.map(\.action.name), "every event the instrument sent is stored, in order")
        for expected in ["MediaRequest", "StreamLoad", "Start", "Error", "SeekBegin", "SeekFinish", "PauseBegin",
                         "PauseFinish", "BufferBegin", "BufferFinish", "End"] {
            #expect(actions.contains(expected), "missing \(expected) in \(actions)")
        }
        let warning = try #require(events.first { $0["action"] as? String == "Error" })
        #expect(warning["isFatal"] as? Bool == false && (warning["errorDescription"] as? String)?.contains("503") == true)
        let rebuffer = try #require(events.first {
            $0["action"] as? String == "BufferFinish" && $0["bufferType"] as? String == "rebuffer"
        })
        let stalled = try #require(rebuffer["timeSinceBufferBegin"] as? Double)
        #expect(stalled >= 2_000, "the stall lasted the throttled time at least: \(stalled) ms")
        let end = try #require(events.last)
        #expect(end["title"] as? String == "Lab \"VOD\"" && end["contentId"] as? String == "urn:lab:vod")
        #expect(end["sessionId"] as? String == "viewer 7" && end["engine"] as? String == "headless")
        #expect(end["accumPauseTime"] as? Double == 3_000)

        let types = try await server.fieldTypes(of: "events")
        #expect(types["position"] == "integer" && types["accumPlayTime"] == "integer" && types["bitrate"] == "integer")
        #expect(types["isFatal"] == "boolean" && types["inPauseBlock"] == "boolean" && types["title"] == "string")

        func value(_ metric: String) async throws -> Double? {
            try await server.rows("SELECT value FROM \(metric) WHERE contentId = 'urn:lab:vod'").first?["value"] as? Double
        }
        #expect(try await value("StallCount") == 1)
        let stallDuration = try #require(try await value("StallDuration"))
        #expect(stallDuration == stalled, "the stall's duration is its BufferBegin → BufferFinish")
        let watched = try #require(try await value("WatchedTime"))
        let ratio = try #require(try await value("RebufferingRatio"))
        #expect(abs(ratio - stallDuration / watched) < 1e-9)
        #expect(try await value("NumPlays") == 1)
        let startTime = try #require(try await value("StartTime"))
        #expect(startTime > 0 && startTime < 10_000)
        let tags = try await server.rows("SHOW TAG KEYS FROM StallCount").compactMap { $0["tagKey"] as? String }
        #expect(Set(tags).isSuperset(of: ["sessionId", "playbackId", "contentId", "engine", "platform", "kind"]))
        try await server.transport.shutdown()
    }
}
