import Foundation
import GRDB
import Synchronization

/// The outbox's SQLite store (through GRDB): messages and counters, in one file that survives restarts and
/// `kill -9` (every change is a committed transaction).
struct OutboxStore: Sendable {
    private let database: DatabaseQueue
    /// The name of this store's claims.
    private let owner = ClaimOwner()
    /// Notices the file being deleted, replaced or truncated under the store (`nil` in memory).
    let watch: OutboxFileWatch?
    /// What the store did: SQL statements run and messages read back (a test bounds them per message delivered).
    let activity = Activity()

    /// Counts of the store's work.
    final class Activity: Sendable {
        let statements = Atomic<Int>(0)
        let decoded = Atomic<Int>(0)
    }

    /// Opens (or creates) the store at `path`; `nil` keeps it in memory (for tests that do not restart).
    /// - Throws: ``OutboxError/unreadableStore(path:reason:)`` when SQLite cannot open or prepare it.
    init(path: String?) throws(OutboxError) {
        do {
            database = try Self.open(path: path, activity: activity)
            watch = path.flatMap(OutboxFileWatch.init(path:))
        } catch let error as OutboxError {
            throw error
        } catch let error as DatabaseError {
            let reason = "SQLite error \(error.resultCode.rawValue): \(error.message ?? "\(error.resultCode)")"
            throw .unreadableStore(path: path ?? ":memory:", reason: reason)
        } catch {
            throw .unreadableStore(path: path ?? ":memory:", reason: "\(error)")
        }
    }

    /// Runs queries that only read. Not GRDB's `read`: that one guards each read with `PRAGMA query_only` on and
    /// off, and SQLite expires every prepared statement of the connection whenever a flag pragma is set, so that
    /// every cached statement was compiled anew after each read (a dozen compilations per beacon delivered, most of
    /// the outbox's cost in a burst). The store's own reads are SELECTs, on the store's one serial connection.
    private func read<T>(_ body: (Database) throws -> T) throws -> T {
        try database.unsafeRead(body)
    }

    /// The tables an outbox file has; a database with other tables is someone else's and is not written to.
    private static let ownTables: Set<String> = ["message", "counter", "settled", "grdb_migrations"]

    /// Creates the outbox file, when missing, readable by its owner alone (SQLite gives the `-wal` and `-shm`
    /// companions the file's own permissions).
    private static func createPrivately(_ path: String) {
        let descriptor = Foundation.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 { close(descriptor) }
    }

