import Foundation
import PlaytraceLab
import PlaytraceTestSupport
import Testing

/// The same media played plain and in every `--ads` mode, and as MPEG-DASH: one QoE. Seven real sessions one after
/// another; they run in
/// the stage of the command line's robustness suites, apart from the real-time beacon tests, to which they would add
/// load.
@Suite("One QoE in every ad mode", .serialized)
struct QoEAcrossAdModesTests {
    @Test("One QoE with or without ad tracking: the same stream played in every --ads mode gives the same metrics, and the PlayTime counters add up to ContentPlaybackTime")
    func oneQoEInEveryAdMode() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let base = "http://127.0.0.1:\(port)"
        // The same on-demand media each time (the SSAI sessions front the lab's /vod stream), one variant (a cap) so
        // that the bit rate is known: 400 kbit/s.
        let modes: [(name: String, arguments: [String])] = [
            ("none", ["\(base)/vod/master.m3u8"]),
            ("harmonic", ["\(base)/ssai/harmonic/vod/master.m3u8", "--ads", "harmonic"]),
            ("mediatailor", ["\(base)/ssai/mediatailor/v1/session/lab/origin/vod/master.m3u8", "--ads", "mediatailor"]),
            ("signaling", ["\(base)/vod/master.m3u8", "--ads", "signaling"]),
            ("vast", ["\(base)/vod/master.m3u8", "--ads", "vast"]),
            // The same content as DASH: its ad period is the break; its variants count the audio set's 128 kbit/s.
            ("dash", ["\(base)/dash/vod/manifest.mpd"]),
            ("dash-mediatailor", ["\(base)/ssai/mediatailor/v1/session/lab/origin/vod/manifest.mpd", "--ads", "mediatailor"]),
        ]
        var metricsByMode: [String: [String: Double]] = [:]
        for (name, arguments) in modes {
            let jsonl = CLITests.temporaryPath("qoe-\(name).jsonl")
            defer { try? FileManager.default.removeItem(atPath: jsonl) }
            let run = try await CLITests.run(["play"] + arguments + ["--max-bandwidth", "500000", "--script", "at 0 rate 2; at 17 stop",
                                                                   "--jsonl", jsonl])
            #expect(!run.error.contains("Fatal error"), "\(name): \(run.error)")
            let objects = try String(contentsOfFile: jsonl, encoding: .utf8).split(separator: "\n")
                .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            var metrics: [String: Double] = [:]
            for object in objects {
                guard let metric = object["name"] as? String, let value = object["value"] as? Double else { continue }
                metrics[metric] = object["kind"] as? String == "counter" ? (metrics[metric] ?? 0) + value : value
            }
            metricsByMode[name] = metrics
        }
        await lab.stop()
        let plain = try #require(metricsByMode["none"])
        for (name, metrics) in metricsByMode {
            let content = try #require(metrics["ContentPlaybackTime"], "\(name): \(metrics)")
            #expect(metrics["PlayTime"] == content, "\(name): the PlayTime counters add up to ContentPlaybackTime: \(metrics)")
            #expect(metrics["AverageBitrate"] == (name.hasPrefix("dash") ? 528_000 : 400_000), "\(name): \(metrics)")
            // 9 s of content (the 8 s break is not) at 2x (on-demand's fastest): 4.5 s of wall clock, whichever the mode.
            #expect(abs(content - (plain["ContentPlaybackTime"] ?? 0)) < 400, "\(name): \(content) against \(plain)")
            for counted in ["NumPlays", "NumRequests", "StallCount", "BitrateSwitchesUp", "BitrateSwitchesDown"] {
                #expect(metrics[counted] == plain[counted], "\(name): \(counted) \(String(describing: metrics[counted]))")
            }
        }
    }
}
