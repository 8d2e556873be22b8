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

    /// One probe process as the shard test runs it.
    private struct Shard {
        var shard: String
        /// The network host it runs on (nil: this machine's own namespace).
        var host: Int?
        var metricsAddress: String
        var metricsPort: Int
        /// `shards` or `single`: the Prometheus label its series get.
        var probe: String
        var summaryPath = CLITests.temporaryPath("probe-shard") + ".json"
    }

    @Test("Three shards, each on a host of its own, the lab on another, one Prometheus: their sums are one process's figures")
    func shardsSumToOneProbe() async throws {
        let prometheus = try #require(PrometheusServer())
        defer { prometheus.forget() }
        // Host 0 serves the lab, hosts 1-3 run the shards; the single process runs on the machine itself.
        let (hosts, reason) = try await NetworkHosts.up(count: 4)
        print(hosts.map { "shards: each in its own network namespace (\($0.name)-1…3), the lab in \($0.name)-0" }
              ?? "shards: on loopback ports, no namespaces here: \(reason)")
        var labProcess: Process?
        var labServer: LabServer?
        var shards: [Shard] = []
        var runs: [CLITests.Run] = []
        do {
            let labURL: String
            if let hosts {
                let ready = CLITests.temporaryPath("probe-shard-lab") + ".json"
                defer { try? FileManager.default.removeItem(atPath: ready) }
                let (executable, arguments) = hosts.command(on: 0, CLITests.executable, [
                    "lab", "--host", hosts.addresses[0], "--port", "8080", "--ladder", "load", "--ready-file", ready])
                let process = Process()
                process.executableURL = executable
                process.arguments = arguments
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                labProcess = process
                for _ in 0..<400 where !FileManager.default.fileExists(atPath: ready) { try await Task.sleep(for: .milliseconds(50)) }
                #expect(FileManager.default.fileExists(atPath: ready), "the lab started in its namespace")
                labURL = "http://\(hosts.addresses[0]):8080"
            } else {
                let lab = LabServer(clock: ContinuousClock(), configuration: LabConfiguration(variants: LabConfiguration.loadLadder))
                labURL = "http://127.0.0.1:\(try await lab.start())"
                labServer = lab
            }
            for index in 0..<3 {
                shards.append(Shard(shard: "\(index)/3", host: hosts == nil ? nil : index + 1,
                                    metricsAddress: hosts?.addresses[index + 1] ?? "127.0.0.1",
                                    metricsPort: hosts == nil ? try LoopbackPort.free() : 9400, probe: "shards"))
            }
            shards.append(Shard(shard: "0/1", host: nil, metricsAddress: "127.0.0.1", metricsPort: try LoopbackPort.free(),
                                probe: "single"))
            try prometheus.scrape(shards.map { (address: "\($0.metricsAddress):\($0.metricsPort)", labels: ["probe": $0.probe]) })
            // The lab's on-demand Harmonic stream: its break's events lie between 8 and 16 s, so a viewer playing 18 to
            // 19 s crosses all of them, whenever it starts in the ramp.
            let url = labURL + "/ssai/harmonic/vod/master.m3u8"
            runs = try await withThrowingTaskGroup(of: (Int, CLITests.Run).self) { group in
                for (index, shard) in shards.enumerated() {
                    let arguments = ["probe", url, "--ads", "harmonic", "--viewers", "6", "--ramp", "1", "--duration", "18",
                                     "--seed", "11", "--shard", shard.shard, "--summary-json", shard.summaryPath,
                                     "--metrics-port", String(shard.metricsPort), "--metrics-host", shard.metricsAddress,
                                     "--metrics-linger", "30"]
                    let (executable, command) = shard.host.flatMap { host in hosts.map { $0.command(on: host, CLITests.executable, arguments) } }
                        ?? (CLITests.executable, arguments)
                    group.addTask {
                        let run = try await CommandRunner.run(executable: executable, command, timeout: .seconds(120))
                        return (index, run)
                    }
                }
                var runs: [(Int, CLITests.Run)] = []
                for try await run in group { runs.append(run) }
                return runs.sorted { $0.0 < $1.0 }.map(\.1)
            }
        } catch {
            Issue.record(error)
        }
        labProcess?.interrupt()
        await labProcess?.ended()
        await labServer?.stop()
        await hosts?.down()
        defer { for shard in shards { try? FileManager.default.removeItem(atPath: shard.summaryPath) } }
        try #require(runs.count == 4)
        for (shard, run) in zip(shards, runs) {
            #expect(run.status == 0, "shard \(shard.shard): \(run.output)\n\(run.error)")
            #expect(run.output.contains("probe: the final metrics were scraped"), "shard \(shard.shard): \(run.output)")
        }
        var documents: [[String: Any]] = []
        for shard in shards { documents.append(try await ProbeCommandTests.summary(at: shard.summaryPath)) }

        // The same six viewers, each run once: three shards of two.
        func ids(_ document: [String: Any]) -> Set<String> {
            Set((document["worst"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
        }
        let shardIDs = documents.prefix(3).map(ids)
        #expect(shardIDs.map(\.count) == [2, 2, 2])
        #expect(shardIDs.reduce(Set<String>()) { $0.union($1) } == ids(documents[3]) && ids(documents[3]).count == 6)

        func total(_ metric: String, _ probe: String, _ labels: String = "") async throws -> Double {
            let selector = "{run=\"\(prometheus.run)\",probe=\"\(probe)\"\(labels.isEmpty ? "" : "," + labels)}"
            return try await prometheus.value("sum(last_over_time(\(metric)\(selector)[10m]))") ?? -1
        }
        #expect(try await prometheus.value("count(last_over_time(playtrace_probe_ended{run=\"\(prometheus.run)\",probe=\"shards\"}[10m]))") == 3,
                "three shards scraped")
        for metric in ["playtrace_probe_viewers_started_total", "playtrace_probe_viewers_ended_total",
                       "playtrace_probe_viewers_failed_total", "playtrace_probe_startup_seconds_count"] {
            let single = try await total(metric, "single")
            #expect(try await total(metric, "shards") == single, "\(metric)")
            #expect(single == (metric.contains("failed") ? 0 : 6), "\(metric)")
        }
        for state in ["expected", "fired", "delivered", "missed", "duplicated"] {
            let single = try await total("playtrace_probe_beacons_total", "single", "state=\"\(state)\"")
            #expect(try await total("playtrace_probe_beacons_total", "shards", "state=\"\(state)\"") == single, "beacons \(state)")
        }
        #expect(try await total("playtrace_probe_beacons_total", "single", "state=\"expected\"") > 0)
        // Played time follows each viewer's start in real time: equal within a tenth.
        let played = try await total("playtrace_probe_played_seconds_total", "single")
        #expect(abs(try await total("playtrace_probe_played_seconds_total", "shards") - played) < played / 10)
    }
}
