import Foundation
import PlaytraceAds
import Testing

@Suite("Harmonic ad metadata decoding")
struct HarmonicMetadataDecoderTests {
    static let sample = """
    {"adBreaks":[{"id":"pod-1","startTime":1700000010000,"duration":30000,"ads":[
      {"id":"ad-1","startTime":1700000010000,"duration":15000,"clickThrough":"https://click.example/1","trackingEvents":[
        {"event":"impression","startTime":1700000010000,"duration":15000,"signalingUrls":["https://t.example/imp?a=1","https://u.example/imp"]},
        {"event":"start","startTime":1700000010000,"duration":0,"signalingUrls":["https://t.example/start"]},
        {"event":"firstQuartile","startTime":1700000013750,"duration":0,"signalingUrls":["https://t.example/q1"]},
        {"event":"complete","startTime":1700000025000,"duration":0,"signalingUrls":["https://t.example/complete"]},
        {"event":"pause","startTime":1700000010000,"duration":15000,"signalingUrls":["https://t.example/pause"]},
        {"event":"clickAbstractType","startTime":1700000010000,"duration":0,"signalingUrls":[]}]},
      {"id":"ad-2","startTime":1700000025000,"duration":15000,"trackingEvents":[],"adVerifications":[{"vendor":"x"}]}]}],
     "dataRange":{"start":1700000000000,"end":1700000060000}}
    """

