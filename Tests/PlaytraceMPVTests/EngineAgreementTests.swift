#if MPV
import Foundation
import PlaytraceTestSupport
import Testing

/// The whole chain — the Player, telemetry's QoE metrics and ad beaconing — over both engines on the same real
/// stream with the same viewer: the lab's SSAI session on its interstitials stream (a pre-roll, a stitched break at
/// 8 to 16 s, mid-1 at 20 s resuming at 32 s), a pause, a seek, stopped at 33 s. Both sessions run at once, each
/// with its own `playtrace play`, and their `--summary-json` records are compared.
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
    @Test("The same stream and viewer give the same beacons and the same QoE, within stated tolerances, on both engines")
    func enginesAgree() async throws {
        let (lab, url) = try await MPVEngineTests.startMediaLab(path: "/ssai/harmonic/vast-interstitials/master.m3u8")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("agreement-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func session(_ engine: String) async throws -> Summary {
            let file = directory.appendingPathComponent("\(engine).json")
            let run = try await CommandRunner.run([
                "play", "--engine", engine, "--ads", "harmonic", "--max-bandwidth", "500000",
                "--script", "at 2 pause 1; at 5 seek 7; at 33 stop", "--summary-json", file.path, url.absoluteString,
            ])
            #expect(run.status == 0, "\(engine): \(run.output)\n\(run.error)")
            return try Summary(Data(contentsOf: file))
        }
        async let headlessSummary = session("headless")
        async let mpvSummary = session("mpv")
        let (headless, mpv) = try await (headlessSummary, mpvSummary)
        await lab.stop()

        for (name, summary) in [("headless", headless), ("mpv", mpv)] {
            #expect(summary.expected > 30 && summary.fired == summary.expected && summary.delivered == summary.expected,
                    "\(name): every beacon fired and delivered: \(summary.expected) expected, \(summary.fired) fired")
            #expect(summary.duplicated == 0 && summary.missed == 0 && summary.unexpected == 0, "\(name): each once")
        }
        #expect(headless.deliveredKeys == mpv.deliveredKeys,
                "the same beacons: only headless \(headless.deliveredKeys.subtracting(mpv.deliveredKeys).sorted()), only mpv \(mpv.deliveredKeys.subtracting(headless.deliveredKeys).sorted())")
        #expect(headless.metric("StallCount") == 0 && mpv.metric("StallCount") == 0)
        #expect(headless.metric("AverageBitrate") == 400_000 && mpv.metric("AverageBitrate") == 400_000,
                "\(String(describing: headless.metric("AverageBitrate"))) and \(String(describing: mpv.metric("AverageBitrate")))")
        let startup = (headless.metric("StartTime") ?? -1_000, mpv.metric("StartTime") ?? 1_000)
        #expect(abs(startup.0 - startup.1) <= 500, "startup, ms: \(startup)")
        let content = (headless.metric("ContentPlaybackTime") ?? -1_000, mpv.metric("ContentPlaybackTime") ?? 1_000)
        #expect(abs(content.0 - content.1) <= 500, "content time, ms: \(content)")
        // 0 to 8, 16 to 20 and 32 to 33 s, less the 2 s the seek passed over.
        #expect((10_000...12_000).contains(content.1), "content time, ms: \(content)")
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
        func count(_ key: String) -> Int { (ads[key] as? NSNumber)?.intValue ?? -1 }
        (expected, fired, delivered) = (count("expected"), count("fired"), count("delivered"))
        (duplicated, missed, unexpected) = (count("duplicated"), count("missed"), count("unexpected"))
        let beacons = root["beacons"] as? [[String: Any]] ?? []
        deliveredKeys = Set(beacons.compactMap { $0["state"] as? String == "delivered" ? $0["key"] as? String : nil })
        let items = root["qoe"] as? [String: [String: Any]] ?? [:]
        qoe = (items.values.first ?? [:]).compactMapValues { ($0 as? NSNumber)?.doubleValue }
    }

    func metric(_ name: String) -> Double? { qoe[name] }
}
#endif
