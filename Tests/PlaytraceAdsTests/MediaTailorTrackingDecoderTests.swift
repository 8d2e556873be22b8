import PlaytraceCore
import PlaytraceAds
import Testing

@Suite("MediaTailor tracking decoding")
struct MediaTailorTrackingDecoderTests {
    // Shaped like the AWS user guide's examples: seconds from the session's start, adId as segment numbers,
    // breakEnd listed before breakStart, an about:blank beacon, a clickThrough, a non-linear avail.
    static let sample = """
    {"avails":[{"availId":"7","availProgramDateTime":"2023-05-03T21:24:41.453Z","startTime":"PT18.581355S",
      "startTimeInSeconds":18.581,"duration":"PT30S","durationInSeconds":30,
      "adBreakTrackingEvents":[{"eventType":"breakEnd","beaconUrls":["https://b.example/end"]},
                               {"eventType":"breakStart","beaconUrls":["https://b.example/start"]}],
      "ads":[{"adId":"4603269","adTitle":"Ad one","startTimeInSeconds":18.581,"durationInSeconds":15,
        "trackingEvents":[
          {"eventId":"4603269","eventType":"impression","startTimeInSeconds":18.581,"durationInSeconds":15,"beaconUrls":["https://t.example/imp","about:blank"]},
          {"eventId":"4603269","eventType":"start","startTimeInSeconds":18.581,"durationInSeconds":0,"beaconUrls":["https://t.example/start"]},
          {"eventId":"4603271","eventType":"firstQuartile","startTimeInSeconds":22.331,"beaconUrls":["https://t.example/q1"]},
          {"eventType":"complete","beaconUrls":["https://t.example/complete"]},
          {"eventType":"clickThrough","beaconUrls":["https://advertiser.example/landing"]}]},
       {"adID":4603274,"startTime":"PT33.581S","duration":"PT15S","trackingEvents":[]}]}],
     "nonLinearAvails":[{"availId":"9"}],
     "nextToken":"UFQxOC4xNjFTXzIwMjMtMDUtMDNUMjE6MjQ6NDEuNDUzWg==",
     "dashAvailabilityStartTime":null,"hlsAnchorMediaSequenceNumber":null}
    """