    @Test("A well-formed response: breaks, ads, events, URLs; dates recognised; unknown types kept as other")
    func wellFormed() throws {
        let metadata = try HarmonicMetadataDecoder().decode(Array(Self.sample.utf8))
        #expect(metadata.problems.isEmpty, "\(metadata.problems)")
        #expect(metadata.timeline == .programDateTime)
        #expect(metadata.dataRange == DataRange(start: 1_700_000_000_000, end: 1_700_000_060_000))
        let pod = try #require(metadata.pods.first)
        #expect(pod.id == "pod-1" && pod.duration == 30_000 && pod.ads.map(\.id) == ["ad-1", "ad-2"])
        let ad = pod.ads[0]
        #expect(ad.clickThrough == "https://click.example/1")
        #expect(ad.trackingEvents.map(\.event.rawValue)
            == ["impression", "start", "pause", "clickAbstractType", "firstQuartile", "complete"])
        #expect(ad.trackingEvents[0].signalingUrls.count == 2)
        #expect(ad.trackingEvents[0].id == TrackingEventKey(podID: "pod-1", adID: "ad-1", event: .impression, time: 1_700_000_010_000))
        #expect(ad.trackingEvents.first { $0.event.rawValue == "clickAbstractType" }?.event.kind == .other)
        #expect(ad.trackingEvents.allSatisfy { $0.reportingState == .idle })
    }

    @Test("URLs past the limit per event are not kept, and counted on the event")
    func urlsOverLimit() throws {
        let urls = (0..<53).map { "\"https://t.example/\($0)\"" }.joined(separator: ",")
        let body = """
        {"adBreaks":[{"id":"p","startTime":0,"duration":1000,"ads":[{"id":"a","startTime":0,"duration":1000,"trackingEvents":[
          {"event":"start","startTime":0,"signalingUrls":[\(urls)]},
          {"event":"complete","startTime":1000,"signalingUrls":["https://t.example/c"]}]}]}],
         "dataRange":{"start":0,"end":60000}}
        """
        let events = try HarmonicMetadataDecoder().decode(Array(body.utf8)).pods[0].ads[0].trackingEvents
        let start = try #require(events.first { $0.event == .start })
        #expect(start.signalingUrls.count == 50 && start.urlsOverLimit == 3)
        #expect(events.first { $0.event == .complete }?.urlsOverLimit == 0)
    }

    @Test("DASH's producer-clock times: read where given, placed by the media's offset, keys kept; a 0 is none, a non-date said")
    func producerClockTimes() throws {
        let body = """
        {"adBreaks":[{"id":"p","startTime":1700000010000,"prftStartTime":1700000011500,"duration":10000,"ads":[
          {"id":"a","startTime":1700000010000,"prftStartTime":1700000011500,"duration":10000,"trackingEvents":[
            {"event":"start","startTime":1700000010000,"prftStartTime":1700000011500,"signalingUrls":["https://t.example/s"]},
            {"event":"midpoint","startTime":1700000015000,"prftStartTime":0,"signalingUrls":["https://t.example/m"]},
            {"event":"complete","startTime":1700000020000,"prftStartTime":5,"signalingUrls":["https://t.example/c"]}]}]}],
         "dataRange":{"start":1700000000000,"end":1700000060000,"prftStart":1700000001500,"prftEnd":1700000061500}}
        """
        let metadata = try HarmonicMetadataDecoder().decode(Array(body.utf8))
        #expect(metadata.problems.map(\.path) == ["adBreaks[0].ads[0].trackingEvents[2].prftStartTime"], "\(metadata.problems)")
        #expect(metadata.hasProducerTimes)
        let events = metadata.pods[0].ads[0].trackingEvents
        #expect(events.map(\.producerStartTime) == [1_700_000_011_500, nil, nil])
        #expect(metadata.dataRange?.producerStart == 1_700_000_001_500 && metadata.dataRange?.producerEnd == 1_700_000_061_500)

        // The producer 2 s ahead of the stream's dates: each producer time less 2 s, the others as written.
        let placed = metadata.placingProducerTimes(offset: .seconds(2))
        #expect(placed.pods[0].startTime == 1_700_000_009_500 && placed.pods[0].ads[0].startTime == 1_700_000_009_500)
        #expect(placed.pods[0].ads[0].trackingEvents.map(\.startTime) == [1_700_000_009_500, 1_700_000_015_000, 1_700_000_020_000])
        #expect(placed.pods[0].ads[0].trackingEvents.map(\.id) == events.map(\.id), "keys are the written times")
        #expect(placed.dataRange == DataRange(start: 1_699_999_999_500, end: 1_700_000_059_500).with(producer: metadata.dataRange))
        let offsets = #"{"adBreaks":[{"id":"p","startTime":0,"prftStartTime":1700000011500,"duration":1000,"ads":[]}],"dataRange":{"start":0,"end":60000}}"#
        let vod = try HarmonicMetadataDecoder().decode(Array(offsets.utf8))
        #expect(vod.placingProducerTimes(offset: .seconds(2)) == vod, "offsets from the content's start are not dates to place")
    }

    @Test("Offsets from the content's start (VOD without dates) are told apart from dates by their values")
    func vodOffsets() throws {
        let body = #"{"adBreaks":[{"id":"pre","startTime":0,"duration":10000,"ads":[]}],"dataRange":{"start":0,"end":600000}}"#
        #expect(try HarmonicMetadataDecoder().decode(Array(body.utf8)).timeline == .mediaTime)
    }

    @Test("Missing fields and wrong types cost only their element; the others are kept, each problem has its path")
    func malformedElements() throws {
        let body = """
        {"adBreaks":[
          {"id":"no-start","duration":1000,"ads":[]},
          {"id":"good","startTime":5000,"duration":20000,"ads":[
            {"id":"bad-duration","startTime":5000,"duration":"long","trackingEvents":[]},
            {"id":"ok","startTime":5000,"duration":10000,"trackingEvents":[
              {"startTime":5000,"signalingUrls":["https://t.example/x"]},
              {"event":"start","startTime":"5000","signalingUrls":["https://t.example/x"]},
              {"event":"start","startTime":5000,"signalingUrls":"https://t.example/x"},
              {"event":"impression","startTime":5000,"signalingUrls":["https://t.example/i", 42, null]},
              "not an object"]},
            {"id":"no-events","startTime":15000,"duration":5000}]},
          7],
         "dataRange":{"start":0,"end":60000}}
        """
        let metadata = try HarmonicMetadataDecoder().decode(Array(body.utf8))
        #expect(metadata.pods.map(\.id) == ["good"])
        let ads = metadata.pods[0].ads
        #expect(ads.map(\.id) == ["ok", "no-events"])
        #expect(ads[0].trackingEvents.map(\.event) == [.impression])
        #expect(ads[0].trackingEvents[0].signalingUrls == ["https://t.example/i"])
        let paths = Set(metadata.problems.map(\.path))
        for expected in ["adBreaks[0].startTime", "adBreaks[1].ads[0].duration", "adBreaks[1].ads[1].trackingEvents[0].event",
                         "adBreaks[1].ads[1].trackingEvents[1].startTime", "adBreaks[1].ads[1].trackingEvents[2].signalingUrls",
                         "adBreaks[1].ads[1].trackingEvents[3].signalingUrls[1]", "adBreaks[1].ads[1].trackingEvents[4]",
                         "adBreaks[1].ads[2].trackingEvents", "adBreaks[2]"] {
            #expect(paths.contains(expected), "no problem reported at \(expected): \(metadata.problems)")
        }
    }

    @Test("Whole-response failures are typed: not JSON, not an object, no dataRange, too large")
    func fatalErrors() {
        let decoder = HarmonicMetadataDecoder()
        #expect(throws: AdMetadataError.notAnObject) { try decoder.decode(Array("[1,2]".utf8)) }
        #expect(throws: AdMetadataError.missingDataRange) { try decoder.decode(Array(#"{"adBreaks":[]}"#.utf8)) }
        #expect(throws: AdMetadataError.missingDataRange) {
            try decoder.decode(Array(#"{"adBreaks":[],"dataRange":{"start":"a","end":1}}"#.utf8))
        }
        do {
            _ = try decoder.decode(Array("{\"adBreaks\": [".utf8))
            Issue.record("truncated JSON decoded")
        } catch {
            guard case .invalidJSON = error else { Issue.record("unexpected \(error)"); return }
        }
        let huge = [UInt8](repeating: UInt8(ascii: " "), count: 5 << 20)
        #expect(throws: AdMetadataError.bodyTooLarge(size: 5 << 20, limit: 4 << 20)) { try decoder.decode(huge) }
        #expect(AdMetadataError.bodyTooLarge(size: 5 << 20, limit: 4 << 20).description.contains("5242880 bytes"))
    }

    @Test("Duplicate identifiers get their own identities")
    func duplicates() throws {
        let body = """
        {"adBreaks":[{"id":"p","startTime":0,"duration":20000,"ads":[
          {"id":"a","startTime":0,"duration":10000,"trackingEvents":[
            {"event":"start","startTime":0,"signalingUrls":["https://t/1"]},
            {"event":"start","startTime":0,"signalingUrls":["https://t/2"]}]},
          {"id":"a","startTime":10000,"duration":10000,"trackingEvents":[]}]}],
         "dataRange":{"start":0,"end":20000}}
        """
        let pod = try #require(try HarmonicMetadataDecoder().decode(Array(body.utf8)).pods.first)
        #expect(pod.ads.map(\.id) == ["a", "a#2"])
        #expect(Set(pod.ads[0].trackingEvents.map(\.id)).count == 2)
    }

    @Test("Decoding time grows linearly with the number of breaks, and the element limits hold")
    func scaling() throws {
        func body(pods: Int) -> [UInt8] {
            var text = #"{"adBreaks":["#
            for index in 0..<pods {
                if index > 0 { text += "," }
                let start = index * 60_000
                text += #"{"id":"p\#(index)","startTime":\#(start),"duration":30000,"ads":[{"id":"a","startTime":\#(start),"duration":30000,"trackingEvents":["#
                text += ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"].enumerated().map { offset, name in
                    #"{"event":"\#(name)","startTime":\#(start + offset * 7_500),"duration":0,"signalingUrls":["https://t.example/\#(name)?p=\#(index)"]}"#
                }.joined(separator: ",")
                text += "]}]}"
            }
            return Array((text + #"],"dataRange":{"start":0,"end":1}}"#).utf8)
        }
        var limits = AdMetadataLimits()
        limits.maximumPods = 100_000
        limits.maximumBodyBytes = 64 << 20
        let decoder = HarmonicMetadataDecoder(limits: limits)
        let clock = ContinuousClock()
        let small = body(pods: 250)
        let large = body(pods: 4_000)
        var smallBest = Duration.seconds(1_000)
        var largeBest = Duration.seconds(1_000)
        for _ in 0..<3 {
            smallBest = min(smallBest, clock.measure { #expect((try? decoder.decode(small))?.pods.count == 250) })
            largeBest = min(largeBest, clock.measure { #expect((try? decoder.decode(large))?.pods.count == 4_000) })
        }
        // Sixteen times the input, best of three (as the playlist parser's scaling tests): linear is ~16x, quadratic
        // ~256x; the bound leaves four times the room for a noisy machine.
        #expect(largeBest / smallBest < 64, "250 breaks: \(smallBest), 4,000: \(largeBest)")
        let limited = try HarmonicMetadataDecoder().decode(body(pods: 1_200))
        #expect(limited.pods.count == 1_000)
        #expect(limited.problems.contains { $0.path == "adBreaks" && $0.message.contains("1200 elements") })
    }
}

@Suite("Ad metadata numbers out of range")
struct AdMetadataRangeTests {
    /// Found by the fuzzer: a time of 1.7e26 ms trapped when made whole milliseconds for the event's key.
    @Test("Times too large for whole milliseconds are problems, not crashes")
    func hugeTimes() throws {
        let harmonic = """
        {"adBreaks":[{"id":"p","startTime":0,"duration":1000,"ads":[{"id":"a","startTime":0,"duration":1000,"trackingEvents":[
          {"event":"start","startTime":170888888888888888888888888,"signalingUrls":[]},
          {"event":"complete","startTime":1000,"signalingUrls":[]}]}]},
          {"id":"q","startTime":-1e300,"duration":1}],
         "dataRange":{"start":0,"end":1000}}
        """
        let metadata = try HarmonicMetadataDecoder().decode(Array(harmonic.utf8))
        #expect(metadata.pods.map(\.id) == ["p"])
        #expect(metadata.pods[0].ads[0].trackingEvents.map(\.event) == [.complete])
        #expect(metadata.problems.contains { $0.path == "adBreaks[0].ads[0].trackingEvents[0].startTime" && $0.message.contains("out of range") })
        let mediaTailor = #"{"avails":[{"availId":"x","startTimeInSeconds":1e300,"ads":[]},{"availId":"y","startTime":"PT99999999999999999999S","ads":[]}]}"#
        let tracking = try MediaTailorTrackingDecoder().decode(Array(mediaTailor.utf8))
        #expect(tracking.pods.isEmpty)
        #expect(tracking.problems.count == 4, "\(tracking.problems)")
    }
}

extension DataRange {
    /// This range with the producer-clock bounds of `other`.
    func with(producer other: DataRange?) -> DataRange {
        var range = self
        range.producerStart = other?.producerStart
        range.producerEnd = other?.producerEnd
        return range
    }
}
