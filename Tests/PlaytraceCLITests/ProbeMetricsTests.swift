import Foundation
import PlaytraceLab
import PlaytraceTestSupport
import Testing

/// `playtrace probe --metrics-port`, scraped by the real Prometheus that `scripts/test` starts.
@Suite("playtrace probe --metrics-port: Prometheus scrapes the aggregate", .serialized,
       .enabled(if: PrometheusServer.isAvailable))
struct ProbeMetricsTests {
    @Test("Prometheus' totals of a probe with ads, asked through its query API, are the probe's own summary")
    func totalsMatchTheSummary() async throws {
        let prometheus = try #require(PrometheusServer())
        defer { prometheus.forget() }
        let lab = LabServer(clock: ContinuousClock(), configuration: LabConfiguration(
            variants: LabConfiguration.loadLadder, liveAdBreakInterval: 4, liveAdBreakLength: 2))
        let labPort = try await lab.start()
        let metricsPort = try LoopbackPort.free()
        try prometheus.scrape([(address: "127.0.0.1:\(metricsPort)", labels: [:])])
        let path = CLITests.temporaryPath("probe-metrics") + ".json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try await CLITests.run([
            "probe", "http://127.0.0.1:\(labPort)/ssai/harmonic/live/master.m3u8", "--ads", "harmonic",
            "--viewers", "4", "--ramp", "1", "--duration", "10", "--seed", "7", "--summary-json", path,
            "--metrics-port", String(metricsPort), "--metrics-host", "127.0.0.1", "--metrics-linger", "30",
        ])
        await lab.stop()
        #expect(run.status == 0, "\(run.output)\n\(run.error)")
        #expect(run.output.contains("probe: metrics at http://127.0.0.1:\(metricsPort)/metrics"))
        #expect(run.output.contains("probe: the final metrics were scraped"), "\(run.output)")
        let document = try await ProbeCommandTests.summary(at: path)

        // The last sample of each series: after the probe's end its target is down and its series are stale, which a
        // range selector does not see.
        func total(_ metric: String, _ labels: String = "") async throws -> Double {
            let selector = "{run=\"\(prometheus.run)\"\(labels.isEmpty ? "" : "," + labels)}"
            return try await prometheus.value("sum(last_over_time(\(metric)\(selector)[10m]))") ?? -1
        }
        #expect(try await total("playtrace_probe_ended") == 1, "the last scrape saw the end")
        let viewers = try #require(document["viewers"] as? [String: Any])
        for (state, key) in [("started", "started"), ("ended", "ended"), ("failed", "failed"),
                             ("failed_to_start", "failedToStart"), ("never_started", "neverStarted")] {
            #expect(try await total("playtrace_probe_viewers_\(state)_total") == Double(viewers[key] as? Int ?? -2),
                    "viewers \(state)")
        }
        let beacons = try #require(document["beacons"] as? [String: Any])
        let totals = try #require(beacons["totals"] as? [String: Int])
        #expect((totals["delivered"] ?? 0) > 0, "the viewers crossed ad events")
        for (state, count) in totals {
            #expect(try await total("playtrace_probe_beacons_total", "state=\"\(state)\"") == Double(count), "beacons \(state)")
        }
        let requests = try #require(document["requests"] as? [String: [String: Any]])
        for kind in ["playlist", "segment", "metadata", "beacon"] {
            let counts = try #require(requests[kind], "requests of kind \(kind)")
            #expect(try await total("playtrace_probe_requests_total", "kind=\"\(kind)\"") == Double(counts["requests"] as? Int ?? -2),
                    "\(kind) requests")
            #expect(try await total("playtrace_probe_response_bytes_total", "kind=\"\(kind)\"") == Double(counts["bytes"] as? Int ?? -2),
                    "\(kind) bytes")
        }
        let playback = try #require(document["playback"] as? [String: Any])
        let played = try #require(playback["playedSeconds"] as? Double)
        #expect(abs(try await total("playtrace_probe_played_seconds_total") - played) < 1e-6 * max(1, played))
        #expect(try await total("playtrace_probe_stalls_total") == Double(playback["stallCount"] as? Int ?? -2))
        let startup = try #require(document["startup"] as? [String: Any])
        #expect(try await total("playtrace_probe_startup_seconds_count") == Double(startup["count"] as? Int ?? -2))
        let lateness = try #require(beacons["lateness"] as? [String: Any])
        #expect(try await total("playtrace_probe_beacon_lateness_seconds_count") == Double(lateness["count"] as? Int ?? -2))
        // Every startup under the bucket bound above the largest: the histogram's buckets hold them all.
        let largest = try #require(startup["maxMilliseconds"] as? Double)
        let bound = [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 30].first { $0 * 1_000 >= largest + 1 } ?? 30
        #expect(try await total("playtrace_probe_startup_seconds_bucket", "le=\"\(bound)\"") == Double(startup["count"] as? Int ?? -2))
    }
}
