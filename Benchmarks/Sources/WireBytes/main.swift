// Bytes per minute on the wire for a playing session sending telemetry to InfluxDB: a 20-minute session (heartbeat
// every 30 s, a pause, quality changes every 2 minutes) through the instrument, HubCore, MetricalcCore and the
// InfluxDB backend (gzip), delivered by the outbox to a courier that counts the bodies and the request heads the
// HTTP client would send. Target: under 2 KB per minute.
import Clocks
import Foundation
import PlaytraceBackends
import PlaytraceCore
import PlaytraceNetwork
import PlaytraceTelemetry
import Synchronization
import TelemetryBenchmarkSupport

/// Counts what would go on the wire: each body, and an HTTP/1.1 request head like the client's.
final class CountingCourier: OutboxCourier {
    let name = InfluxDBBackend.destination
    let totals = Mutex((requests: 0, bodyBytes: 0, headBytes: 0, rawBytes: 0))

    func deliver(_ message: OutboxMessage) async -> DeliveryOutcome {
        let url = URL(string: message.metadata["url"] ?? "")
        var head = "POST \(url?.path ?? "/")?\(url?.query ?? "") HTTP/1.1\r\nHost: \(url?.host ?? "localhost"):8086\r\n"
        head += "Idempotency-Key: \(message.key)\r\nContent-Length: \(message.payload.count)\r\n"
        for (key, value) in message.metadata where key.hasPrefix("header.") {
            head += "\(key.dropFirst("header.".count)): \(value)\r\n"
        }
        head += "User-Agent: async-http-client\r\nConnection: keep-alive\r\n\r\n"
        let raw: Int
        do { raw = try Gzip.decompress(message.payload).count } catch { return .reject("not gzip: \(error)") }
        totals.withLock {
            $0.requests += 1
            $0.bodyBytes += message.payload.count
            $0.headBytes += head.utf8.count
            $0.rawBytes += raw
        }
        return .delivered
    }
}

@MainActor
func measure(flushInterval: Duration, minutes: Int) async throws -> (requests: Int, body: Int, head: Int, raw: Int) {
    let clock = TestClock<Duration>()
    let courier = CountingCourier()
    let outbox = try Outbox(path: nil, couriers: [courier], clock: clock)
    var configuration = InfluxDBBackend.Configuration(url: URL(string: "http://127.0.0.1:8086")!,
                                                      api: .v1(database: "playtrace"))
    configuration.flushInterval = flushInterval
    let influx = InfluxDBBackend(configuration: configuration, outbox: outbox)
    let instrument = Instrument(hub: HubCore(pingInterval: .seconds(30)), metricalc: MetricalcCore(),
                                backends: [influx], clock: clock)
    let tracker = instrument.addTracker(StreamTracker())
    instrument.ready()
    func settle() async { for _ in 0..<20 { await Task.yield() } }
    await settle()
    instrument.emit(.mediaRequest, tracker: tracker)
    instrument.emit(.streamLoad, tracker: tracker)
    instrument.emit(.start, tracker: tracker)
    await settle()
    for second in 1...(minutes * 60) {
        await clock.advance(by: .seconds(1))
        await settle()
        if second % 120 == 0 { instrument.emit(.qualityChangeUp, tracker: tracker) }
        if second == 300 { instrument.emit(.pauseBegin, tracker: tracker) }
        if second == 330 { instrument.emit(.pauseFinish, tracker: tracker) }
    }
    instrument.emit(.end, tracker: tracker)
    instrument.shutdown()
    await outbox.flush()
    let totals = courier.totals.withLock { $0 }
    return (totals.requests, totals.bodyBytes, totals.headBytes, totals.rawBytes)
}

Task { @MainActor in
    let minutes = 20
    for interval in [5, 30, 60] {
        do {
            let result = try await measure(flushInterval: .seconds(interval), minutes: minutes)
            let perMinute = Double(result.body + result.head) / Double(minutes)
            print("flush every \(interval) s: \(result.requests) requests, "
                + String(format: "%.0f B/min on the wire (bodies %.0f B/min gzip, %.0f B/min before gzip; heads %.0f B/min)",
                         perMinute, Double(result.body) / Double(minutes), Double(result.raw) / Double(minutes),
                         Double(result.head) / Double(minutes)))
        } catch {
            print("measurement failed: \(error)")
        }
    }
    exit(0)
}
RunLoop.main.run()
