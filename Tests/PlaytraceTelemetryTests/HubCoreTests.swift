import Foundation
import PlaytraceCore
import PlaytraceTelemetry
import PlaytraceTestSupport
import Testing

@Suite("HubCore")
struct HubCoreTests {
    @Test("A playback: initial buffer, pause, rebuffer, a buffer inside a seek, and the end")
    func playback() async {
        let h = TelemetryHarness(hub: HubCore(pingInterval: .zero))
        h.emit(.mediaRequest)
        await h.advance(.milliseconds(100))
        h.emit(.streamLoad)
        h.emit(.bufferBegin)
        await h.advance(.milliseconds(400))
        h.emit(.bufferFinish)
        h.emit(.start)
        await h.advance(.seconds(10))
        h.emit(.pauseBegin)
        await h.advance(.seconds(5))
        h.emit(.pauseFinish)
        await h.advance(.seconds(2))
        h.emit(.bufferBegin)
        await h.advance(.seconds(1))
        h.emit(.bufferFinish)
        h.emit(.seekBegin)
        h.emit(.bufferBegin)
        await h.advance(.milliseconds(300))
        h.emit(.bufferFinish)
        h.emit(.seekFinish)
        await h.advance(.seconds(3))
        h.emit(.end)
        #expect(h.backend.actions == ["MediaRequest", "StreamLoad", "BufferBegin", "BufferFinish", "Start", "PauseBegin",
                                      "PauseFinish", "BufferBegin", "BufferFinish", "SeekBegin", "BufferBegin",
                                      "BufferFinish", "SeekFinish", "End"])
        let buffers = h.backend.events.filter { $0.action == .bufferFinish }.map { $0[.bufferType] }
        #expect(buffers == [.string("initial"), .string("rebuffer"), .string("inBlock")])
        let end = try! #require(h.backend.last(.end))
        #expect(end[.accumPlayTime] == .int(15_000), "10 s + 2 s + 3 s of content")
        #expect(end[.accumPauseTime] == .int(5_000))
        #expect(end[.accumBufferTime] == .int(1_700))
        #expect(end[.accumSeekTime] == .int(300))
        #expect(end[.countStarts] == .int(1))
        #expect(end[.endReason] == .string("end"))
        #expect(end[Action.start.timeAttribute] == .int(21_300))
        #expect(end[Action.mediaRequest.timeAttribute] == .int(21_800))
        #expect(end[.deltaPlayTime] == .int(3_000))
        #expect(end[.inPlaybackBlock] == .bool(false))
        #expect(end.date == StreamDate(secondsSince1970: 1_800_000_021.8))
    }

    @Test("Everything per playback resets with the next one")
    func secondPlaybackStartsClean() async {
        let h = TelemetryHarness(hub: HubCore(pingInterval: .zero))
        h.emit(.mediaRequest)
        h.emit(.streamLoad)
        h.emit(.start)
        await h.advance(.seconds(5))
        h.emit(.error)
        h.emit(.end)
        await h.advance(.seconds(2))
        h.emit(.mediaRequest)
        await h.advance(.milliseconds(700))
        h.emit(.streamLoad)
        h.emit(.start)
        let starts = h.backend.events.filter { $0.action == .start }
        #expect(starts.count == 2)
        #expect(starts[1][.countStarts] == .int(1))
        #expect(starts[1][.countErrors] == .int(0))
        #expect(starts[1][.accumPlayTime] == .int(0))
        #expect(starts[1][Action.mediaRequest.timeAttribute] == .int(700), "measured from this playback's request")
        #expect(starts[1][Action.end.timeAttribute] == nil, "nothing of the previous playback leaks")
        #expect(starts[0][.playbackId] != starts[1][.playbackId])
        #expect(h.backend.events.filter { $0.action == .streamLoad }.count == 2, "the second StreamLoad passes")
    }

    @Test("Stop before Start closes the abandoned playback; events out of order are dropped")
    func abandonedAndOutOfOrder() {
        let h = TelemetryHarness(hub: HubCore(pingInterval: .zero))
        h.emit(.stop)
        h.emit(.pauseFinish)
        h.emit(.mediaRequest)
        h.emit(.mediaRequest)
        h.emit(.pauseBegin)
        h.emit(.bufferFinish)
        h.emit(.stop)
        h.emit(.end)
        h.emit(.error)
        #expect(h.backend.actions == ["MediaRequest", "Stop", "Error"])
        #expect(h.backend.last(.stop)?[.endReason] == .string("abandoned"))
    }

    @Test("The heartbeat runs from Start to the end on the clock, silent while paused")
    func heartbeat() async {
        let h = TelemetryHarness(hub: HubCore(pingInterval: .seconds(30)))
        h.emit(.mediaRequest)
        h.emit(.start)
        await h.settle()   // the heartbeat's timer starts waiting on the clock
        for _ in 0..<3 { await h.advance(.seconds(10)) }
        await h.settle()
        #expect(h.backend.actions.filter { $0 == "Ping" }.count == 1)
        h.emit(.pauseBegin)
        for _ in 0..<3 { await h.advance(.seconds(10)) }
        await h.settle()
        #expect(h.backend.actions.filter { $0 == "Ping" }.count == 1, "no heartbeat while paused")
        h.emit(.pauseFinish)
        for _ in 0..<3 { await h.advance(.seconds(10)) }
        await h.settle()
        #expect(h.backend.actions.filter { $0 == "Ping" }.count == 2)
        h.emit(.end)
        for _ in 0..<6 { await h.advance(.seconds(10)) }
        await h.settle()
        #expect(h.backend.actions.filter { $0 == "Ping" }.count == 2, "none after the end")
        #expect(h.backend.last(.ping)?[.deltaPlayTime] == .int(30_000))
    }

    @Test("Each playback's first heartbeat comes one interval after its own Start, the next playback's soon after an end or long after")
    func heartbeatAcrossPlaybacks() async {
        let h = TelemetryHarness(hub: HubCore(pingInterval: .seconds(30)))
        func pings() -> Int { h.backend.actions.filter { $0 == "Ping" }.count }
        h.emit(.mediaRequest)
        h.emit(.start)
        await h.settle()
        await h.advance(.seconds(20))
        h.emit(.end)
        await h.advance(.seconds(5))
        // The next playback starts while the first one's heartbeat still waits for its time (25 s from now).
        h.emit(.mediaRequest)
        h.emit(.start)
        await h.settle()
        await h.advance(.seconds(25))
        await h.settle()
        #expect(pings() == 0, "not at the first playback's time")
        await h.advance(.seconds(5))
        await h.settle()
        #expect(pings() == 1, "30 s after the second Start")
        await h.advance(.seconds(30))
        await h.settle()
        #expect(pings() == 2)
        h.emit(.stop)
        for _ in 0..<10 { await h.advance(.seconds(30)) }
        await h.settle()
        #expect(pings() == 2, "none after the end, however long")
        // Long after: a new playback gets a heartbeat of its own.
        h.emit(.mediaRequest)
        h.emit(.start)
        await h.settle()
        await h.advance(.seconds(29))
        await h.settle()
        #expect(pings() == 2)
        await h.advance(.seconds(1))
        await h.settle()
        #expect(pings() == 3)
    }

    @Test("Emits from many threads at once all arrive, each event whole")
    func concurrentEmits() async {
        let h = TelemetryHarness(hub: nil)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<1_000 { h.emit(.ping, [(.position, 1)]) } }
            }
        }
        #expect(h.backend.events.count == 8_000)
        #expect(h.backend.events.allSatisfy { $0[.position] == .int(1) && $0[.senderId] != nil })
    }

    @Test("Emits from many threads at once: each thread's events arrive in the order it emitted them")
    func concurrentEmitsKeepEachThreadsOrder() async {
        let h = TelemetryHarness(hub: nil)
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<8 {
                group.addTask { for index in 0..<2_000 { h.emit(.ping, [(.position, .int(thread * 100_000 + index))]) } }
            }
        }
        let positions = h.backend.events.compactMap { $0[.position]?.int }
        #expect(positions.count == 16_000)
        for thread in 0..<8 {
            let own = positions.filter { $0 / 100_000 == thread }
            #expect(own == Array(thread * 100_000..<thread * 100_000 + 2_000))
        }
    }
}

extension TelemetryHarness {
    /// Lets tasks woken by the clock run (the heartbeat's): a few yields and real milliseconds, so that a task
    /// scheduled on another thread gets there too.
    func settle() async {
        for _ in 0..<5 {
            for _ in 0..<10 { await Task.yield() }
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
}
