import NIOCore
import NIOPosix
import PlaytraceCore

/// Delivers outbox messages over one TCP connection, kept open between messages and made again after a failure
/// (Graphite's plaintext protocol).
///
/// A plain TCP protocol has no acknowledgement: a message counts as delivered once its bytes are written to the
/// socket, and bytes the server had not processed when its connection broke (in the sockets' buffers, or in the
/// memory of a server that was killed) are lost without a sign. To shrink that loss, the courier keeps what it
/// wrote during the last ``replayWindow`` (at most ``replayLimit`` bytes) and writes it again at the start of the
/// next connection, whenever a connection broke or a write failed. Graphite keeps one value per path and second, so
/// a line written twice overwrites itself: a replay does not count anything twice. What remains lost is what the
/// server took in longer ago than the window before it failed, and the window itself if this process ends before a
/// new connection is made.
public final class TCPCourier: OutboxCourier {
    public let name: String
    public let host: String
    public let port: Int
    /// How far back, in time, written bytes are kept for a replay.
    public let replayWindow: Duration
    /// The most bytes kept for a replay.
    public let replayLimit: Int
    private let connectTimeout: Duration
    private let writeTimeout: Duration
    private let connection: ConnectionHolder

    /// - Parameters:
    ///   - name: the outbox destination it delivers.
    ///   - host: the server's host name or address.
    ///   - port: the server's TCP port.
    ///   - connectTimeout: the longest wait for a connection.
    ///   - writeTimeout: the longest wait for a message's bytes to be taken by the socket (a server that stopped
    ///     reading fills the socket's buffers; the connection is then dropped and the message retried).
    ///   - replayWindow: how long written bytes are kept to be written again after a connection breaks (carbon
    ///     keeps points in memory for a while before writing them to disk).
    ///   - replayLimit: the most bytes kept for that.
    ///   - clock: the clock of the timeouts and the replay window.
    public init(name: String, host: String, port: Int, connectTimeout: Duration = .seconds(5),
                writeTimeout: Duration = .seconds(10), replayWindow: Duration = .seconds(60),
                replayLimit: Int = 8 << 20, clock: any Clock<Duration> = ContinuousClock()) {
        self.name = name
        self.host = host
        self.port = port
        self.connectTimeout = connectTimeout
        self.writeTimeout = writeTimeout
        self.replayWindow = replayWindow
        self.replayLimit = replayLimit
        connection = ConnectionHolder(stopwatch: Stopwatch(clock: clock))
    }

    public func deliver(_ message: OutboxMessage) async -> DeliveryOutcome {
        do {
            try await connection.send(message.payload, window: replayWindow, limit: replayLimit,
                                      writeTimeout: Self.nanoseconds(writeTimeout)) { [host, port, connectTimeout] in
                try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .connectTimeout(.nanoseconds(Self.nanoseconds(connectTimeout)))
                    .channelOption(.socketOption(.so_keepalive), value: 1)
                    .connect(host: host, port: port).get()
            }
            return .delivered
        } catch {
            await connection.reset()
            return .retry("\(host):\(port): \(error)")
        }
    }

    /// Bytes written again at the start of the last connection (after a break), in all.
    public var replayedBytes: Int {
        get async { await connection.replayedBytes }
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }

    /// Closes the connection.
    public func close() async {
        await connection.reset()
    }
}

/// The courier's connection, made when needed and replaced when it closed, and what was written lately.
private actor ConnectionHolder {
    private var channel: (any Channel)?
    /// Whether the next connection starts with a replay: the last one broke, or a write failed.
    private var broke = false
    /// What was written lately, oldest first, with when.
    private var written: [(at: Duration, bytes: [UInt8])] = []
    private var writtenBytes = 0
    private(set) var replayedBytes = 0
    private let stopwatch: Stopwatch

    init(stopwatch: Stopwatch) {
        self.stopwatch = stopwatch
    }

    func send(_ payload: [UInt8], window: Duration, limit: Int, writeTimeout: Int64,
              connect: @Sendable () async throws -> any Channel) async throws {
        let now = stopwatch.elapsed
        forget(olderThan: now - window, limit: limit)
        var bytes = payload
        if channel?.isActive != true {
            if channel != nil { broke = true }
            let made = try await connect()
            channel = made
            if broke {
                // What the broken connection may have lost goes first, in its order.
                let replay = written.flatMap(\.bytes)
                replayedBytes += replay.count
                bytes = replay + payload
            }
        }
        guard let channel else { return }
        let done = channel.eventLoop.makePromise(of: Void.self)
        channel.writeAndFlush(ByteBuffer(bytes: bytes), promise: done)
        let watchdog = channel.eventLoop.scheduleTask(in: .nanoseconds(writeTimeout)) { channel.close(promise: nil) }
        defer { watchdog.cancel() }
        try await done.futureResult.get()
        broke = false
        written.append((now, payload))
        writtenBytes += payload.count
        forget(olderThan: now - window, limit: limit)
    }

    private func forget(olderThan oldest: Duration, limit: Int) {
        var drop = 0
        while drop < written.count, written[drop].at < oldest || writtenBytes > limit {
            writtenBytes -= written[drop].bytes.count
            drop += 1
        }
        if drop > 0 { written.removeFirst(drop) }
    }

    func reset() async {
        let old = channel
        channel = nil
        broke = true
        // Closing a connection that already broke can fail; nothing is left to do with it either way.
        try? await old?.close().get()
    }
}