    /// Makes an existing outbox file and its companions private, when an earlier version left them readable by
    /// others. Called once the file is known to be an outbox.
    private static func tighten(_ path: String) {
        for file in [path, path + "-wal", path + "-shm"] {
            var status = stat()
            guard stat(file, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_mode & 0o077 != 0 else { continue }
            chmod(file, status.st_mode & 0o700)
        }
    }

    private static func open(path: String?, activity: Activity) throws -> DatabaseQueue {
        let database: DatabaseQueue
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            db.trace(options: .statement) { _ in activity.statements.add(1, ordering: .relaxed) }
        }
        configuration.busyMode = .timeout(5)
        // With the write-ahead log (set below), NORMAL syncs the log only at checkpoints: a committed message
        // survives the process being killed (it is in the file's log); a power cut may lose the last commits.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        if let path {
            createPrivately(path)
            database = try DatabaseQueue(path: path, configuration: configuration)
        } else {
            database = try DatabaseQueue(configuration: configuration)
        }
        let tables = try database.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        }
        if !tables.isEmpty, !(Set(tables).isSubset(of: ownTables) && tables.contains("message")) {
            throw OutboxError.notAnOutbox(path: path ?? ":memory:", tables: tables.sorted())
        }
        if let path { tighten(path) }
        if path != nil {
            // One append to the log per commit instead of a journal file written, synced and deleted: the store's
            // background writes cost less, and processes sharing the file read while one writes.
            try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
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
        // Claims let several processes share one file without sending a message twice; a row that cannot be read
        // back is set aside instead of blocking the others.
        migrator.registerMigration("v2") { db in
            try db.alter(table: "message") { table in
                table.add(column: "claimedUntil", .double)
                table.add(column: "claimedBy", .text)
                table.add(column: "quarantined", .boolean).notNull().defaults(to: false)
            }
        }
        // The size bound is checked after every insert: the payloads' total is kept by the database itself (triggers,
        // so that every process sharing the file keeps it right) instead of summed over every row each time, and the
        // age bound finds the old rows through an index.
        migrator.registerMigration("v3") { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO counter (name, value)
                    VALUES ('pendingBytes', (SELECT COALESCE(SUM(LENGTH(payload)), 0) FROM message));
                CREATE TRIGGER messageInserted AFTER INSERT ON message BEGIN
                    UPDATE counter SET value = value + LENGTH(NEW.payload) WHERE name = 'pendingBytes';
                END;
                CREATE TRIGGER messageDeleted AFTER DELETE ON message BEGIN
                    UPDATE counter SET value = value - LENGTH(OLD.payload) WHERE name = 'pendingBytes';
                END;
                CREATE TRIGGER messagePayloadChanged AFTER UPDATE OF payload ON message BEGIN
                    UPDATE counter SET value = value - LENGTH(OLD.payload) + LENGTH(NEW.payload) WHERE name = 'pendingBytes';
                END;
                CREATE INDEX messageCreatedAt ON message (createdAt);
                """)
        }
        // Keys remembered after delivery, so that a producer that fires the same message again after a restart is
        // told it is a duplicate (ad beacons), for as long as messages are kept.
        migrator.registerMigration("v4") { db in
            try db.alter(table: "message") { table in
                table.add(column: "remembersKey", .boolean).notNull().defaults(to: false)
            }
            try db.create(table: "settled") { table in
                table.primaryKey("key", .text)
                table.column("outcome", .text).notNull()
                table.column("settledAt", .double).notNull().indexed()
            }
        }
        // A server's Retry-After is kept with the message: the earliest date it may be sent again, which a flush
        // or a drain that makes every message due does not bring forward.
        migrator.registerMigration("v5") { db in
            try db.alter(table: "message") { table in
                table.add(column: "notBefore", .double)
            }
        }
        // Credentials are the couriers' (OutboxCredentials): a file written before kept tokens and keys with its
        // messages; they are taken out, and the pages that held them zeroed (secure_delete) and checkpointed away.
        migrator.registerMigration("v6") { db in
            try db.execute(sql: "PRAGMA secure_delete = ON")
            let rows = try Row.fetchAll(db, sql: "SELECT id, metadata FROM message")
            for row in rows {
                let id: Int64 = row["id"]
                let text: String = row["metadata"]
                guard let metadata = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8)) else { continue }
                let stored = OutboxCredentials.stored(metadata)
                guard stored != metadata else { continue }
                let scrubbed = String(decoding: try JSONEncoder().encode(stored), as: UTF8.self)
                try db.execute(sql: "UPDATE message SET metadata = ? WHERE id = ?", arguments: [scrubbed, id])
            }
            // Zeroing freed pages costs writes on every delivery: only while the old rows are rewritten.
            try db.execute(sql: "PRAGMA secure_delete = OFF")
        }
        // Messages that go each on their own (ad beacons) are read by due date through indexes that leave out the
        // claimed ones and the claims apart: a burst of beacons with a thousand in flight reads only what it starts.
        migrator.registerMigration("v7") { db in
            try db.execute(sql: """
                CREATE INDEX messageUnclaimedDue ON message (destination, nextAttemptAt, id)
                    WHERE claimedBy IS NULL AND quarantined = 0;
                CREATE INDEX messageClaims ON message (destination, claimedBy, claimedUntil) WHERE claimedBy IS NOT NULL;
                """)
        }
        try migrator.migrate(database)
        if path != nil {
            // What a migration changed leaves the write-ahead log for the file itself.
            try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }
        return database
    }

    /// Inserts a message; `false` when one with the same key is already there, or was delivered or refused and is
    /// remembered.
    /// Keys settled before `rememberedSince` (seconds since 1970) are forgotten.
    func insert(_ message: OutboxMessage, rememberedSince: Double) throws -> Bool {
        let metadata = try Self.metadataText(message)
        return try database.write { db in try Self.insert(message, metadata: metadata, rememberedSince: rememberedSince, in: db) }
    }

    /// The bounds of the store: messages created before `oldest` (seconds since 1970), and the oldest ones while the
    /// payloads pass `maximumBytes`, are dropped.
    struct Bounds: Sendable {
        var oldest: Double
        var maximumBytes: Int
    }

    /// Inserts a message without blocking the caller's thread: SQLite runs on the store's own serial queue. When it
    /// was inserted, the bounds are enforced in the same transaction. Returns whether it was inserted (as
    /// ``insert(_:rememberedSince:)`` tells) and how many messages the bounds dropped.
    func insertInBackground(_ message: OutboxMessage, rememberedSince: Double,
                            bounds: Bounds) async throws -> (inserted: Bool, dropped: Int) {
        let metadata = try Self.metadataText(message)
        return try await database.write { db in
            let inserted = try Self.insert(message, metadata: metadata, rememberedSince: rememberedSince, in: db)
            return (inserted, inserted ? try Self.enforce(bounds, in: db) : 0)
        }
    }

    /// Inserts messages in one transaction, without blocking the caller's thread, the bounds enforced in it; for each,
    /// whether it was inserted (as ``insert(_:rememberedSince:)`` tells), and how many messages the bounds dropped.
    /// One commit for many messages: a burst is stored as fast as it comes.
    func insertAllInBackground(_ messages: [OutboxMessage], rememberedSince: Double,
                               bounds: Bounds) async throws -> (inserted: [Bool], dropped: Int) {
        let metadata = try messages.map(Self.metadataText)
        return try await database.write { db in
            let inserted = try zip(messages, metadata).map { message, metadata in
                try Self.insert(message, metadata: metadata, rememberedSince: rememberedSince, in: db)
            }
            return (inserted, inserted.contains(true) ? try Self.enforce(bounds, in: db) : 0)
        }
    }

    /// The metadata as stored: without credentials (``OutboxCredentials/stored(_:)``), whoever handed the message.
    private static func metadataText(_ message: OutboxMessage) throws -> String {
        String(decoding: try JSONEncoder().encode(OutboxCredentials.stored(message.metadata)), as: UTF8.self)
    }

    private static func insert(_ message: OutboxMessage, metadata: String, rememberedSince: Double,
                               in db: Database) throws -> Bool {
        try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO message
                (key, destination, payload, metadata, createdAt, attempts, nextAttemptAt, lastError, remembersKey)
            SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM settled WHERE key = ? AND settledAt >= ?)
            """).execute(arguments: [message.key, message.destination, Data(message.payload), metadata, message.createdAt,
                             message.attempts, message.nextAttemptAt, message.lastError, message.remembersKey,
                             message.key, rememberedSince])
        let inserted = db.changesCount > 0
        try increment(inserted ? "enqueued" : "duplicates", in: db)
        return inserted
    }

    /// A row set aside because it could not be read back as a message.
    struct Quarantined: Sendable {
        var id: Int64
        var reason: String
    }

    /// One look at a destination's due messages (``due(destination:at:limit:)``, ``claimDue(destination:at:limit:until:admit:)``).
    struct DuePage: Sendable {
        var messages: [OutboxMessage] = []
        var quarantined: [Quarantined] = []
    }

    /// A place in the messages due by date: after the message due at `date` whose row is `row`.
    private struct DueCursor {
        var date: Double
        var row: Int64
    }

    /// Messages for `destination` due at `now` and not claimed by a live store, oldest first (this store's own live
    /// claims are the attempts its caller has under way). Rows that cannot
    /// be read back are set aside (``Quarantined``) and returned apart, so that one bad row never blocks the others.
    func due(destination: String, at now: Double, limit: Int) throws -> DuePage {
        try database.write { db in
            // This store's own live claims are attempts its caller has under way: left out here, so that a
            // destination with a thousand beacons in flight does not read them all again at every attempt's end.
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT * FROM message
                WHERE destination = ? AND quarantined = 0 AND nextAttemptAt <= ?
                  AND (claimedBy IS NULL OR claimedBy != ? OR claimedUntil IS NULL OR claimedUntil < ?)
                ORDER BY id LIMIT ?
                """), arguments: [destination, now, owner.id, now, limit * 2])
            var page = DuePage()
            try collect(rows, into: &page, limit: limit, now: now, in: db)
            return page
        }
    }

    /// Claims until `until` the messages for `destination` due at `now` that `admit` takes, at most `limit`, earliest
    /// due first, in one transaction: for a destination whose messages go each on its own. The claims that can be
    /// taken over (another store's whose process died or whose claim lapsed, this store's own lapsed ones) come first,
    /// then unclaimed messages by due date. Every part is read through an index of its own (`messageClaims`,
    /// `messageUnclaimedDue`), so that a look costs what it starts, not the thousands of messages in flight or
    /// waiting for a retry beside it; a message `admit` passes over (its host at its limit) stays unclaimed.
    func claimDue(destination: String, at now: Double, limit: Int, until: Double,
                  admit: (OutboxMessage) -> Bool) throws -> DuePage {
        try database.write { db in
            var page = DuePage()
            let claim = try db.cachedStatement(sql: "UPDATE message SET claimedUntil = ?, claimedBy = ? WHERE id = ?")
            func taken(_ rows: [Row], _ page: inout DuePage) throws {
                var candidates = DuePage()
                try collect(rows, into: &candidates, limit: rows.count, now: now, in: db)
                page.quarantined += candidates.quarantined
                for message in candidates.messages where page.messages.count < limit && admit(message) {
                    try claim.execute(arguments: [until, owner.id, message.id])
                    page.messages.append(message)
                }
            }
            try taken(Row.fetchAll(db.cachedStatement(sql: """
                SELECT * FROM message WHERE destination = ?1 AND claimedBy IS NOT NULL AND claimedBy < ?2
                  AND quarantined = 0 AND nextAttemptAt <= ?3
                UNION ALL
                SELECT * FROM message WHERE destination = ?1 AND claimedBy IS NOT NULL AND claimedBy > ?2
                  AND quarantined = 0 AND nextAttemptAt <= ?3
                UNION ALL
                SELECT * FROM message WHERE destination = ?1 AND claimedBy IS NOT NULL AND claimedBy = ?2
                  AND claimedUntil < ?3 AND quarantined = 0 AND nextAttemptAt <= ?3
                """), arguments: [destination, owner.id, now]), &page)
            // Unclaimed messages a page at a time (as many as there are places left, or a batch past messages
            // `admit` passed over), until the places are filled or none is left.
            var cursor = DueCursor(date: -Double.greatestFiniteMagnitude, row: 0)
            var pageSize = limit
            while page.messages.count < limit {
                let rows = try Row.fetchAll(db.cachedStatement(sql: """
                    SELECT * FROM message
                    WHERE destination = ? AND claimedBy IS NULL AND quarantined = 0 AND nextAttemptAt <= ?
                      AND (nextAttemptAt, id) > (?, ?)
                    ORDER BY nextAttemptAt, id LIMIT ?
                    """), arguments: [destination, now, cursor.date, cursor.row, pageSize])
                try taken(rows, &page)
                guard rows.count == pageSize, let last = rows.last,
                      let date = try? last.decode(Double.self, forColumn: "nextAttemptAt"),
                      let row = try? last.decode(Int64.self, forColumn: "id") else { break }
                cursor = DueCursor(date: date, row: row)
                pageSize = max(pageSize, 64)
            }
            return page
        }
    }

    /// Adds the messages of `rows` to `page`, up to `limit`: a row another live store claims is passed over, one that
    /// cannot be read back is set aside.
    private func collect(_ rows: [Row], into page: inout DuePage, limit: Int, now: Double, in db: Database) throws {
        for row in rows {
            guard page.messages.count < limit else { return }
            // Another live process is sending it.
            if let other = try? row.decode(String?.self, forColumn: "claimedBy"), other != owner.id,
               let until = try? row.decode(Double?.self, forColumn: "claimedUntil"), until >= now,
               ClaimOwner.isAlive(other) { continue }
            do {
                activity.decoded.add(1, ordering: .relaxed)
                page.messages.append(try Self.message(row))
            } catch {
                let id: Int64 = try row.decode(forColumn: "id")
                let reason = "unreadable row: \(error)"
                try db.cachedStatement(sql: "UPDATE message SET quarantined = 1, lastError = ? WHERE id = ?").execute(arguments: [reason, id])
                page.quarantined.append(Quarantined(id: id, reason: reason))
            }
        }
    }

    /// Claims a message for one delivery attempt until `until`; `false` when a live process holds it. The claim
    /// of a process that died (killed mid-delivery) is taken over at once.
    func claim(_ id: Int64, until: Double, now: Double) throws -> Bool {
        try database.write { db in
            let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT claimedBy, claimedUntil FROM message WHERE id = ?"), arguments: [id])
            guard let row else { return false }
            let other = try row.decode(String?.self, forColumn: "claimedBy")
            let held = try row.decode(Double?.self, forColumn: "claimedUntil")
            if let other, let held, held >= now, other != owner.id, ClaimOwner.isAlive(other) { return false }
            try db.cachedStatement(sql: "UPDATE message SET claimedUntil = ?, claimedBy = ? WHERE id = ?").execute(arguments: [until, owner.id, id])
            return true
        }
    }

    /// Gives a claimed message back without counting an attempt (its destination was paused).
    func release(_ id: Int64) throws {
        try database.write { db in
            try db.cachedStatement(sql: "UPDATE message SET claimedUntil = NULL, claimedBy = NULL WHERE id = ?").execute(arguments: [id])
        }
    }

    /// Makes every message of `destinations` waiting for a retry due at `now` (an explicit flush).
    func makeDue(at now: Double, destinations: [String]) throws {
        guard !destinations.isEmpty else { return }
        let placeholders = Array(repeating: "?", count: destinations.count).joined(separator: ",")
        try database.write { db in
            try db.cachedStatement(sql: """
                UPDATE message SET nextAttemptAt = MAX(?, COALESCE(notBefore, 0))
                WHERE nextAttemptAt > ? AND destination IN (\(placeholders))
                """).execute(arguments: StatementArguments([now, now] as [any DatabaseValueConvertible] + destinations))
        }
    }

    /// How many messages of `destination` fall due by `horizon` and are not held by another live process's claim.
    func deliverableCount(destination: String, dueBy horizon: Double, now: Double) throws -> Int {
        try read { db in
            var count = try Int.fetchOne(db.cachedStatement(sql: """
                SELECT COUNT(*) FROM message
                WHERE destination = ? AND quarantined = 0 AND nextAttemptAt <= ? AND (claimedUntil IS NULL OR claimedUntil < ?)
                """), arguments: [destination, horizon, now]) ?? 0
            // Claims still running: those of processes that died count as deliverable.
            for row in try Row.fetchAll(db.cachedStatement(sql: """
                SELECT claimedBy, COUNT(*) AS count FROM message
                WHERE destination = ? AND quarantined = 0 AND nextAttemptAt <= ? AND claimedUntil >= ?
                GROUP BY claimedBy
                """), arguments: [destination, horizon, now]) {
                let other = try row.decode(String?.self, forColumn: "claimedBy")
                if other.map({ $0 == owner.id || !ClaimOwner.isAlive($0) }) ?? true {
                    count += try row.decode(Int.self, forColumn: "count")
                }
            }
            return count
        }
    }

    /// When the next stored message for `destinations` is due, if any; with `after`, the first date past it (the
    /// messages due already are being sent, or wait for an attempt to end).
    func nextDue(destinations: [String], after now: Double? = nil) throws -> Double? {
        guard !destinations.isEmpty else { return nil }
        let placeholders = Array(repeating: "?", count: destinations.count).joined(separator: ",")
        let later = now == nil ? "" : " AND nextAttemptAt > ?"
        return try read { db in
            try Double.fetchOne(db.cachedStatement(sql: """
                SELECT MIN(nextAttemptAt) FROM message WHERE quarantined = 0 AND destination IN (\(placeholders))\(later)
                """), arguments: StatementArguments(destinations as [any DatabaseValueConvertible] + (now.map { [$0] } ?? [])))
        }
    }

    /// The earliest date after `horizon` before which a server asked (Retry-After) not to be sent a message of
    /// `destination` again, if any message waits so.
    func nextNotBefore(destination: String, after horizon: Double) throws -> Double? {
        try read { db in
            try Double.fetchOne(db.cachedStatement(sql: """
                SELECT MIN(notBefore) FROM message WHERE quarantined = 0 AND destination = ? AND notBefore > ?
                """), arguments: [destination, horizon])
        }
    }

    /// Replaces a message by the pieces it was cut into, in one transaction: each piece keeps the message's
    /// destination, date and key memory, and is due at `now` with no attempt counted.
    func replace(_ id: Int64, with pieces: [OutboxMessage], at now: Double) throws {
        let metadata = try pieces.map(Self.metadataText)
        try database.write { db in
            guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT destination, createdAt, remembersKey FROM message WHERE id = ?"),
                                             arguments: [id]) else { return }
            let destination: String = try row.decode(forColumn: "destination")
            let createdAt: Double = try row.decode(forColumn: "createdAt")
            let remembersKey = try row.decode(Bool?.self, forColumn: "remembersKey") ?? false
            try db.cachedStatement(sql: "DELETE FROM message WHERE id = ?").execute(arguments: [id])
            for (piece, metadata) in zip(pieces, metadata) {
                try db.cachedStatement(sql: """
                    INSERT OR IGNORE INTO message
                        (key, destination, payload, metadata, createdAt, attempts, nextAttemptAt, lastError, remembersKey)
                    VALUES (?, ?, ?, ?, ?, 0, ?, NULL, ?)
                    """).execute(arguments: [piece.key, destination, Data(piece.payload), metadata, createdAt, now, remembersKey])
            }
            try Self.increment("split", in: db)
        }
    }

    /// Removes a delivered or rejected message and counts it; remembers its key when the message asks.
    func remove(_ id: Int64, counting counter: String, at now: Double) throws {
        try database.write { db in
            try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO settled (key, outcome, settledAt)
                SELECT key, ?, ? FROM message WHERE id = ? AND remembersKey = 1
                """).execute(arguments: [counter, now, id])
            try db.cachedStatement(sql: "DELETE FROM message WHERE id = ?").execute(arguments: [id])
            // Counted once, even if the bounds removed it meanwhile.
            if db.changesCount > 0 { try Self.increment(counter, in: db) }
        }
    }

    /// Records a failed attempt; `notBefore`, the date before which the server asked not to be sent it again
    /// (Retry-After), if it asked.
    func reschedule(_ id: Int64, attempts: Int, nextAttemptAt: Double, notBefore: Double?, error: String) throws {
        try database.write { db in
            try db.cachedStatement(sql: "UPDATE message SET attempts = ?, nextAttemptAt = ?, notBefore = ?, lastError = ?, claimedUntil = NULL, claimedBy = NULL WHERE id = ?").execute(arguments: [attempts, nextAttemptAt, notBefore, error, id])
            try Self.increment("retried", in: db)
        }
    }

    /// Drops messages older than `bounds.oldest`, then the oldest ones while the payloads exceed its bytes; returns
    /// how many were dropped.
    func enforce(_ bounds: Bounds) throws -> Int {
        try database.write { db in try Self.enforce(bounds, in: db) }
    }

    private static func enforce(_ bounds: Bounds, in db: Database) throws -> Int {
        try db.cachedStatement(sql: "DELETE FROM settled WHERE settledAt < ?").execute(arguments: [bounds.oldest])
        try db.cachedStatement(sql: "DELETE FROM message WHERE createdAt < ?").execute(arguments: [bounds.oldest])
        var dropped = db.changesCount
        var total = try Int.fetchOne(db.cachedStatement(sql: "SELECT value FROM counter WHERE name = 'pendingBytes'"))
            ?? Int.fetchOne(db.cachedStatement(sql: "SELECT COALESCE(SUM(LENGTH(payload)), 0) FROM message")) ?? 0
        while total > bounds.maximumBytes {
            guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT id, LENGTH(payload) AS size FROM message ORDER BY id LIMIT 1"))
            else { break }
            let id: Int64 = try row.decode(forColumn: "id")
            let size: Int = try row.decode(Int?.self, forColumn: "size") ?? 0
            try db.cachedStatement(sql: "DELETE FROM message WHERE id = ?").execute(arguments: [id])
            total -= size
            dropped += 1
        }
        if dropped > 0 { try increment("dropped", by: dropped, in: db) }
        return dropped
    }

    /// What became of the messages whose key starts with `prefix`: stored ones, and remembered settled ones.
    func keyStates(withPrefix prefix: String) throws -> [String: OutboxKeyState] {
        // Keys compare as bytes: every key with the prefix sorts between it and the prefix followed by the highest
        // code point, so both lookups use the key indexes.
        let upper = prefix + "\u{10FFFF}"
        return try read { db in
            var states: [String: OutboxKeyState] = [:]
            let settled = try Row.fetchAll(db.cachedStatement(sql: "SELECT key, outcome FROM settled WHERE key >= ? AND key < ?"),
                                           arguments: [prefix, upper])
            for row in settled {
                let key: String = try row.decode(forColumn: "key")
                let outcome: String = try row.decode(forColumn: "outcome")
                states[key] = outcome == "delivered" ? .delivered : .rejected
            }
            let stored = try Row.fetchAll(db.cachedStatement(sql: "SELECT key, attempts FROM message WHERE key >= ? AND key < ?"),
                                          arguments: [prefix, upper])
            for row in stored {
                states[try row.decode(forColumn: "key")] = .pending(attempts: try row.decode(forColumn: "attempts"))
            }
            return states
        }
    }

    func statistics() throws -> OutboxStatistics {
        try read { db in
            var statistics = OutboxStatistics()
            for row in try Row.fetchAll(db, sql: "SELECT name, value FROM counter") {
                guard let name = try? row.decode(String.self, forColumn: "name"),
                      let value = try? row.decode(Int.self, forColumn: "value") else { continue }
                switch name {
                case "enqueued": statistics.enqueued = value
                case "delivered": statistics.delivered = value
                case "retried": statistics.retried = value
                case "rejected": statistics.rejected = value
                case "dropped": statistics.dropped = value
                case "duplicates": statistics.duplicates = value
                case "split": statistics.split = value
                default: break
                }
            }
            statistics.pending = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM message") ?? 0
            statistics.pendingBytes = try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(LENGTH(payload)), 0) FROM message") ?? 0
            for row in try Row.fetchAll(db, sql: "SELECT destination, COUNT(*) AS count FROM message GROUP BY destination") {
                guard let destination = try? row.decode(String.self, forColumn: "destination") else { continue }
                statistics.pendingByDestination[destination] = try row.decode(forColumn: "count")
            }
            statistics.oldestPending = try Double.fetchOne(db, sql: "SELECT MIN(createdAt) FROM message")
            statistics.quarantined = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM message WHERE quarantined = 1") ?? 0
            return statistics
        }
    }

    private static func increment(_ name: String, by amount: Int = 1, in db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO counter (name, value) VALUES (?, ?)
            ON CONFLICT(name) DO UPDATE SET value = value + excluded.value
            """).execute(arguments: [name, amount])
    }

    /// A row as a message; throws (never traps) on a row that a damaged or hand-edited file holds.
    private static func message(_ row: Row) throws -> OutboxMessage {
        let metadataText: String = try row.decode(forColumn: "metadata")
        let metadata = try JSONDecoder().decode([String: String].self, from: Data(metadataText.utf8))
        let payload: Data = try row.decode(forColumn: "payload")
        return OutboxMessage(
            id: try row.decode(forColumn: "id"), key: try row.decode(forColumn: "key"),
            destination: try row.decode(forColumn: "destination"), payload: Array(payload), metadata: metadata,
            createdAt: try row.decode(forColumn: "createdAt"), attempts: try row.decode(forColumn: "attempts"),
            nextAttemptAt: try row.decode(forColumn: "nextAttemptAt"), lastError: try row.decode(forColumn: "lastError"),
            remembersKey: try row.decode(Bool?.self, forColumn: "remembersKey") ?? false)
    }
}

/// Who holds a claim on a message: one open store, named by its process id and a random part. Processes sharing an
/// outbox file run on one machine (SQLite's locking needs it), so a claim whose process is gone is taken over at
/// once instead of waiting for its end; two stores of one process respect each other's claims.
struct ClaimOwner: Sendable {
    let id = "\(getpid())/\(UUID().uuidString.prefix(8))"

    /// Whether the process of a claim runs (a signal 0 probes it without sending anything).
    static func isAlive(_ owner: String) -> Bool {
        guard let pid = owner.split(separator: "/").first.flatMap({ Int32($0) }), pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}