    @Test("DASH live: times from dashAvailabilityStartTime become dates, keys and all; a value that is no date is said")
    func dashLive() throws {
        let live = Self.sample.replacingOccurrences(of: #""dashAvailabilityStartTime":null"#,
                                                    with: #""dashAvailabilityStartTime":"2026-01-01T00:00:00Z""#)
        let metadata = try MediaTailorTrackingDecoder().decode(Array(live.utf8))
        #expect(metadata.timeline == .programDateTime)
        let origin = AdTime(try StreamDate(iso8601: "2026-01-01T00:00:00Z"))
        let pod = try #require(metadata.pods.first)
        #expect(pod.startTime == origin + 18_581 && pod.duration == 30_000)
        #expect(pod.trackingEvents.map(\.startTime) == [origin + 18_581, origin + 48_581])
        let start = try #require(pod.ads.first?.trackingEvents.first { $0.event == .start })
        #expect(start.startTime == origin + 18_581 && start.id.time == Int64(origin.milliseconds) + 18_581)
        #expect(!metadata.problems.contains { $0.path.contains("dashAvailabilityStartTime") })
        let broken = Self.sample.replacingOccurrences(of: #""dashAvailabilityStartTime":null"#,
                                                      with: #""dashAvailabilityStartTime":"yesterday""#)
        let kept = try MediaTailorTrackingDecoder().decode(Array(broken.utf8))
        #expect(kept.timeline == .mediaTime && kept.pods.first?.startTime == 18_581)
        #expect(kept.problems.contains { $0.path.contains("dashAvailabilityStartTime") })
    }

    @Test("Avails become breaks on the session's timeline; break events at the avail's start and end; clickThrough is not a beacon")
    func wellFormed() throws {
        let metadata = try MediaTailorTrackingDecoder().decode(Array(Self.sample.utf8))
        #expect(metadata.timeline == .mediaTime)
        #expect(metadata.nextToken == "UFQxOC4xNjFTXzIwMjMtMDUtMDNUMjE6MjQ6NDEuNDUzWg==")
        #expect(metadata.nonLinearAvailCount == 1)
        let pod = try #require(metadata.pods.first)
        #expect(pod.id == "7" && pod.startTime == 18_581 && pod.duration == 30_000)
        #expect(pod.trackingEvents.map(\.event) == [.breakStart, .breakEnd])
        #expect(pod.trackingEvents.map(\.startTime) == [18_581, 48_581])
        #expect(pod.ads.map(\.id) == ["4603269", "4603274"])
        let ad = pod.ads[0]
        #expect(ad.title == "Ad one" && ad.clickThrough == "https://advertiser.example/landing")
        #expect(ad.trackingEvents.map(\.event) == [.impression, .start, .firstQuartile, .complete])
        #expect(ad.trackingEvents[2].startTime == 22_331)
        #expect(ad.trackingEvents[3].startTime == 33_581, "complete without a time is placed at the ad's end")
        #expect(metadata.problems.map(\.path) == ["avails[0].ads[0].trackingEvents[3]"])
        #expect(pod.ads[1].startTime == 33_581 && pod.ads[1].duration == 15_000)
    }

    @Test("An avail announced with duration 0 grows to its ads; an avail without ads is kept; bad avails are problems")
    func liveShapes() throws {
        let body = """
        {"avails":[
          {"availId":"a","startTimeInSeconds":100,"durationInSeconds":0,"ads":[
            {"adId":"1","startTimeInSeconds":100,"durationInSeconds":10,"trackingEvents":[]}]},
          {"availId":"b","startTimeInSeconds":200,"durationInSeconds":0,"ads":[]},
          {"availId":"c","durationInSeconds":10},
          {"availId":"d","startTime":"soon","ads":[]}],
         "nextToken":""}
        """
        let metadata = try MediaTailorTrackingDecoder().decode(Array(body.utf8))
        #expect(metadata.pods.map(\.id) == ["a", "b"])
        #expect(metadata.pods[0].duration == 10_000)
        #expect(metadata.nextToken == nil)
        #expect(metadata.problems.contains { $0.path == "avails[2]" })
        #expect(metadata.problems.contains { $0.path == "avails[3].startTime" })
    }

    @Test("ISO 8601 durations as MediaTailor writes them")
    func durations() throws {
        func start(_ text: String) throws -> Double? {
            let body = #"{"avails":[{"availId":"x","startTime":"\#(text)","ads":[]}]}"#
            return try MediaTailorTrackingDecoder().decode(Array(body.utf8)).pods.first?.startTime.milliseconds
        }
        #expect(abs(try #require(try start("PT17.817798612S")) - 17_817.798612) < 1e-6)
        #expect(try start("PT1H2M3.5S") == 3_723_500)
        #expect(try start("P1DT0S") == 86_400_000)
        #expect(try start("PT") == nil)
        #expect(try start("P1S") == nil)
        #expect(try start("PT1.2.3S") == nil)
    }
}

@Suite("Beacon macros and URLs")
struct BeaconMacroTests {
    static let values: BeaconMacroValues = {
        var values = BeaconMacroValues(timestamp: StreamDate(secondsSince1970: 1_800_000_000.25), adPlayhead: 7.5,
                                       mediaPlayhead: 3_725.004, breakPosition: 2)
        values.clientUA = "playtrace/1.0 (linux)"
        return values
    }()

    @Test("Registered macros are filled and percent-encoded; unknown registered ones become -1; other brackets stay")
    func filling() {
        let template = "https://t.example/p?cb=[CACHEBUSTING]&ts=[TIMESTAMP]&ap=[ADPLAYHEAD]&mp=[MEDIAPLAYHEAD]"
            + "&bp=[BREAKPOSITION]&ss=[SERVERSIDE]&lat=[LIMITADTRACKING]&ua=[CLIENTUA]&ifa=[IFA]&x=[NOTAMACRO]&y=[a]&z=[&w=]"
        let filled = BeaconMacros.fill(template, with: Self.values, random: { 4_242 })
        #expect(filled == "https://t.example/p?cb=00004242&ts=2027-01-15T08%3A00%3A00.250Z&ap=00%3A00%3A07.500"
            + "&mp=01%3A02%3A05.004&bp=2&ss=0&lat=0&ua=playtrace%2F1.0%20%28linux%29&ifa=-1&x=[NOTAMACRO]&y=[a]&z=[&w=]")
        #expect(BeaconMacros.fill("https://t.example/plain", with: Self.values) == "https://t.example/plain")
        #expect(BeaconMacros.fill("[RANDOM]", with: Self.values, random: { 99_999_999 }) == "99999999")
    }

    @Test("Filling is linear in the URL's length, even for a URL of brackets")
    func linear() {
        let clock = ContinuousClock()
        func time(_ count: Int) -> Duration {
            let template = String(repeating: "[[CACHEBUSTING", count: count)
            return (0..<3).map { _ in clock.measure { _ = BeaconMacros.fill(template, with: Self.values) } }.min()!
        }
        let small = time(2_000)
        let large = time(32_000)
        #expect(large / small < 64, "2,000: \(small), 32,000: \(large)")
    }

    @Test("Only http and https are requested; about:blank is skipped; ftp:, javascript: and junk are refused")
    func policy() {
        guard case .request(let url) = BeaconURLPolicy.verdict(for: "https://t.example/i?x=1") else {
            Issue.record("https refused"); return
        }
        #expect(url.host == "t.example")
        guard case .request(let relative) = BeaconURLPolicy.verdict(for: "//t.example/i") else {
            Issue.record("protocol-relative refused"); return
        }
        #expect(relative.scheme == "https")
        #expect(BeaconURLPolicy.verdict(for: "about:blank") == .skip)
        #expect(BeaconURLPolicy.verdict(for: "ABOUT:BLANK") == .skip)
        for text in ["ftp://t.example/i", "javascript:alert(1)", "file:///etc/passwd", "", "   ", "http://"] {
            guard case .refuse = BeaconURLPolicy.verdict(for: text) else {
                Issue.record("\(text) was not refused"); continue
            }
        }
        #expect(BeaconURLPolicy.verdict(for: "javascript:alert(1)") == .refuse("the javascript: scheme is never requested"))
    }
}
