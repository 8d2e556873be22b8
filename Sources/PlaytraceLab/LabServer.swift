public import Foundation
import PlaytraceCore
import HTTPTypes
import Hummingbird
public import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// The lab origin: HLS streams with ad breaks, fault injection and a request log, served on loopback by
/// Hummingbird. Everything time-dependent (the live window, delays, throttling) runs on the injected clock, so a
/// test clock drives it deterministically.
///
/// ```swift
/// let lab = LabServer(clock: ContinuousClock())
/// let port = try await lab.start()
/// // http://127.0.0.1:\(port)/vod/master.m3u8
/// lab.faults.add(LabFault(pathContains: "/vod/2/", kind: .status(404), remaining: 3))
/// await lab.stop()
/// ```
public final class LabServer: Sendable {
    /// The active faults; add and remove them at any time.
    public let faults = FaultInjector()
    /// The requests served.
    public let requests = RequestLog()
    /// What was posted to the sink (`POST /sink/...`).
    public let sink = SinkLog()
    /// The hits on the beacon sink (`GET /beacons/...`), readable as JSON at `GET /lab/beacons`.
    public let beacons = BeaconLog()
    /// The shape of the lab's streams.
    public let configuration: LabConfiguration
    let steeringState = SteeringState()

    /// What the lab's content-steering server answers (``LabSteering``); change it at any time.
    public var steering: LabSteering {
        get { steeringState.current }
        set { steeringState.current = newValue }
    }

    let streams: LabStreams
    /// The same content as MPEG-DASH presentations.
    var dash: LabDASH { LabDASH(configuration: configuration, base: base) }
    /// What the lab makes once and serves to every viewer (playlists per update, segment bytes, media files).
    let cache = LabCache()
    let stopwatch: Stopwatch
    let logger: Logger
    private let parked = Atomic<Int>(0)
    /// The SSAI sessions initialised so far: each initialisation mints the next, as real services do.
    private let sessionSerial = Atomic<Int>(0)
    /// Finished when the lab stops: wakes every response parked on the clock, which a test clock that no longer
    /// advances would otherwise keep forever (and graceful shutdown would wait for them).
    private let stopping = Broadcaster<Void>()
    private let state = Locked<(task: Task<Void, any Error>?, group: ServiceGroup?, port: Int?)>((nil, nil, nil))
    /// The address the lab listens on, as its absolute URLs (beacons, sessions) name it.
    private let listeningHost = Locked("127.0.0.1")

    /// Creates a lab whose live windows, delays and throttling run on `clock`.
    public init(clock: any Clock<Duration>, configuration: LabConfiguration = LabConfiguration(),
                logger: Logger = Logger(label: "playtrace.lab")) {
        self.configuration = configuration
        self.streams = LabStreams(configuration: configuration)
        self.stopwatch = Stopwatch(clock: clock)
        self.logger = logger
    }

    /// Responses now waiting on the lab's clock (delayed or throttled). Tests compare it with the requests a
    /// client has in flight to know when everything waits on the clock.
    public var parkedResponses: Int { parked.load(ordering: .sequentiallyConsistent) }

    /// A new SSAI session's serial number (1, 2, …).
    func mintSession() -> Int { sessionSerial.add(1, ordering: .sequentiallyConsistent).newValue }

