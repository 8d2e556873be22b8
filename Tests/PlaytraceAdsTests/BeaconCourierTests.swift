import Foundation
import PlaytraceAds
import PlaytraceCore
import PlaytraceLab
import PlaytraceNetwork
import Testing

/// Beacons through the Outbox to the lab's beacon sink over real HTTP on loopback. The Outbox runs on the
/// continuous clock with a 10 ms backoff: the waits are the lab's and the sockets', a few milliseconds each.
@Suite("Beacon delivery to the lab's beacon sink", .serialized)
struct BeaconCourierTests {
    final class Attempts: Sendable {
        private let list = Locked<[BeaconAttempt]>([])
        func add(_ attempt: BeaconAttempt) { list.withLock { $0.append(attempt) } }
        var all: [BeaconAttempt] { list.withLock { $0 } }
    }

    private func outbox(_ courier: BeaconCourier) throws -> Outbox {
        var configuration = OutboxConfiguration()
        configuration.initialBackoff = .milliseconds(10)
        configuration.maximumBackoff = .milliseconds(20)
        return try Outbox(path: nil, couriers: [courier], configuration: configuration)
    }

    private func message(_ key: String, _ url: String) -> OutboxMessage {
        OutboxMessage(key: key, destination: BeaconCourier.destination, payload: [], metadata: ["url": url])
    }

