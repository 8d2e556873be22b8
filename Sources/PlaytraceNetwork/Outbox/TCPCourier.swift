import NIOCore
import NIOPosix

/// Delivers outbox messages over one TCP connection, kept open between messages and made again after a failure
/// (Graphite's plaintext protocol). A message is delivered once its bytes are written and flushed to the socket:
/// a plain TCP protocol has no acknowledgement, so bytes in flight when a connection breaks can be lost — the
/// next attempt goes on a new connection.
public final class TCPCourier: OutboxCourier {
    public let name: String
    public let host: String
    public let port: Int
    private let connectTimeout: Duration
    private let writeTimeout: Duration
    private let connection = ConnectionHolder()

    /// - Parameters:
    ///   - connectTimeout: the longest wait for a connection.
    ///   - writeTimeout: the longest wait for a message's bytes to be taken by the socket (a server that stopped
    ///     reading fills the socket's buffers; the connection is then dropped and the message retried).
    public init(name: String, host: String, port: Int, connectTimeout: Duration = .seconds(5),
                writeTimeout: Duration = .seconds(10)) {
        self.name = name
        self.host = host
        self.port = port
        self.connectTimeout = connectTimeout
        self.writeTimeout = writeTimeout
    }

    public func deliver(_ message: OutboxMessage) async -> DeliveryOutcome {
        do {
            let channel = try await connection.channel { [host, port, connectTimeout] in
                try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .connectTimeout(.nanoseconds(Self.nanoseconds(connectTimeout)))
                    .channelOption(.socketOption(.so_keepalive), value: 1)
                    .connect(host: host, port: port).get()
            }
            let written = channel.eventLoop.makePromise(of: Void.self)
            channel.writeAndFlush(ByteBuffer(bytes: message.payload), promise: written)
            let watchdog = channel.eventLoop.scheduleTask(in: .nanoseconds(Self.nanoseconds(writeTimeout))) {
                channel.close(promise: nil)
            }
            defer { watchdog.cancel() }
            try await written.futureResult.get()
            return .delivered
        } catch {
            await connection.reset()
            return .retry("\(host):\(port): \(error)")
        }
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }

    /// Closes the connection.
    public func close() async {
        await connection.reset()
    }
}

/// The courier's connection, made when needed and replaced when it closed.
private actor ConnectionHolder {
    private var channel: (any Channel)?

    func channel(connect: @Sendable () async throws -> any Channel) async throws -> any Channel {
        if let channel, channel.isActive { return channel }
        let made = try await connect()
        channel = made
        return made
    }

    func reset() async {
        let old = channel
        channel = nil
        // Closing a connection that already broke can fail; nothing is left to do with it either way.
        try? await old?.close().get()
    }
}