    /// Waits, in real time, until the system is quiescent on a test clock: every request the client has in flight
    /// (`inFlight`) is parked on the lab's clock (a throttled or delayed response), or there is none, in two checks
    /// a row. Returns `false` when that does not happen within `timeout`.
    ///
    /// Tests and the ABR benchmark advance a test clock step by step and settle after each step, so that what they
    /// observe does not depend on how fast loopback answers.
    public func settle(inFlight: () async -> Int, timeout: Duration = .seconds(20)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        var stableChecks = 0
        while ContinuousClock.now < deadline {
            for _ in 0..<5 { await Task.yield() }
            if await inFlight() == parkedResponses {
                stableChecks += 1
                if stableChecks >= 2 { return true }
            } else {
                stableChecks = 0
            }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return false
    }

    /// The port the lab listens on, once started.
    public var port: Int? { state.withLock { $0.port } }

    /// The lab's base URL, once started: the address it listens on (loopback when it listens on every address).
    public var baseURL: URL? {
        let host = listeningHost.withLock { $0 }
        return port.flatMap { URL(string: "http://\(host):\($0)") }
    }

    /// `host` as a URL names it: loopback for every address, an IPv6 address in brackets.
    private static func urlHost(_ host: String) -> String {
        switch host {
        case "0.0.0.0", "": "127.0.0.1"
        case "::": "[::1]"
        default: host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        }
    }

    /// Starts serving on `host`:`port` (0 picks a free port) and returns the port.
    public func start(host: String = "127.0.0.1", port: Int = 0) async throws -> Int {
        listeningHost.withLock { $0 = Self.urlHost(host) }
        let (portStream, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = makeApplication(host: host, port: port) { bound in
            portContinuation.yield(bound)
            portContinuation.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task {
            defer { portContinuation.finish() }
            try await group.run()
        }
        state.withLock {
            $0.task = task
            $0.group = group
        }
        var iterator = portStream.makeAsyncIterator()
        guard let bound = await iterator.next(), bound > 0 else {
            task.cancel()
            _ = await task.result
            throw LabError.couldNotStart(host: host, port: port)
        }
        state.withLock { $0.port = bound }
        return bound
    }

    /// Serves until the process receives SIGINT or SIGTERM, then shuts down gracefully.
    /// `onStart` receives the bound port.
    public func serveUntilSignalled(host: String = "127.0.0.1", port: Int,
                                    onStart: @escaping @Sendable (Int) -> Void) async throws {
        listeningHost.withLock { $0 = Self.urlHost(host) }
        let app = makeApplication(host: host, port: port) { bound in
            self.state.withLock { $0.port = bound }
            onStart(bound)
        }
        try await app.runService()
    }

    private func makeApplication(host: String, port: Int, onRunning: @escaping @Sendable (Int) -> Void)
        -> some ApplicationProtocol
    {
        Application(
            router: makeRouter(),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "playtrace-lab"),
            onServerRunning: { channel in onRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
    }

    /// Stops serving.
    public func stop() async {
        let (task, group) = state.withLock { state in
            defer { state = (nil, nil, nil) }
            return (state.task, state.group)
        }
        stopping.finish()
        await group?.triggerGracefulShutdown()
        _ = await task?.result
    }

    /// Sleeps on the lab's clock, counted as parked, until the duration has passed, the lab stops, or the
    /// request's connection closes (its client gave up: the response is no longer waited for).
    func park(for duration: Duration, connection: (any Channel)? = nil) async throws {
        parked.add(1, ordering: .sequentiallyConsistent)
        defer { parked.subtract(1, ordering: .sequentiallyConsistent) }
        let stopped = stopping.subscribe()
        // The server allows half-closure, so a client that gives up closes its side first: that is watched for at
        // the head of the pipeline, as is the connection's close. A stream, not a future: waiting on a stream ends
        // when the task is cancelled.
        let (closed, closing) = AsyncStream<Void>.makeStream()
        var watcher: InputClosedWatcher?
        if let connection {
            connection.closeFuture.whenComplete { _ in closing.finish() }
            let added = InputClosedWatcher { closing.finish() }
            if (try? await connection.pipeline.addHandler(added, position: .first).get()) != nil { watcher = added }
        }
        defer {
            if let connection, let watcher { connection.pipeline.removeHandler(watcher, promise: nil) }
            closing.finish()
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.stopwatch.sleep(for: duration) }
            group.addTask {
                for await _ in stopped {}
                throw LabError.stopped
            }
            if connection != nil {
                group.addTask {
                    for await _ in closed {}
                    try Task.checkCancellation()
                    throw LabError.clientGone
                }
            }
            defer { group.cancelAll() }
            try await group.next()
        }
    }
}

/// Why the lab could not do what was asked.
public enum LabError: Error, Sendable, CustomStringConvertible {
    case couldNotStart(host: String, port: Int)
    /// The lab stopped while a response waited on its clock.
    case stopped
    /// The client closed the connection while its response waited on the lab's clock.
    case clientGone

    public var description: String {
        switch self {
        case .couldNotStart(let host, let port): return "the lab could not listen on \(host):\(port)"
        case .stopped: return "the lab stopped"
        case .clientGone: return "the client closed the connection"
        }
    }
}

/// Calls back when the peer closes its side of a connection (or the connection closes).
private final class InputClosedWatcher: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = NIOAny
    private let onClose: @Sendable () -> Void

    init(onClose: @escaping @Sendable () -> Void) { self.onClose = onClose }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event { onClose() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        onClose()
        context.fireChannelInactive()
    }
}