    @Test("http is requested once; about:blank counts without a request; ftp: and javascript: are refused")
    func schemes() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let transport = AsyncHTTPClientTransport(clock: ContinuousClock())
        let attempts = Attempts()
        let outbox = try outbox(BeaconCourier(transport: transport, report: attempts.add))
        try await outbox.persist(message("imp/0", "http://127.0.0.1:\(port)/beacons/p/a/impression?cb=12345678"))
        try await outbox.persist(message("imp/1", "about:blank"))
        try await outbox.persist(message("imp/2", "ftp://127.0.0.1:\(port)/beacons/x"))
        try await outbox.persist(message("imp/3", "javascript:alert(1)"))
        let drain = await outbox.drain(within: .seconds(10))
        #expect(drain.pending == 0)
        #expect(lab.beacons.all.map(\.path) == ["/beacons/p/a/impression"])
        #expect(lab.beacons.all.first?.query == "cb=12345678")
        let outcomes = Dictionary(attempts.all.map { ($0.key, $0.outcome) }, uniquingKeysWith: { $1 })
        #expect(outcomes["imp/0"] == .delivered && outcomes["imp/1"] == .delivered)
        #expect(outcomes["imp/2"] == .reject("the ftp: scheme is never requested"))
        #expect(outcomes["imp/3"] == .reject("the javascript: scheme is never requested"))
        // The sink's record, as a script reads it.
        let listing = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/lab/beacons")!, timeout: .seconds(5)))
        let hits = try JSONDecoder().decode(LabLogDocument<BeaconHit>.self, from: Data(listing.body))
        #expect(hits.schemaVersion == 1 && hits.dropped == 0)
        #expect(hits.entries.map(\.path) == ["/beacons/p/a/impression"])
        try await transport.shutdown()
        await lab.stop()
    }

    @Test("The beacon server failing, then answering: retried until delivered, one accepted hit")
    func serverDownThenUp() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        lab.faults.add(LabFault(pathContains: "/beacons/", kind: .status(503), remaining: 2))
        let transport = AsyncHTTPClientTransport(clock: ContinuousClock())
        let attempts = Attempts()
        let outbox = try outbox(BeaconCourier(transport: transport, report: attempts.add))
        try await outbox.persist(message("q1/0", "http://127.0.0.1:\(port)/beacons/p/a/firstQuartile"))
        let drain = await outbox.drain(within: .seconds(10))
        #expect(drain.pending == 0)
        #expect(attempts.all.map(\.attempt) == [1, 2, 3])
        #expect(attempts.all.map(\.status) == [503, 503, 200])
        #expect(lab.beacons.accepted().count == 1)
        try await transport.shutdown()
        await lab.stop()
    }

    @Test("A beacon server's Retry-After on a 429 is honoured: the retry waits for it (here 1 s, the backoff being 10 ms)")
    func retryAfter() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        lab.faults.add(LabFault(pathContains: "/beacons/", kind: .retryAfter(status: 429, value: "1"), remaining: 1))
        let transport = AsyncHTTPClientTransport(clock: ContinuousClock())
        let attempts = Attempts()
        let outbox = try outbox(BeaconCourier(transport: transport, report: attempts.add))
        try await outbox.persist(message("s/0", "http://127.0.0.1:\(port)/beacons/p/a/start"))
        let drain = await outbox.drain(within: .seconds(10))
        #expect(drain.pending == 0)
        #expect(attempts.all.map(\.status) == [429, 200])
        let hits = lab.requests.all.filter { $0.path == "/beacons/p/a/start" }.map(\.receivedAt)
        #expect(hits.count == 2 && hits[1] - hits[0] >= .milliseconds(990), "\(hits)")
        try await transport.shutdown()
        await lab.stop()
    }

    /// Enqueues `urls` in order; returns when each was first delivered, after its enqueueing, by URL.
    private func deliveryTimes(_ outbox: Outbox, _ attempts: Attempts, urls: [String],
                               until done: (Int) -> Bool) async throws -> [String: Duration] {
        await outbox.start()
        let begun = ContinuousClock.now
        for (index, url) in urls.enumerated() { try await outbox.persist(message("m/\(index)", url)) }
        var arrivals: [String: Duration] = [:]
        let deadline = begun + .seconds(20)
        while ContinuousClock.now < deadline {
            for attempt in attempts.all where attempt.outcome == .delivered && arrivals[attempt.url] == nil {
                arrivals[attempt.url] = begun.duration(to: .now)
            }
            if done(arrivals.count) { break }
            try await Task.sleep(for: .milliseconds(2))
        }
        return arrivals
    }

    @Test("A vendor that does not answer holds back none of the other vendor's beacons (each delivered within 1 s)")
    func deadVendorIsolated() async throws {
        let healthy = LabServer(clock: ContinuousClock())
        let dead = LabServer(clock: ContinuousClock())
        let (healthyPort, deadPort) = (try await healthy.start(), try await dead.start())
        // The dead vendor answers nothing for 30 s: each attempt runs into the courier's deadline.
        dead.faults.add(LabFault(pathContains: "/beacons/", kind: .delay(milliseconds: 30_000), remaining: 1_000))
        let transport = AsyncHTTPClientTransport(clock: ContinuousClock())
        let attempts = Attempts()
        var configuration = OutboxConfiguration()
        configuration.initialBackoff = .seconds(1)
        let outbox = try Outbox(path: nil, couriers: [BeaconCourier(transport: transport, timeout: .seconds(5),
                                                                    report: attempts.add)], configuration: configuration)
        // Ten dead URLs first (more than the six per host that may run at once), each followed by a healthy one.
        let urls = (0..<10).flatMap { index in
            ["http://127.0.0.1:\(deadPort)/beacons/p/a/e\(index)", "http://127.0.0.1:\(healthyPort)/beacons/p/a/e\(index)"]
        }
        let arrivals = try await deliveryTimes(outbox, attempts, urls: urls) { $0 == 10 }
        // The dead vendor's other four URLs wait for one of its six attempts to end: the outbox sleeps meanwhile
        // (it once woke without pause, a core's worth of CPU, for messages due but held back by their host's limit).
        let wakes = await outbox.loopWakes
        try await Task.sleep(for: .milliseconds(500))
        let woke = await outbox.loopWakes - wakes
        #expect(woke <= 2, "the outbox's loop woke \(woke) times in 0.5 s")
        await outbox.stop()
        let healthyTimes = urls.filter { $0.contains(":\(healthyPort)/") }.map { arrivals[$0] }
        // Alone they arrive within 0.3 s; the bound leaves room for a loaded machine and stays far below the 5 s
        // a dead attempt lasts (in order, none arrived in 20 s).
        #expect(healthyTimes.allSatisfy { ($0 ?? .seconds(99)) < .seconds(1) }, "\(healthyTimes)")
        #expect(healthy.beacons.accepted().count == 10)
        try await transport.shutdown()
        await healthy.stop()
        await dead.stop()
    }

    @Test("Three failures per URL: every URL is retried on its own schedule (0.1, 0.2, 0.4 s, jitter halving at most), none waits for another's")
    func retriesIndependent() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let urls = (0..<6).map { "http://127.0.0.1:\(port)/beacons/p/a/event\($0)" }
        for index in 0..<6 { lab.faults.add(LabFault(pathContains: "/event\(index)", kind: .status(503), remaining: 3)) }
        let transport = AsyncHTTPClientTransport(clock: ContinuousClock())
        let attempts = Attempts()
        var configuration = OutboxConfiguration()
        configuration.initialBackoff = .milliseconds(100)
        let outbox = try Outbox(path: nil, couriers: [BeaconCourier(transport: transport, report: attempts.add)],
                                configuration: configuration)
        let arrivals = try await deliveryTimes(outbox, attempts, urls: urls) { $0 == 6 }
        await outbox.stop()
        // Each URL's fourth attempt comes after 0.35 to 0.7 s of backoff. In order, behind one another, each would
        // wait for the ones before: the last at least 2.1 s, and 1.75 s at least between the first and the last.
        // Together they arrive within the jitter of one another (the bounds leave a loaded machine room).
        let times = urls.map { arrivals[$0] ?? .seconds(99) }
        let history = Dictionary(grouping: attempts.all, by: \.url).mapValues { $0.map { "\($0.attempt):\($0.outcome)" } }
        #expect(times.allSatisfy { $0 >= .milliseconds(340) && $0 < .seconds(2) }, "\(times) \(history)")
        #expect(times.max()! - times.min()! < .seconds(1), "\(times) \(history)")
        #expect(Dictionary(grouping: attempts.all, by: \.url).values.allSatisfy { $0.map(\.attempt) == [1, 2, 3, 4] },
                "\(history)")
        try await transport.shutdown()
        await lab.stop()
    }

    @Test("A beacon that keeps failing fails for good after its retry budget")
    func retryBudget() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        lab.faults.add(LabFault(pathContains: "/beacons/", kind: .status(500), remaining: 100))
        let transport = AsyncHTTPClientTransport(clock: ContinuousClock())
        let attempts = Attempts()
        let outbox = try outbox(BeaconCourier(transport: transport, maximumAttempts: 3, report: attempts.add))
        try await outbox.persist(message("c/0", "http://127.0.0.1:\(port)/beacons/p/a/complete"))
        _ = await outbox.drain(within: .seconds(10))
        #expect(attempts.all.count == 3)
        #expect(attempts.all.last?.outcome == .reject("gave up after 3 attempts: HTTP 500"))
        #expect(try await outbox.statistics().rejected == 1)
        try await transport.shutdown()
        await lab.stop()
    }
}
