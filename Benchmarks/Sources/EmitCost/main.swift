// What an event costs the thread that emits it, with the real InfluxDB backend batching into a real Outbox (an
// SQLite file, gzip) that delivers to a loopback HTTP sink (the lab's) in the background: the thread a player's
// tracker runs on (the main actor) must never wait for compression, SQLite or the network.
//
//   EmitCost [EVENTS]   emits EVENTS events (20,000 by default) of a session's mix, 100 µs of real time apart so
//                       that the background work runs between them as it would in a session, timing each emit on
//                       the emitting thread; prints p50/p99/p99.9/max over all events and over the events that close
//                       a batch (Start, Error, End, Stop, Next hand their batch to the Outbox at once), then waits for
//                       the Outbox to deliver everything and checks that nothing was lost.
import Foundation
import PlaytraceCore
import PlaytraceBackends
import PlaytraceLab
import PlaytraceNetwork
import PlaytraceTelemetry
import TelemetryBenchmarkSupport

let count = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 20_000
let lab = LabServer(clock: ContinuousClock())
let port = try await lab.start()
let transport = AsyncHTTPClientTransport(clock: ContinuousClock())
let path = FileManager.default.temporaryDirectory.appendingPathComponent("emit-cost-\(UUID().uuidString).sqlite").path
defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
let outbox = try Outbox(path: path, couriers: [InfluxDBBackend.courier(transport: transport)])
await outbox.start()
let configuration = InfluxDBBackend.Configuration(url: URL(string: "http://127.0.0.1:\(port)/sink/influx")!,
                                                  api: .v1(database: "playtrace"))
let influx = InfluxDBBackend(configuration: configuration, outbox: outbox)
let instrument = Instrument(hub: HubCore(), metricalc: MetricalcCore(), backends: [influx], clock: ContinuousClock())
let tracker = instrument.addTracker(StreamTracker())
instrument.ready()

/// The CPU time this thread has used: unlike the wall clock, it leaves out the time the thread waited while other
/// threads (the background delivery, on a machine with few cores) ran.
func threadCPUTime() -> Duration {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
}

let closingBatch: Set<String> = ["Start", "Error", "End", "Stop", "Next"]
var all: [Duration] = []
var closing: [Duration] = []
var allCPU: [Duration] = []
var closingCPU: [Duration] = []
all.reserveCapacity(count)
allCPU.reserveCapacity(count)
let clock = ContinuousClock()
for index in 0..<count {
    let action = sessionCycle[index % sessionCycle.count]
    let start = clock.now
    let cpuStart = threadCPUTime()
    instrument.emit(action, tracker: tracker)
    let cpu = threadCPUTime() - cpuStart
    let spent = start.duration(to: clock.now)
    all.append(spent)
    allCPU.append(cpu)
    if closingBatch.contains(action.name) {
        closing.append(spent)
        closingCPU.append(cpu)
    }
    // The next event comes 100 µs later (busy-waiting: a sleep would give the thread away for far longer).
    let next = start.advanced(by: .microseconds(100))
    while clock.now < next {}
}
instrument.shutdown()
let drain = await outbox.drain(within: .seconds(30))
let statistics = try await outbox.statistics()
await outbox.stop()
try await transport.shutdown()
await lab.stop()

func describe(_ durations: [Duration]) -> String {
    let sorted = durations.sorted()
    func at(_ quantile: Double) -> String {
        let value = sorted[min(sorted.count - 1, Int(Double(sorted.count) * quantile))]
        return String(format: "%.1f µs", value.seconds * 1e6)
    }
    return "p50 \(at(0.5)), p99 \(at(0.99)), p99.9 \(at(0.999)), max \(at(1.0)) (\(sorted.count) events)"
}
print("emitting thread, every event, wall time: " + describe(all))
print("emitting thread, every event, its CPU time: " + describe(allCPU))
print("emitting thread, events that hand a batch to the Outbox, wall time: " + describe(closing))
print("emitting thread, events that hand a batch to the Outbox, its CPU time: " + describe(closingCPU))
print("outbox: \(statistics.enqueued) batches stored, \(statistics.delivered) delivered, \(drain.pending) waiting, "
    + "\(drain.lost) lost")
guard drain.pending == 0, drain.lost == 0, statistics.delivered == statistics.enqueued else {
    FileHandle.standardError.write(Data("EmitCost: batches were not all delivered\n".utf8))
    exit(1)
}
