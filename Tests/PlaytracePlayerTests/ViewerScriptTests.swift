import Foundation
import PlaytraceCore
import PlaytracePlayer
import Testing

@Suite("Viewer script: parsing")
struct ViewerScriptParsingTests {
    @Test("Actions in order, separated by ';', any spacing, a trailing ';' allowed")
    func parses() throws {
        let script = try ViewerScript(parsing: " at 10 pause 2;at 12.5 seek 30 ;  at 31 mute; at 33 UNMUTE; at 35 rate 1.5; at 40 stop; ")
        #expect(script.steps == [
            .init(time: 10, action: .pause(seconds: 2)), .init(time: 12.5, action: .seek(to: 30)),
            .init(time: 31, action: .mute), .init(time: 33, action: .unmute), .init(time: 35, action: .rate(1.5)),
            .init(time: 40, action: .stop),
        ])
    }

    @Test("Each mistake is named with its action and what is wrong", arguments: [
        ("", "the script: the script has no action"),
        ("at 10 dance", "action 1 ('at 10 dance'): 'dance' is not an action (pause D, seek S, mute, unmute, rate R, skip, stop)"),
        ("at 5 jump 3", "action 1 ('at 5 jump 3'): 'jump' is not an action (pause D, seek S, mute, unmute, rate R, skip, stop)"),
        ("at 1 mute; when 5 mute", "action 2 ('when 5 mute'): an action begins with 'at T' (or 'in ID at T' inside an interstitial)"),
        ("in", "action 1 ('in'): 'in' needs an interstitial's ID: in ID at T …"),
        ("in pod-2 3 mute", "action 1 ('in pod-2 3 mute'): 'in pod-2' is followed by 'at T'"),
        ("at 4 pause 1 2", "action 1 ('at 4 pause 1 2'): '2' is extra: pause D (seconds) takes one value"),
        ("at x mute", "action 1 ('at x mute'): 'x' is not a number of seconds"),
        ("at -3 mute", "action 1 ('at -3 mute'): '-3' is not a number of seconds"),
        ("at 4 pause", "action 1 ('at 4 pause'): pause needs its duration in seconds: pause D"),
        ("at 4 pause 0", "action 1 ('at 4 pause 0'): '0' is not a positive number of seconds"),
        ("at 4 seek nan", "action 1 ('at 4 seek nan'): 'nan' is not a position in seconds"),
        ("at 4 rate 0", "action 1 ('at 4 rate 0'): '0' is not a speed between 0 and 16"),
        ("at 4 mute now", "action 1 ('at 4 mute now'): 'now' is extra: mute takes no value"),
        ("at 4", "action 1 ('at 4'): an action is 'at T' then pause D, seek S, mute, unmute, rate R, skip or stop"),
    ])
    func errors(text: String, message: String) {
        #expect(throws: ViewerScriptError.self) { try ViewerScript(parsing: text) }
        do {
            _ = try ViewerScript(parsing: text)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("'in ID at T' puts an action on an interstitial's timeline")
    func insideAnInterstitial() throws {
        let script = try ViewerScript(parsing: "at 20 mute; in pod-2 at 3 pause 1; IN pod-2 AT 5 unmute")
        #expect(script.steps == [
            .init(time: 20, action: .mute), .init(time: 3, action: .pause(seconds: 1), interstitial: "pod-2"),
            .init(time: 5, action: .unmute, interstitial: "pod-2"),
        ])
    }

    @Test("A script longer than the limit is refused at once, whatever it holds")
    func tooLong() {
        let text = String(repeating: "at 1 mute;", count: ViewerScript.maximumLength / 10 + 1)
        #expect { try ViewerScript(parsing: text) } throws: { error in
            (error as? ViewerScriptError)?.description == "the script: the script is longer than 65536 bytes"
        }
    }
}

@Suite("Viewer script: a Player driven by it", .serialized)
@MainActor
struct ViewerScriptRunnerTests {
    @Test("Each action at its time, in order: the pause lasts its seconds, the seek completes before the next action")
    func runs() async throws {
        let script = try ViewerScript(parsing: "at 2.25 pause 1.5; at 3 seek 20; at 21.05 mute; at 22 unmute; at 23 stop")
        let h = try await PlayerHarness()
        let runner = ViewerScriptRunner(script: script, clock: h.clock)
        let stopwatch = Stopwatch(clock: h.clock)
        var performed: [(ViewerScript.Action, Double, Double)] = []
        runner.onAction = { step, time in performed.append((step.action, time.seconds, stopwatch.elapsedSeconds)) }
        h.player.append(PlayerItem.simple(url: h.url("vod/master.m3u8"), metadata: TestMetadata(title: "A"),
                                          trackerAdapters: [ViewerScriptTracker.adapter(configuration: runner) { _ in () }]))
        h.player.play()
        await h.advance(until: { runner.stopRequested }, limit: .seconds(60))
        #expect(performed.map(\.0) == [.pause(seconds: 1.5), .seek(to: 20), .mute, .unmute, .stop])
        // Each action happens when the playhead gets to its time, not at a later check.
        for (action, time, _) in performed where action != .seek(to: 20) {
            let expected = script.steps.first { $0.action == action }!.time
            #expect(time >= expected && time - expected < 0.002, "\(action) at \(time)")
        }
        // Paused at 2.25 s for 1.5 s, then played to 3 s: the seek came 2.25 s of clock time after the pause.
        #expect(abs(performed[1].2 - performed[0].2 - 2.25) < 0.01, "\(performed[1].2 - performed[0].2)")
        #expect(h.player.isMuted == false)
        await h.shutdown()
    }
}
