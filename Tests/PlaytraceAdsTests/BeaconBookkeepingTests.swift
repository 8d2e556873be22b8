@testable import PlaytraceAds
import PlaytraceCore
import PlaytracePlayer
import Testing

@Suite("The session's bookkeeping: prepared beacons, the book, played spans, the log")
struct BeaconBookkeepingTests {
    private func firing(_ urls: [String], overLimit: Int = 0) -> BeaconFiring {
        var firing = BeaconFiring(key: TrackingEventKey(podID: "p", adID: "a", event: .impression, time: 0), occurrence: 0,
                                  event: .impression, mediaTime: 10_000, crossing: .seconds(10), cause: .crossed, urls: urls,
                                  adPlayhead: 0, adStart: 10_000, podStart: 10_000, errorCode: nil)
        firing.urlsOverLimit = overLimit
        return firing
    }

    @Test("A prepared beacon requests http(s) URLs only, macros filled; others get their outcome and a note")
    func prepared() {
        let values = BeaconMacroValues(timestamp: StreamDate(secondsSince1970: 0), adPlayhead: 0, limitAdTracking: true)
        let prepared = PreparedBeacon(firing(["https://v.example/i?lat=[LIMITADTRACKING]", "about:blank", "javascript:x()"],
                                             overLimit: 2),
                                      deliveryKey: "k", values: values, sentAt: .seconds(11))
        #expect(prepared.messages.map(\.message.key) == ["k/0"])
        #expect(prepared.messages.first?.message.metadata["url"] == "https://v.example/i?lat=1")
        #expect(prepared.record.urls[0].outcome == nil && prepared.record.urls[1].outcome == .skipped)
        guard case .refused(let reason) = prepared.record.urls[2].outcome else {
            Issue.record("a javascript: URL is refused, not \(String(describing: prepared.record.urls[2].outcome))")
            return
        }
        #expect(!prepared.notes[0].isError && prepared.notes[0].message == "beacon k URL 3 not requested: \(reason)")
        #expect(prepared.notes.count == 2 && prepared.notes[1].isError && prepared.notes[1].message.contains("2 URL(s) past the limit"))
        #expect(prepared.record.urlsOverLimit == 2 && prepared.record.sentAt == .seconds(11))
    }

    @Test("The book finds beacons by key and answers a report: queued, then delivered or failed")
    func book() {
        var book = BeaconBook()
        let record = BeaconRecord(firing: firing(["https://a", "https://b"]), sentAt: .seconds(10),
                                  urls: [.init(url: "https://a"), .init(url: "https://b")])
        book.add(record, deliveryKey: "k")
        #expect(!book.firstAttemptsEnded(["k"]))
        #expect(book.update("k", url: 0) { $0.attempts = 1; $0.outcome = .delivered(.seconds(10)) })
        #expect(!book.update("k", url: 2) { $0.attempts = 1 }, "no third URL")
        #expect(!book.update("missing", url: 0) { $0.attempts = 1 })
        #expect(!book.firstAttemptsEnded(["k"]) && book.outcome(of: ["k"]) == .queued)
        book.update("k", url: 1) { $0.attempts = 1 }
        #expect(book.firstAttemptsEnded(["k"]) && book.outcome(of: ["k"]) == .queued && book.record("k")?.state == nil)
        book.update("k", url: 1) { $0.outcome = .delivered(.seconds(12)) }
        #expect(book.outcome(of: ["k"]) == .delivered && book.record("k")?.state == .done)
        book.update("k", url: 1) { $0.outcome = .failed("HTTP 410") }
        #expect(book.outcome(of: ["k"]) == .failed && book.record("k")?.state == .failed)
        #expect(book.records.count == 1)
    }

    @Test("Played spans: reports that follow each other are one span; a seek, a rate or a pause starts another")
    func spans() {
        var spans = PlayedSpans()
        spans.remember(PlaybackProgress(from: 0, to: 1, rate: 1), at: .seconds(1))
        spans.remember(PlaybackProgress(from: 1, to: 2, rate: 1), at: .seconds(2))
        #expect(spans.spans.count == 1 && spans.spans[0].progress.to == 2 && spans.spans[0].end == .seconds(2))
        // Handled late by a busy main actor (the instants a few tens of milliseconds off the engine's ticks): the
        // same span.
        spans.remember(PlaybackProgress(from: 2, to: 3, rate: 1), at: .milliseconds(3_040))
        spans.remember(PlaybackProgress(from: 3, to: 4, rate: 1), at: .milliseconds(3_990))
        #expect(spans.spans.count == 1 && spans.spans[0].progress.to == 4)
        spans.remember(PlaybackProgress(from: 30, to: 31, rate: 1), at: .seconds(3))  // a seek
        spans.remember(PlaybackProgress(from: 31, to: 33, rate: 2), at: .seconds(4))  // another rate
        spans.remember(PlaybackProgress(from: 33, to: 34, rate: 2), at: .seconds(10))  // after a pause
        #expect(spans.spans.map(\.progress.from) == [0, 30, 31, 33])
        #expect(PlayedSpans.continuity < .seconds(1))
    }

    @Test("Played spans are bounded: past the limit, the oldest half goes")
    func spanLimit() {
        var spans = PlayedSpans()
        for index in 0...spans.limit {
            let start = MediaTime(seconds: Double(index) * 10)
            spans.remember(PlaybackProgress(from: start, to: start + 1, rate: 1), at: .seconds(index * 10))
        }
        #expect(spans.spans.count == spans.limit / 2 + 1)
        #expect(spans.spans.first?.progress.from == MediaTime(seconds: Double(spans.limit / 2) * 10))
    }

    @Test("The log keeps its latest messages and the last error")
    func log() {
        var log = AdSessionLog()
        for index in 0..<(log.limit + 3) {
            log.append("m\(index)", isError: index == 1, at: StreamDate(secondsSince1970: Double(index)))
        }
        #expect(log.messages.count == log.limit && log.messages.first?.message == "m3" && log.latestError == "m1")
        #expect(log.messages.last?.timeStamp == StreamDate(secondsSince1970: Double(log.limit + 2)))
    }
}
