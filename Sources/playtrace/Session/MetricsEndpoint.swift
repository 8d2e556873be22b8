import Foundation
import Hummingbird
import Logging
import NIOCore
import PlaytraceCore
import PlaytraceSession
import ServiceLifecycle
import Synchronization

/// `playtrace probe --metrics-port`: the probe's metrics at `/metrics`, in Prometheus' text format, while it runs and
/// for a while after its end, until a scrape has read the final figures.
final class MetricsEndpoint: Sendable {
    private let metrics: ProbeMetrics
    /// Scrapes served since the figures became final.
    private let finalScrapes = Atomic<Int>(0)
    private let isFinal = Atomic<Bool>(false)
    private let running = Locked<(task: Task<Void, any Error>?, group: ServiceGroup?)>((nil, nil))

    init(metrics: ProbeMetrics) {
        self.metrics = metrics
    }

    /// Starts serving on `host`:`port` (0 picks a free port); returns the port, or throws when it cannot be bound.
    func start(host: String, port: Int) async throws -> Int {
        let router = Router()
        router.get("metrics") { _, _ -> Response in
            // Read before the exposition: a scrape that began before the end counts as final only if it saw the end.
            let final = self.isFinal.load(ordering: .sequentiallyConsistent)
            let body = ByteBuffer(bytes: self.metrics.exposition())
            if final { self.finalScrapes.add(1, ordering: .sequentiallyConsistent) }
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
        }
        let (bound, binding) = AsyncStream.makeStream(of: Int.self)
        let logger = Logger(label: "playtrace.metrics", factory: { _ in SwiftLogNoOpLogHandler() })
        let app = Application(router: router,
                              configuration: ApplicationConfiguration(address: .hostname(host, port: port),
                                                                      serverName: "playtrace-probe"),
                              onServerRunning: { channel in
                                  binding.yield(channel.localAddress?.port ?? 0)
                                  binding.finish()
                              },
                              logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task {
            defer { binding.finish() }
            try await group.run()
        }
        running.withLock { $0 = (task, group) }
        var ports = bound.makeAsyncIterator()
        guard let served = await ports.next(), served > 0 else {
            await stop()
            throw Failure(address: "\(host):\(port)")
        }
        return served
    }

    /// The figures are final from now: ``waitForFinalScrape(atMost:clock:)`` waits for a scrape after this.
    func markFinal() { isFinal.store(true, ordering: .sequentiallyConsistent) }

    /// Waits until a scrape has read the final figures, or `limit` has passed; true when one did.
    func waitForFinalScrape(atMost limit: Duration, clock: any Clock<Duration>) async -> Bool {
        let stopwatch = Stopwatch(clock: clock)
        while finalScrapes.load(ordering: .sequentiallyConsistent) == 0 {
            guard stopwatch.elapsed < limit else { return false }
            do { try await clock.sleep(for: .milliseconds(100)) } catch { return false }
        }
        return true
    }

    func stop() async {
        let (task, group) = running.withLock { state in
            defer { state = (nil, nil) }
            return state
        }
        await group?.triggerGracefulShutdown()
        _ = await task?.result
    }

    /// The address could not be served (in use, not this machine's).
    struct Failure: Error, CustomStringConvertible {
        let address: String
        var description: String { "--metrics-port: cannot listen on \(address) (in use, or not an address of this machine)" }
    }
}
