import Foundation
import GRDB
import Testing
@testable import PlaytraceNetwork

@Suite("OutboxStore: what a delivery pass reads")
struct OutboxStoreTests {
    @Test("A due page leaves out what this store has claimed and not released: the attempts under way")
    func duePageSkipsOwnLiveClaims() throws {
        let store = try OutboxStore(path: nil)
        for index in 0..<5 {
            _ = try store.insert(OutboxMessage(destination: "beacons", payload: [UInt8(index)]), rememberedSince: 0)
        }
        let ids = try store.due(destination: "beacons", at: 10, limit: 10).messages.compactMap(\.id)
        #expect(ids.count == 5)
        #expect(try store.claim(ids[0], until: 100, now: 10))
        #expect(try store.claim(ids[1], until: 100, now: 10))
        // A thousand beacons in flight are not read again at each attempt's end.
        #expect(try store.due(destination: "beacons", at: 10, limit: 10).messages.compactMap(\.id) == Array(ids[2...]))
        // Released (its attempt over), or its claim expired, a message is due again.
        try store.release(ids[0])
        #expect(try store.due(destination: "beacons", at: 10, limit: 10).messages.compactMap(\.id) == [ids[0]] + ids[2...])
        #expect(try store.due(destination: "beacons", at: 101, limit: 10).messages.compactMap(\.id) == ids)
    }

    @Test("Claiming due messages: earliest due first; claims taken over only when their process died or they lapsed")
    func claimDueByDate() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("outbox.sqlite").path
        let store = try OutboxStore(path: path)
        // Due at 5, 3, 4, 1, 2 (in the order of their rows), one due only at 50 (a retry's backoff), one elsewhere.
        for (index, due) in [5.0, 3, 4, 1, 2, 50].enumerated() {
            _ = try store.insert(OutboxMessage(key: "m\(index)", destination: "beacons", payload: [], nextAttemptAt: due),
                                 rememberedSince: 0)
        }
        _ = try store.insert(OutboxMessage(key: "other", destination: "telemetry", payload: []), rememberedSince: 0)
        func claim(at now: Double = 10, limit: Int = 10, admit: (OutboxMessage) -> Bool = { _ in true }) throws -> [String] {
            try store.claimDue(destination: "beacons", at: now, limit: limit, until: 100, admit: admit).messages.map(\.key)
        }
        // What `admit` passes over (its host at its limit) stays unclaimed, and the look goes on past it.
        #expect(try claim(limit: 2) { $0.key != "m1" } == ["m3", "m4"])
        #expect(try claim(limit: 1) == ["m1"])
        // This store's claims are its attempts under way: left out until they lapse.
        #expect(try claim() == ["m2", "m0"])
        #expect(try claim().isEmpty)
        #expect(try claim(at: 101).sorted() == ["m0", "m1", "m2", "m3", "m4", "m5"])

        // Another live store's claim is respected; a claim whose process is gone is taken over at once.
        let other = try OutboxStore(path: path)
        #expect(try other.claimDue(destination: "beacons", at: 200, limit: 10, until: 300) { $0.key == "m3" }.messages.count == 1)
        let database = try DatabaseQueue(path: path)
        try database.write { db in
            try db.execute(sql: "UPDATE message SET claimedBy = NULL, claimedUntil = NULL WHERE key != 'm3'")
            try db.execute(sql: "UPDATE message SET claimedBy = '999999999/gone', claimedUntil = 300 WHERE key = 'm1'")
        }
        #expect(try claim(at: 200) == ["m1", "m4", "m2", "m0", "m5"])
    }
}
