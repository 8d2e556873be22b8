#if MPV
import Foundation
import PlaytraceEngineConformance
import PlaytraceLab
import PlaytraceTestSupport
import Testing

/// `playtrace play` and `playtrace demo` with `--engine mpv`, built with the trait, decoding the lab's real media.
@Suite("The command line on libmpv", .serialized)
struct MPVCommandLineTests {
    @Test("play --engine mpv decodes a lab stream, follows a scripted seek, and summarizes its QoE")
    func playDecodes() async throws {
        let (lab, url) = try await MPVEngineTests.startMediaLab()
        let run = try await CommandRunner.run(["play", "--engine", "mpv", "--script", "at 2 seek 9", url.absoluteString])
        await lab.stop()
        #expect(run.status == 0, "stderr: \(run.error)")
        #expect(run.output.contains("played to the end"), "\(run.output)")
        #expect(run.output.contains("script: at 00:00:02"), "\(run.output)")
        // 2 s played before the seek and 3 after it: the watched time says what was decoded and shown.
        let watched = Self.seconds(after: "WatchedTime", in: run.output)
        #expect(watched.map { (4.5...5.8).contains($0) } == true, "\(run.output)")
        #expect(lab.requests.all.contains { $0.path == "/media/vod/seg5.ts" }, "libmpv fetched the segments itself")
    }

    @Test("play --engine mpv tracks a stitched break and VAST interstitials: every beacon once, from decoded frames")
    func playTracksInterstitials() async throws {
        let (lab, url) = try await MPVEngineTests.startMediaLab(path: "/ssai/harmonic/vast-interstitials/master.m3u8")
        // The pre-roll, the stitched break (8 to 16 s), mid-1 (at 20 s, resuming at 32 s); stopped at 33 s.
        let run = try await CommandRunner.run(["play", "--engine", "mpv", "--ads", "harmonic", "--script", "at 33 stop",
                                               url.absoluteString])
        await lab.stop()
        #expect(run.status == 0, "stderr: \(run.error)")
        #expect(run.output.contains("interstitial pre played") && run.output.contains("interstitial mid-1 played"), "\(run.output)")
        #expect(run.output.contains("ad break break-1 (daterange-scte35"), "\(run.output)")
        // What the session's stitched break and the VAST ads of the pre-roll and mid-1 call for (the headless engine
        // fires the same 42 for the same script).
        #expect(run.output.contains("42 expected, 42 fired, 42 delivered, 0 failed"), "\(run.output)")
        // Each fired beacon reached the lab: a VAST wrapper's URLs serve each ad of its pod, so some come twice; the
        // stitched break's two ads, six events each, came once each.
        #expect(lab.beacons.all.count >= 42)
        let stitched = lab.beacons.accepted(under: "/beacons/harmonic/").map(\.path)
        #expect(stitched.count == 12 && Set(stitched).count == 12, "the stitched break's beacons, each once: \(stitched)")
        // The assets libmpv played are the lab's ad media, and the break's segments the session's.
        #expect(lab.requests.all.contains { $0.path.hasPrefix("/ads/") && $0.path.hasSuffix(".ts") })
        #expect(lab.requests.all.contains { $0.path.hasPrefix("/ssai/harmonic/vast-interstitials/") && $0.path.hasSuffix("/seg2.ts") })
        let content = Self.seconds(after: "ContentPlaybackTime", in: run.output)
        // 0 to 8, 16 to 20 and 32 to 33 s: the stitched break and the interstitials are not content. Content libmpv
        // leapt over on its own (a forward timestamp jump the engine reports, seen once under the suite's load right
        // after the pre-roll) was not played, and is not counted.
        let leapt = Self.timestampJumps(in: run.output).filter { $0 > 0 }.reduce(0, +)
        #expect(content.map { (12 - leapt...14).contains($0) } == true, "leapt \(leapt) s: \(run.output)")
    }

    @Test("The demo on libmpv plays the lab's on-demand stream decoded, its ads tracked and its blocked range left out")
    func demoDecodes() async throws {
        let run = try await CommandRunner.run(["demo", "--engine", "mpv", "--stream", "vod", "--media-dir", EngineConformance.mediaDirectory])
        #expect(run.status == 0, "stderr: \(run.error)")
        #expect(run.output.contains("on libmpv (real media, decoded)"), "\(run.output)")
        #expect(run.output.contains("played to the end"), "\(run.output)")
        #expect(!run.output.contains("Lab fMP4"), "the synthetic fMP4 stream is not for a decoder")
        #expect(run.output.contains("fired once and were delivered"), "\(run.output)")
    }

    @Test("libmpv decodes in real time: the demo refuses another speed in one line")
    func demoRefusesASpeed() async throws {
        let run = try await CommandRunner.run(["demo", "--engine", "mpv", "--speed", "4"])
        #expect(run.status == 64)
        #expect(run.error.split(separator: "\n").first?.contains("--speed must be 1") == true, "\(run.error)")
    }

    /// The number of seconds a summary line starting with `label` gives (`WatchedTime  9.91 s`).
    /// The jumps of the media's timestamps the engine reported (`the media's timestamps jump by +2.00 s after …`).
    static func timestampJumps(in output: String) -> [Double] {
        output.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "timestamps jump by ") else { return nil }
            return line[range.upperBound...].split(separator: " ").first.flatMap { Double($0) }
        }
    }

    static func seconds(after label: String, in output: String) -> Double? {
        guard let line = output.split(separator: "\n").first(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) })
        else { return nil }
        return line.split(separator: " ").compactMap { Double($0) }.first
    }
}
#endif
