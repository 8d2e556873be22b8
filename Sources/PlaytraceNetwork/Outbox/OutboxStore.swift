import Foundation
import GRDB

/// The outbox's SQLite store (through GRDB): messages and counters, in one file that survives restarts and
/// `kill -9` (every change is a committed transaction).
struct OutboxStore: Sendable {
    private let database: DatabaseQueue

    /// Opens (or creates) the store at `path`; `nil` keeps it in memory (for tests that do not restart).
    /// - Throws: ``OutboxError/unreadableStore(path:reason:)`` when SQLite cannot open or prepare it.
    init(path: String?) throws(OutboxError) {
        do {
            database = try Self.open(path: path)
        } catch let error as DatabaseError {
            let reason = "SQLite error \(error.resultCode.rawValue): \(error.message ?? "\(error.resultCode)")"
            throw .unreadableStore(path: path ?? ":memory:", reason: reason)
        } catch {
            throw .unreadableStore(path: path ?? ":memory:", reason: "\(error)")
        }
    }

    private static func open(path: String?) throws -> DatabaseQueue {
        let database: DatabaseQueue
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        if let path {
            database = try DatabaseQueue(path: path, configuration: configuration)
        } else {
            database = try DatabaseQueue(configuration: configuration)
        }
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "message") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("key", .text).notNull().unique()
                table.column("destination", .text).notNull()
                table.column("payload", .blob).notNull()
                table.column("metadata", .text).notNull()
                table.column("createdAt", .double).notNull()
                table.column("attempts", .integer).notNull()
                table.column("nextAttemptAt", .double).notNull().indexed()
                table.column("lastError", .text)
            }
            try db.create(table: "counter") { table in
                table.primaryKey("name", .text)
                table.column("value", .integer).notNull()
            }
        }
        try migrator.migrate(database)
        return database
    }

    /// Inserts a message; `false` when one with the same key is already there.
    func insert(_ message: OutboxMessage) throws -> Bool {
        let metadata = String(decoding: try JSONEncoder().encode(message.metadata), as: UTF8.self)
        return try database.write { db in
            try db.execute(sql: """
                INSERT OR IGNORE INTO message (key, destination, payload, metadata, createdAt, attempts, nextAttemptAt, lastError)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [message.key, message.destination, Data(message.payload), metadata, message.createdAt,
                                 message.attempts, message.nextAttemptAt, message.lastError])
            let inserted = db.changesCount > 0
            try Self.increment(inserted ? "enqueued" : "duplicates", in: db)
            return inserted
        }
    }

    /// Messages for `destinations` due at `now`, oldest first.
    func due(at now: Double, limit: Int, destinations: [String]) throws -> [OutboxMessage] {
        guard !destinations.isEmpty else { return [] }
        let placeholders = Array(repeating: "?", count: destinations.count).joined(separator: ",")
        return try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT * FROM message WHERE nextAttemptAt <= ? AND destination IN (\(placeholders)) ORDER BY id LIMIT ?
                """, arguments: StatementArguments([now] as [any DatabaseValueConvertible] + destinations + [limit]))
                .map { try Self.message($0) }
        }
    }

    /// When the next message for `destinations` is due, if any.
    func nextDue(destinations: [String]) throws -> Double? {
        guard !destinations.isEmpty else { return nil }
        let placeholders = Array(repeating: "?", count: destinations.count).joined(separator: ",")
        return try database.read { db in
            try Double.fetchOne(db, sql: "SELECT MIN(nextAttemptAt) FROM message WHERE destination IN (\(placeholders))",
                                arguments: StatementArguments(destinations))
        }
    }

    /// Removes a delivered or rejected message and counts it.
    func remove(_ id: Int64, counting counter: String) throws {
        try database.write { db in
            try db.execute(sql: "DELETE FROM message WHERE id = ?", arguments: [id])
            try Self.increment(counter, in: db)
        }
    }

    /// Records a failed attempt.
    func reschedule(_ id: Int64, attempts: Int, nextAttemptAt: Double, error: String) throws {
        try database.write { db in
            try db.execute(sql: "UPDATE message SET attempts = ?, nextAttemptAt = ?, lastError = ? WHERE id = ?",
                           arguments: [attempts, nextAttemptAt, error, id])
            try Self.increment("retried", in: db)
        }
    }

    /// Drops messages older than `oldest`, then the oldest ones while the payloads exceed `maximumBytes`; returns
    /// how many were dropped.
    func enforceBounds(oldest: Double, maximumBytes: Int) throws -> Int {
        try database.write { db in
            try db.execute(sql: "DELETE FROM message WHERE createdAt < ?", arguments: [oldest])
            var dropped = db.changesCount
            var total = try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(LENGTH(payload)), 0) FROM message") ?? 0
            while total > maximumBytes {
                guard let row = try Row.fetchOne(db, sql: "SELECT id, LENGTH(payload) AS size FROM message ORDER BY id LIMIT 1")
                else { break }
                let id: Int64 = row["id"]
                let size: Int = row["size"]
                try db.execute(sql: "DELETE FROM message WHERE id = ?", arguments: [id])
                total -= size
                dropped += 1
            }
            if dropped > 0 { try Self.increment("dropped", by: dropped, in: db) }
            return dropped
        }
    }

    func statistics() throws -> OutboxStatistics {
        try database.read { db in
            var statistics = OutboxStatistics()
            for row in try Row.fetchAll(db, sql: "SELECT name, value FROM counter") {
                let name: String = row["name"]
                let value: Int = row["value"]
                switch name {
                case "enqueued": statistics.enqueued = value
                case "delivered": statistics.delivered = value
                case "retried": statistics.retried = value
                case "rejected": statistics.rejected = value
                case "dropped": statistics.dropped = value
                case "duplicates": statistics.duplicates = value
                default: break
                }
            }
            statistics.pending = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM message") ?? 0
            statistics.pendingBytes = try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(LENGTH(payload)), 0) FROM message") ?? 0
            for row in try Row.fetchAll(db, sql: "SELECT destination, COUNT(*) AS count FROM message GROUP BY destination") {
                statistics.pendingByDestination[row["destination"]] = row["count"]
            }
            statistics.oldestPending = try Double.fetchOne(db, sql: "SELECT MIN(createdAt) FROM message")
            return statistics
        }
    }

    private static func increment(_ name: String, by amount: Int = 1, in db: Database) throws {
        try db.execute(sql: """
            INSERT INTO counter (name, value) VALUES (?, ?)
            ON CONFLICT(name) DO UPDATE SET value = value + excluded.value
            """, arguments: [name, amount])
    }

    private static func message(_ row: Row) throws -> OutboxMessage {
        let metadataText: String = row["metadata"]
        let metadata = try JSONDecoder().decode([String: String].self, from: Data(metadataText.utf8))
        let payload: Data = row["payload"]
        return OutboxMessage(id: row["id"], key: row["key"], destination: row["destination"], payload: Array(payload),
                             metadata: metadata, createdAt: row["createdAt"], attempts: row["attempts"],
                             nextAttemptAt: row["nextAttemptAt"], lastError: row["lastError"])
    }
}
