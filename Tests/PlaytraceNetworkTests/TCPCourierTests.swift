import Foundation
import NIOCore
import NIOPosix
import PlaytraceNetwork
import PlaytraceCore
import Testing

/// A plaintext line receiver on loopback that can fail the way a killed carbon does: it forgets what it had not
/// processed yet and drops its connection.
final class LineReceiver: Sendable {
    private let state = Locked<(kept: [String], connections: Int, forgetting: Bool)>(([], 0, false))
    private let server = Locked<(any Channel)?>(nil)

    /// Lines kept, over every connection.
    var lines: [String] { state.withLock { $0.kept } }
    var connections: Int { state.withLock { $0.connections } }

    func start() async throws -> Int {
        let receiver = self
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                receiver.state.withLock { $0.connections += 1 }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Handler(receiver: receiver))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        server.withLock { $0 = channel }
        return channel.localAddress?.port ?? 0
    }

    /// From now on, what arrives on the current connection is lost, and the connection is dropped.
    func crash() { state.withLock { $0.forgetting = true } }

    func stop() async {
        let channel = server.withLock { $0 }
        try? await channel?.close().get()
    }

    fileprivate func received(_ text: String, on context: ChannelHandlerContext) {
        let forgetting = state.withLock { state -> Bool in
            if state.forgetting { return true }
            state.kept += text.split(separator: "\n").map(String.init)
            return false
        }
        if forgetting {
            state.withLock { $0.forgetting = false }
            context.close(promise: nil)
        }
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let receiver: LineReceiver
        init(receiver: LineReceiver) { self.receiver = receiver }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            receiver.received(String(buffer: buffer), on: context)
        }
    }
}

@Suite("TCP courier")
struct TCPCourierTests {
    @Test("After the server loses a connection and what it had not processed, the next connection starts with a replay of the last window")
    func replayAfterABreak() async throws {
        let receiver = LineReceiver()
        let port = try await receiver.start()
        let courier = TCPCourier(name: "graphite", host: "127.0.0.1", port: port)
        func message(_ index: Int) -> OutboxMessage {
            OutboxMessage(destination: "graphite", payload: Array("playtrace.lab.value \(index) \(1_800_000_000 + index)\n".utf8))
        }
        for index in 0..<5 { #expect(await courier.deliver(message(index)) == .delivered) }
        // Wait until the five lines are in (bounded): then the server "crashes" on what comes next.
        for _ in 0..<200 where receiver.lines.count < 5 { try await Task.sleep(for: .milliseconds(5)) }
        receiver.crash()
        // Messages written while the break is not yet seen are lost by the server; the courier notices the break
        // on a later write (or the write fails and the outbox retries it), reconnects and replays its window.
        var index = 5
        while receiver.connections < 2, index < 200 {
            if await courier.deliver(message(index)) == .delivered { index += 1 }
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(receiver.connections == 2)
        #expect(await courier.deliver(message(index)) == .delivered)
        let expected = Set((0...index).map { "playtrace.lab.value \($0) \(1_800_000_000 + $0)" })
        for _ in 0..<200 where Set(receiver.lines) != expected { try await Task.sleep(for: .milliseconds(5)) }
        #expect(Set(receiver.lines) == expected, "missing: \(expected.subtracting(receiver.lines).sorted())")
        #expect(await courier.replayedBytes > 0)
        await courier.close()
        await receiver.stop()
    }
}
