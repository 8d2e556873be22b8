import Foundation
import GRDB
import PlaytraceCore
import PlaytraceNetwork
import Testing

/// The outbox stores no credentials (issue 44): what a message carries of them is taken out at intake, and a file an
/// earlier version wrote is scrubbed when opened; the file is private.
@Suite("Outbox: no credentials at rest")
struct OutboxCredentialsTests {
    @Test("Secret headers and a URL's user:password are taken out, and the message marked as needing credentials")
    func stored() {
        let metadata = ["url": "https://ops:pw@influx.example.com/write?db=x", "header.Authorization": "Token t",
                        "header.Api-Key": "k", "header.X-Insert-Key": "i", "header.Content-Type": "text/plain",
                        "header.Idempotency-Key": "kept", "method": "POST"]
        #expect(OutboxCredentials.stored(metadata) == ["url": "https://influx.example.com/write?db=x",
                                                       "header.Content-Type": "text/plain", "header.Idempotency-Key": "kept",
                                                       "method": "POST", "credentials": "required"])
        let plain = ["url": "https://influx.example.com/write", "header.Content-Type": "text/plain"]
        #expect(OutboxCredentials.stored(plain) == plain, "nothing to take out: nothing marked")
        #expect(OutboxCredentials.basicAuthorization(from: URL(string: "http://a:b@h/")!)?.value == "Basic YTpi")
        #expect(URLRedaction.redacting("see http://ops:pw@h/x and https://tok@h2/y") == "see http://ops:***@h/x and https://***@h2/y")
        #expect(URLRedaction.redacting("mail me@example.com") == "mail me@example.com")
    }

    @Test("A file written before (credentials in its rows, readable by all) is scrubbed and made private when opened")
    func olderFileIsScrubbed() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("old-outbox-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        do {
            let outbox = try Outbox(path: path, couriers: [])
            try await outbox.persist(OutboxMessage(key: "a", destination: "influxdb", payload: [65]))
            await outbox.stop()
        }
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o600, "created private")
        // As an earlier version left it: the token in the row, the file open to all, the scrub not applied yet.
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: """
                UPDATE message SET metadata = '{"url":"http://u:PASSWORD@h/write","header.Authorization":"Token SECRET"}';
                DELETE FROM grdb_migrations WHERE identifier = 'v6'
                """)
        }
        try queue.close()
        chmod(path, 0o644)
        let outbox = try Outbox(path: path, couriers: [])
        await outbox.stop()
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o600, "made private")
        let data = try #require(FileManager.default.contents(atPath: path))
        #expect(data.range(of: Data("SECRET".utf8)) == nil && data.range(of: Data("PASSWORD".utf8)) == nil,
                "no credential left in the file, free pages included")
        let metadata = try await DatabaseQueue(path: path).read { db in try String.fetchOne(db, sql: "SELECT metadata FROM message") }
        #expect(metadata?.contains("\"credentials\":\"required\"") == true, "\(metadata ?? "")")
    }
}
