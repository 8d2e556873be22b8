import Foundation
import PlaytraceLab
import PlaytraceTestSupport
import Testing

/// The live terminal view as a person sees it, in a real terminal (tmux): drawn in place while the demo plays, and
/// gone, leaving a clean terminal, when Ctrl-C ends the session. Wall time, for a reason: a terminal is watched.
@Suite("The live terminal view", .serialized)
struct LiveViewTests {
    private static func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    @Test("The demo in a terminal: a progress bar, the variant, the ad under the playhead with its events; Ctrl-C leaves the summary, not the panel")
    func demoInATerminal() async throws {
        let report = CLITests.temporaryPath("live") + ".html"
        defer { try? FileManager.default.removeItem(atPath: report) }
        // At twice real time, the pre-roll lasts 2 s and the stitched break 4 s on the terminal: long enough to be
        // read on a loaded machine.
        let terminal = try await TmuxSession(Self.shellQuoted(CLITests.executable.path) + " --speed 2 --report " + report)
        defer { Task { await terminal.close() } }
        let screens = try await terminal.watch(timeout: .seconds(90)) { screen in
            (screen.contains("ad break ") && screen.contains(" · ad ") && screen.contains(" ✓")) || screen.contains("EXITED ")
        }
        let last = try #require(screens.last)
        let panels = screens.filter { $0.contains(" · buffer +") }.count
        #expect(!last.contains("EXITED "), "the session ended before an ad was seen playing; panels in \(panels) of \(screens.count) screens")
        try Data(last.utf8).write(to: HeadlessBrowser.artifactsDirectory.appendingPathComponent("live-view.txt"))
        #expect(last.contains("▶ Lab interstitials (1/2) · playing"), "\(last)")
        #expect(last.contains("▓") && last.contains(" / 00:01:20.000 · buffer +"), "the progress bar: \(last)")
        #expect(last.contains("variant "), "\(last)")
        #expect(last.contains("ad break ") && last.contains("impression ✓"), "the ad and its events: \(last)")
        // Drawn in place: one panel on the screen, not one per frame.
        #expect(last.components(separatedBy: "▶ Lab interstitials (1/2)").count == 2, "\(last)")

        try await terminal.send("C-c")
        let ended = try await terminal.watch(timeout: .seconds(60)) { $0.contains("EXITED ") }
        #expect(ended.last?.contains("EXITED 130") == true, "\(ended.last ?? "")")
        let history = try await terminal.screen(history: true)
        #expect(history.contains("Ctrl-C: ending the session"), "\(history)")
        #expect(history.contains("Summary") && history.contains("verdict: OK (interrupted)"), "\(history)")
        #expect(!history.contains(" · buffer +") && !history.contains("(1/2) · playing"), "no panel left behind: \(history)")
        #expect(FileManager.default.fileExists(atPath: report), "the report is written after Ctrl-C too")
        await terminal.close()
    }

    @Test("--plain in a terminal: the plain lines a pipe gets, no panel")
    func plainInATerminal() async throws {
        let terminal = try await TmuxSession(Self.shellQuoted(CLITests.executable.path)
            + " --speed 8 --stream vod --ads none --plain")
        defer { Task { await terminal.close() } }
        let screens = try await terminal.watch(timeout: .seconds(90)) { $0.contains("EXITED ") }
        #expect(screens.last?.contains("EXITED 0") == true, "\(screens.last ?? "")")
        let history = try await terminal.screen(history: true)
        #expect(!history.contains(" · buffer +") && !history.contains("▶ Lab VOD (1/2)"), "\(history)")
        #expect(history.contains("playing  00:00:"), "the status lines, printed: \(history)")
        await terminal.close()
    }

    @Test("probe in a terminal: one panel redrawn in place (the run's bar, viewers, startup, requests), then the summary")
    func probeInATerminal() async throws {
        let lab = LabServer(clock: ContinuousClock(), configuration: LabConfiguration(variants: LabConfiguration.loadLadder))
        let port = try await lab.start()
        let terminal = try await TmuxSession(Self.shellQuoted(CLITests.executable.path)
            + " probe http://127.0.0.1:\(port)/live/master.m3u8 --viewers 6 --ramp 2 --duration 8")
        defer { Task { await terminal.close() } }
        let screens = try await terminal.watch(timeout: .seconds(60)) { screen in
            screen.contains("6 showed a frame") && screen.contains("together ") || screen.contains("EXITED ")
        }
        let last = try #require(screens.last)
        #expect(!last.contains("EXITED "), "the probe ended before its panel showed every viewer playing")
        try Data(last.utf8).write(to: HeadlessBrowser.artifactsDirectory.appendingPathComponent("probe-panel.txt"))
        #expect(last.contains("probe [▓") && last.contains("█"), "the run's bar: \(last)")
        #expect(last.contains("viewers   6 active · 6/6 started"), "\(last)")
        #expect(last.contains("startup   p50 ") && last.contains("requests  ") && last.contains(" segment"), "\(last)")
        #expect(last.components(separatedBy: "viewers   ").count == 2, "drawn in place, once: \(last)")
        let ended = try await terminal.watch(timeout: .seconds(60)) { $0.contains("EXITED ") }
        await lab.stop()
        #expect(ended.last?.contains("EXITED 0") == true, "\(ended.last ?? "")")
        let history = try await terminal.screen(history: true)
        #expect(history.contains("Probe summary") && history.contains("verdict: OK"), "\(history)")
        #expect(!history.contains("showed a frame"), "no panel left behind: \(history)")
        await terminal.close()
    }
}
