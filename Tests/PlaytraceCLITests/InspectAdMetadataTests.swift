import Foundation
import Testing

/// `inspect` reads Harmonic ad metadata and MediaTailor tracking JSON too, told apart by their content.
@Suite("inspect: ad metadata JSON", .serialized)
struct InspectAdMetadataTests {
    private func file(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ads-\(UUID().uuidString).json")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test func harmonicMetadataInTextAndJSON() async throws {
        let url = try file("""
        {"adBreaks":[{"id":"pod-1","startTime":1700000010000,"duration":15000,"ads":[
          {"id":"ad-1","startTime":1700000010000,"duration":15000,"trackingEvents":[
            {"event":"impression","startTime":1700000010000,"duration":15000,"signalingUrls":["https://t.example/imp"]},
            {"event":"midpoint","startTime":1700000017500,"duration":0,"signalingUrls":["https://t.example/mid"]},
            {"event":"complete","startTime":"late","signalingUrls":["https://t.example/complete"]}]}]}],
         "dataRange":{"start":1700000000000,"end":1700000060000}}
        """)
        defer { try? FileManager.default.removeItem(at: url) }
        let text = try await CLITests.run(["inspect", url.path])
        #expect(text.status == 0, "stderr: \(text.error)")
        for expected in ["Harmonic ad metadata", "times are program-date-time", "1 break, 1 ad, 2 tracking events, 2 problems",
                         "break pod-1 at 2023-11-14T22:13:30.000Z, 15.000 s", "midpoint        +7.500 s (2023-11-14T22:13:37.500Z)",
                         "https://t.example/mid", "adBreaks[0].ads[0].trackingEvents[2].startTime: a string where a number was expected"] {
            #expect(text.output.contains(expected), "missing \(expected) in:\n\(text.output)")
        }
        let (json, object) = try await CLITests.inspectJSON([url.path])
        #expect(json.status == 0)
        #expect(object["kind"] as? String == "harmonic-ad-metadata" && object["timeline"] as? String == "program-date-time")
        let breaks = try #require(object["breaks"] as? [[String: Any]])
        #expect(breaks.first?["startDate"] as? String == "2023-11-14T22:13:30.000Z" && breaks.first?["startSeconds"] == nil)
        let ads = try #require(breaks.first?["ads"] as? [[String: Any]])
        let events = try #require(ads.first?["events"] as? [[String: Any]])
        #expect(events.map { $0["event"] as? String } == ["impression", "midpoint"])
        #expect(events.map { $0["offsetInAdSeconds"] as? Double } == [0, 7.5])
        #expect(events.last?["urls"] as? [String] == ["https://t.example/mid"])
        #expect(!json.output.contains("\\/"))
        let strict = try await CLITests.run(["inspect", url.path, "--strict"])
        #expect(strict.status == 1)
    }

    @Test func mediaTailorTrackingAndBrokenMetadata() async throws {
        let url = try file("""
        {"avails":[{"availId":"7","startTimeInSeconds":18.581,"durationInSeconds":15,
          "adBreakTrackingEvents":[{"eventType":"breakStart","beaconUrls":["https://b.example/s"]}],
          "ads":[{"adId":"4603269","adTitle":"Spot","startTimeInSeconds":18.581,"durationInSeconds":15,"trackingEvents":[
            {"eventType":"impression","startTimeInSeconds":18.581,"beaconUrls":["https://t.example/imp","about:blank"]},
            {"eventType":"clickThrough","beaconUrls":["https://advertiser.example/"]}]}]}],
         "nonLinearAvails":[],"nextToken":"abc"}
        """)
        defer { try? FileManager.default.removeItem(at: url) }
        let text = try await CLITests.run(["inspect", url.path])
        #expect(text.status == 0, "stderr: \(text.error)")
        for expected in ["MediaTailor tracking", "offsets from the start of the session", "next token: abc",
                         "break 7 at 18.581 s", "breakStart", "ad 4603269 at 18.581 s, 15.000 s \"Spot\"",
                         "click-through (opened, never requested): https://advertiser.example/", "about:blank"] {
            #expect(text.output.contains(expected), "missing \(expected) in:\n\(text.output)")
        }
        let broken = try file(#"{"adBreaks":[],"dataRange":{"start":0}}"#)
        defer { try? FileManager.default.removeItem(at: broken) }
        CLIRobustnessTests.expectCleanFailure(try await CLITests.run(["inspect", broken.path]),
                                              naming: "\(broken.path): ad metadata has no dataRange with a start and an end")
    }
}
