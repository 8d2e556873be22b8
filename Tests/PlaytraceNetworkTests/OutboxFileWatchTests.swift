import Foundation
import PlaytraceNetwork
import Testing

/// The outbox's file taken away while in use: the outbox says so at once (an error in the log, with what the file
/// held) and in every drain's result, instead of reporting messages "waiting" in a file that no longer holds them.
@Suite("The outbox notices its file deleted, replaced or truncated")
struct OutboxFileWatchTests {
    private static func path(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("playtrace-watch-\(name)-\(getpid()).sqlite").path
    }

    private static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// An outbox holding three messages for a destination it has no courier for: they stay stored.
    private static func outbox(at path: String, logs: LogCapture) async throws -> Outbox {
        remove(path)
        let outbox = try Outbox(path: path, couriers: [], logger: logs.logger)
        for index in 0..<3 {
            try await outbox.persist(OutboxMessage(key: "k\(index)", destination: "elsewhere", payload: Array(repeating: 7, count: 2_000)))
        }
        return outbox
    }

    @Test("A file left alone is fine, however much is written to it")
    func untouched() async throws {
        let path = Self.path("fine")
        defer { Self.remove(path) }
        let logs = LogCapture()
        let outbox = try await Self.outbox(at: path, logs: logs)
        for index in 3..<300 {
            try await outbox.persist(OutboxMessage(key: "k\(index)", destination: "elsewhere", payload: Array(repeating: 1, count: 4_000)))
        }
        #expect(outbox.fileProblem() == nil)
        #expect(await outbox.drain(within: .seconds(1)).fileProblem == nil)
    }

    @Test("Deleted, replaced or truncated under the outbox: said at once, in the log and in the drain", arguments: [
        ("deleted", "deleted while in use"),
        ("replaced", "replaced by another file while in use"),
        ("truncated", "truncated while in use"),
    ])
    func takenAway(how: String, expected: String) async throws {
        let path = Self.path(how)
        defer { Self.remove(path); try? FileManager.default.removeItem(atPath: path + ".other") }
        let logs = LogCapture()
        let outbox = try await Self.outbox(at: path, logs: logs)
        switch how {
        case "deleted": try FileManager.default.removeItem(atPath: path)
        case "replaced":
            try Data("another file".utf8).write(to: URL(fileURLWithPath: path + ".other"))
            #expect(rename(path + ".other", path) == 0)
        default: #expect(truncate(path, 0) == 0)
        }
        // The next write looks at the file first.
        _ = try? await outbox.persist(OutboxMessage(key: "after", destination: "elsewhere", payload: [1]))
        #expect(logs.messages.contains { $0.hasPrefix("error") && $0.contains(expected) && $0.contains("waiting") },
                "\(logs.messages)")
        #expect(outbox.fileProblem() == expected)
        let drain = await outbox.drain(within: .seconds(1))
        #expect(drain.fileProblem == expected)
        #expect(logs.messages.filter { $0.contains(expected) }.count == 1, "said once")
    }
}
