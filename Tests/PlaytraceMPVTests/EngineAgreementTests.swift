#if MPV
import Foundation
import PlaytraceTestSupport
import Testing

/// The whole chain — the Player, telemetry's QoE metrics and ad beaconing — over both engines on the same real
/// streams with the same viewer: on demand, the lab's SSAI session on its interstitials stream (a pre-roll, a
/// stitched break at 8 to 16 s, mid-1 at 20 s resuming at 32 s), a pause, a seek, stopped at 33 s; live, its SSAI
/// session on the live stream (its content looped, a break of three 4 s ads where playback starts). Both sessions
/// run at once, each with its own `playtrace play`, and their `--summary-json` records are compared.
///
/// Tolerances, and why:
/// - every beacon once on each, and the same beacons on both: exact;
/// - stall count: exact (no fault is injected; the conformance suite checks stalls under a late segment);
/// - average bit rate: exact, with the variants capped at 500 kbit/s so that both play the same one (libmpv picks one
///   variant and keeps it, where the headless engine adapts);
/// - startup time: within 0.5 s (libmpv probes the stream and starts its decoders before its first frame, the headless
///   engine waits for a segment: here both take about 0.1 s, either first, but two sessions share two cores);
/// - content time: within 0.5 s (the script stops each at the first status poll past 33 s, every 250 ms; a decoder
///   reports frame positions, 40 ms apart; libmpv's timeline starts 21 ms before the playlist's).
@Suite("The Player, telemetry and ads agree on both engines", .serialized)
struct EngineAgreementTests {
    @Test("On demand: the same stream and viewer give the same beacons and the same QoE, within stated tolerances, on both engines")
    func enginesAgree() async throws {
        let (headless, mpv) = try await sessions("/ssai/harmonic/vast-interstitials/master.m3u8",
                                                 script: "at 2 pause 1; at 5 seek 7; at 33 stop")
        let content = Self.compare(headless, mpv, beacons: 31...)
        // 0 to 8, 16 to 20 and 32 to 33 s, less the 2 s the seek passed over.
        #expect((10_000...12_000).contains(content), "content time, ms: \(content)")
    }

    @Test("Live: the same stream and viewer give the same beacons and the same QoE, within stated tolerances, on both engines")
    func enginesAgreeOnLive() async throws {
        // Playback starts at 12 s of the live timeline, in the break (12 to 24 s), and stops at 30 s.
        let (headless, mpv) = try await sessions("/ssai/harmonic/live/master.m3u8", script: "at 30 stop")
        let content = Self.compare(headless, mpv, beacons: 18...18)
        #expect((5_500...6_500).contains(content), "content time, ms: \(content)")
    }

    /// Runs both engines at once on the lab's `path`, as the same viewer (`script`).
    private func sessions(_ path: String, script: String) async throws -> (headless: Summary, mpv: Summary) {
        let (lab, url) = try await MPVEngineTests.startMediaLab(path: path)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("agreement-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func session(_ engine: String) async throws -> Summary {
            let file = directory.appendingPathComponent("\(engine).json")
            let run = try await CommandRunner.run([
                "play", "--engine", engine, "--ads", "harmonic", "--max-bandwidth", "500000",
                "--script", script, "--summary-json", file.path, url.absoluteString,
            ])
            #expect(run.status == 0, "\(engine): \(run.output)\n\(run.error)")
            let errors = try await JSONSchemaCheck.errors(in: file.path, schema: "session-summary")
            #expect(errors.isEmpty, "\(engine): the summary conforms to its schema: \(errors)")
            return try Summary(Data(contentsOf: file))
        }
        async let headlessSummary = session("headless")
        async let mpvSummary = session("mpv")
        let summaries = try await (headlessSummary, mpvSummary)
        await lab.stop()
        return summaries
    }

    /// Compares the two sessions within the stated tolerances; returns libmpv's content time (ms).
    private static func compare(_ headless: Summary, _ mpv: Summary, beacons: some RangeExpression<Int>) -> Double {
        for (name, summary) in [("headless", headless), ("mpv", mpv)] {
            #expect(beacons.contains(summary.expected) && summary.fired == summary.expected && summary.delivered == summary.expected,
                    "\(name): every beacon fired and delivered: \(summary.expected) expected, \(summary.fired) fired")
            #expect(summary.duplicated == 0 && summary.missed == 0 && summary.unexpected == 0, "\(name): each once")
        }
        #expect(headless.deliveredKeys == mpv.deliveredKeys,
                "the same beacons: only headless \(headless.deliveredKeys.subtracting(mpv.deliveredKeys).sorted()), only mpv \(mpv.deliveredKeys.subtracting(headless.deliveredKeys).sorted())")
        #expect(headless.metric("stallCount") == 0 && mpv.metric("stallCount") == 0)
        #expect(headless.metric("averageBitrateBitsPerSecond") == 400_000 && mpv.metric("averageBitrateBitsPerSecond") == 400_000,
                "\(String(describing: headless.metric("averageBitrateBitsPerSecond"))) and \(String(describing: mpv.metric("averageBitrateBitsPerSecond")))")
        let startup = (headless.metric("startTimeMilliseconds") ?? -1_000, mpv.metric("startTimeMilliseconds") ?? 1_000)
        #expect(abs(startup.0 - startup.1) <= 500, "startup, ms: \(startup)")
        let content = (headless.metric("contentPlaybackTimeMilliseconds") ?? -1_000, mpv.metric("contentPlaybackTimeMilliseconds") ?? 1_000)
        #expect(abs(content.0 - content.1) <= 500, "content time, ms: \(content)")
        return content.1
    }
}

/// What the comparison reads of a `--summary-json` record.
private struct Summary {
    var expected = 0, fired = 0, delivered = 0, duplicated = 0, missed = 0, unexpected = 0
    /// The delivered beacons' keys (ad, event and place on the ad timeline).
    var deliveredKeys: Set<String> = []
    var qoe: [String: Double] = [:]

    init(_ data: Data) throws {
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let ads = try #require(root["ads"] as? [String: Any])
        let counts = ads["counts"] as? [String: Any] ?? [:]
        func count(_ key: String) -> Int { (counts[key] as? NSNumber)?.intValue ?? -1 }
        (expected, fired, delivered) = (count("expected"), count("fired"), count("delivered"))
        (duplicated, missed, unexpected) = (count("duplicated"), count("missed"), count("unexpected"))
        let beacons = ads["beacons"] as? [[String: Any]] ?? []
        deliveredKeys = Set(beacons.compactMap { $0["state"] as? String == "delivered" ? $0["key"] as? String : nil })
        let playback = (root["qoe"] as? [[String: Any]])?.first ?? [:]
        qoe = playback.compactMapValues { ($0 as? NSNumber)?.doubleValue }
    }

    /// A metric by its key in the summary (`stallCount`, `averageBitrateBitsPerSecond`…).
    func metric(_ key: String) -> Double? { qoe[key] }
}
#endif
