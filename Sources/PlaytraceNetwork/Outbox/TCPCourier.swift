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
    private let connection = ConnectionHolder()

    public init(name: String, host: String, port: Int, connectTimeout: Duration = .seconds(5)) {
        self.name = name
        self.host = host
        self.port = port
        self.connectTimeout = connectTimeout
    }

    public func deliver(_ message: OutboxMessage) async -> DeliveryOutcome {
        do {
            let channel = try await connection.channel { [host, port, connectTimeout] in
                try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .connectTimeout(.nanoseconds(Int64(connectTimeout.components.seconds) * 1_000_000_000
                        + connectTimeout.components.attoseconds / 1_000_000_000))
                    .channelOption(.socketOption(.so_keepalive), value: 1)
                    .connect(host: host, port: port).get()
            }
            try await channel.writeAndFlush(ByteBuffer(bytes: message.payload)).get()
            return .delivered
        } catch {
            await connection.reset()
            return .retry("\(host):\(port): \(error)")
        }
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
