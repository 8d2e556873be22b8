import Foundation
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
}
