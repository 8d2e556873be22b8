// Sends many Graphite plaintext lines through the Outbox and the TCP courier, for scripts/graphite-loss, which
// kills carbon in the middle and counts what reached its whisper files.
//
//   GraphiteSoak HOST PORT BATCHES LINES REPLAY_SECONDS TAG
//
// Each line is a distinct path and second (`soak.TAG.p<k> 1 <second>`, 100 paths), so that the points stored are
// the lines carbon kept. Batches go out 10 ms apart; at the end the outbox drains (at most 60 s). Prints the lines
// sent and what the outbox says.
import Foundation
import PlaytraceNetwork

let arguments = CommandLine.arguments
guard arguments.count == 7, let port = Int(arguments[2]), let batches = Int(arguments[3]), let lines = Int(arguments[4]),
      let replay = Int(arguments[5])
else {
    FileHandle.standardError.write(Data("usage: GraphiteSoak HOST PORT BATCHES LINES REPLAY_SECONDS TAG\n".utf8))
    exit(2)
}
let host = arguments[1]
let tag = arguments[6]
let courier = TCPCourier(name: "graphite", host: host, port: port, connectTimeout: .seconds(1), writeTimeout: .seconds(2),
                         replayWindow: .seconds(replay))
var configuration = OutboxConfiguration()
configuration.pollInterval = .milliseconds(100)
configuration.initialBackoff = .milliseconds(200)
configuration.maximumBackoff = .seconds(1)
let outbox = try Outbox(path: nil, couriers: [courier], configuration: configuration)
await outbox.start()
// Seconds an hour ago and later: well inside the one-day retention.
let base = Int(Date().timeIntervalSince1970) - 3_600
for batch in 0..<batches {
    var text = ""
    for line in 0..<lines {
        let index = batch * lines + line
        text += "soak.\(tag).p\(index % 100) 1 \(base + index / 100)\n"
    }
    let payload = Array(text.utf8)
    outbox.submit(destination: "graphite") { payload }
    try await Task.sleep(for: .milliseconds(10))
}
let drain = await outbox.drain(within: .seconds(60))
let statistics = try await outbox.statistics()
await courier.close()
print("base=\(base) sent=\(batches * lines) delivered_batches=\(statistics.delivered) retried=\(statistics.retried) "
    + "waiting=\(drain.pending) replayed_bytes=\(await courier.replayedBytes)")
