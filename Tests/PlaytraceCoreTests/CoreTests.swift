import Clocks
import Foundation
import Testing
@testable import PlaytraceCore

@Suite("Core: media time, stream dates, clocks, identifiers, broadcasting")
struct CoreTests {
    @Test("A UUID's 128 bits are written as lower-case hexadecimal in groups of 8, 4, 4, 4 and 12")
    func compactUUIDText() {
        let uuid = CompactUUID(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210)
        #expect(uuid.description == "01234567-89ab-cdef-fedc-ba9876543210")
        #expect(CompactUUID(high: 0, low: .max).description == "00000000-0000-0000-ffff-ffffffffffff")
        var random = FastRandom()
        let drawn = CompactUUID.random(using: &random).description
        #expect(Array(drawn)[14] == "4" && "89ab".contains(Array(drawn)[19]))
    }

    @Test("Random UUIDs: 36 lower-case characters, version 4, RFC variant, readable by Foundation, all different")
    func randomUUIDs() {
        var seen = Set<String>()
        for _ in 0..<2_000 {
            let text = RandomUUID.lowercasedString()
            let characters = Array(text)
            #expect(characters.count == 36)
            #expect(text == text.lowercased() && UUID(uuidString: text)?.uuidString.lowercased() == text)
            #expect([8, 13, 18, 23].allSatisfy { characters[$0] == "-" })
            #expect(characters[14] == "4")
            #expect("89ab".contains(characters[19]))
            seen.insert(text)
        }
        #expect(seen.count == 2_000)
        var fast = FastRandom()
        let drawn = Set((0..<2_000).map { _ in RandomUUID.lowercasedString(using: &fast) })
        #expect(drawn.count == 2_000 && drawn.allSatisfy { Array($0)[14] == "4" && UUID(uuidString: $0) != nil })
    }

    @Test("FastRandom is xoshiro256**: the reference implementation's outputs for state (1, 2, 3, 4)")
    func fastRandom() {
        var generator = FastRandom(state: (1, 2, 3, 4))
        #expect((0..<4).map { _ in generator.next() } == [11_520, 0, 1_509_978_240, 1_215_971_899_390_074_240])
    }

    @Test("Dates for people are rounded to milliseconds; the exact text keeps the binary noise of a sum")
    func millisecondDates() throws {
        let date = try StreamDate(iso8601: "2026-11-21T09:53:39.600Z")
        let noisy = StreamDate(secondsSince1970: date.secondsSince1970 + 0.000000832)
        #expect(noisy.iso8601 != "2026-11-21T09:53:39.600Z")
        #expect(noisy.iso8601Milliseconds == "2026-11-21T09:53:39.600Z")
        #expect(try StreamDate(iso8601: "1969-12-31T23:59:59.9996Z").iso8601Milliseconds == "1970-01-01T00:00:00.000Z")
    }

    @Test func mediaTimeArithmeticAndTimecode() {
        let time = MediaTime(seconds: 3723.4567)
        #expect(time.timecode == "01:02:03.457", "to the nearest millisecond, as inspect's figures")
        #expect(MediaTime(seconds: 21.599999999).timecode == "00:00:21.600")
        #expect(MediaTime(seconds: -0.0001).timecode == "00:00:00.000", "no minus zero")
        #expect(MediaTime(seconds: -1.5).timecode == "-00:00:01.500")
        #expect((MediaTime(seconds: 1.5) + 2) * 2 == 7)
        #expect(MediaTime(.milliseconds(1500)) == 1.5)
        #expect(MediaTime(seconds: 2.25).duration == .milliseconds(2250))
        #expect(MediaTime(seconds: .nan).timecode == "NaN")
    }

    @Test func mediaTimeRanges() {
        let range = MediaTimeRange(start: 10, end: 20)
        #expect(range.duration == 10 && range.contains(10) && !range.contains(20))
        #expect(range.clamp(25) == 20 && range.clamp(5) == 10)
        #expect(MediaTimeRange(start: 5, end: 1).isEmpty)
        #expect(range.overlaps(MediaTimeRange(start: 19, end: 30)) && !range.overlaps(MediaTimeRange(start: 20, end: 30)))
    }

    @Test(arguments: [
        ("1970-01-01T00:00:00Z", 0.0),
        ("2026-11-21T10:00:00.000Z", 1_795_255_200.0),
        ("2026-11-21T10:00:00.5+01:00", 1_795_251_600.5),
        ("2026-11-21T10:00:00-0230", 1_795_264_200.0),
        ("2026-11-21T10:00:00+05", 1_795_237_200.0),
        ("2026-11-21 10:00:00z", 1_795_255_200.0),
        ("2024-02-29T23:59:59.999Z", 1_709_251_199.999),
        ("1969-12-31T23:59:59Z", -1.0),
    ])
    func parsesISO8601(text: String, seconds: Double) throws {
        let date = try StreamDate(iso8601: text)
        #expect(abs(date.secondsSince1970 - seconds) < 1e-6)
        #expect(abs(date.date.timeIntervalSince1970 - seconds) < 1e-6)
    }

    @Test(arguments: ["", "2026-11-21", "2026-11-21T10:00:00", "2026-13-01T00:00:00Z", "2025-02-29T00:00:00Z",
                      "2026-11-21T24:00:00Z", "2026-11-21T10:00:00.Z", "2026-11-21T10:00:00Zjunk", "20261121T100000Z",
                      "2026-11-21T10:00:00+1"])
    func rejectsMalformedDates(text: String) {
        #expect(throws: ISO8601DateError.self) { try StreamDate(iso8601: text) }
    }

    @Test(arguments: ["2026-11-21T10:00:00.0001Z", "0262-01-01T00:00:00.0001Z", "2026-11-21T10:00:00.123456789Z",
                      "1970-01-01T00:00:00.5Z", "1969-12-31T23:59:59.999999Z", "9999-12-31T23:59:59.999Z",
                      "0000-01-01T00:00:00Z"])
    func formattingKeepsEveryParsedDateExactly(text: String) throws {
        let date = try StreamDate(iso8601: text)
        #expect(try StreamDate(iso8601: date.iso8601) == date, "\(text) → \(date.iso8601)")
    }

    @Test func datesOutsideFourDigitYearsAreRejected() {
        #expect(throws: ISO8601DateError.self) { try StreamDate(iso8601: "0000-01-01T00:00:00+01:00") }
        #expect(throws: ISO8601DateError.self) { try StreamDate(iso8601: "9999-12-31T23:30:00-01:00") }
    }

    @Test func formatsAndRoundTripsDates() throws {
        let date = try StreamDate(iso8601: "2026-11-21T10:00:06.123Z")
        #expect(date.iso8601 == "2026-11-21T10:00:06.123Z")
        #expect((date + MediaTime(seconds: 0.877)).iso8601 == "2026-11-21T10:00:07.000Z")
        #expect(StreamDate(secondsSince1970: -0.5).iso8601 == "1969-12-31T23:59:59.500Z")
        #expect(StreamDate(millisecondsSince1970: 1_795_255_200_000) == (try StreamDate(iso8601: "2026-11-21T10:00:00Z")))
        #expect((date - (try StreamDate(iso8601: "2026-11-21T10:00:00Z"))).seconds.isApproximately(6.123))
    }

    @Test func stopwatchReadsTheInjectedClock() async throws {
        let clock = TestClock<Duration>()
        let stopwatch = Stopwatch(clock: clock)
        #expect(stopwatch.elapsed == .zero)
        await clock.advance(by: .seconds(3))
        #expect(stopwatch.elapsed == .seconds(3))
        // The sleeper may register its sleep after any given advance: advance in steps until it reports, and
        // measure the sleep from its own start, so that the test neither races nor hangs.
        let report = SleepReport()
        let sleeper = Task {
            let start = stopwatch.elapsed
            try await stopwatch.sleep(for: .seconds(2))
            await report.set(stopwatch.elapsed - start)
        }
        var slept: Duration?
        for _ in 0..<1_000 {
            slept = await report.duration
            if slept != nil { break }
            await clock.advance(by: .milliseconds(100))
            // Give the woken sleeper a moment (real time) to report before the clock moves on.
            for _ in 0..<20 where await report.duration == nil { try await Task.sleep(for: .milliseconds(1)) }
        }
        sleeper.cancel()
        // Never before 2 s; a busy machine may let the clock move on once more before the sleeper reads it.
        let measured = try #require(slept)
        #expect(measured >= .seconds(2) && measured <= .milliseconds(2_200), "\(measured)")
        #expect(stopwatch.elapsed >= .seconds(5))
    }

    actor SleepReport {
        var duration: Duration?
        func set(_ value: Duration) { duration = value }
    }

    @Test func scaledClockRunsFaster() async throws {
        let clock = ScaledClock(speed: 50)
        let start = clock.now
        try await clock.sleep(for: .seconds(5))
        let elapsed = start.duration(to: clock.now)
        #expect(elapsed >= .seconds(5), "a sleep lasts at least its scaled duration")
    }

    @Test func identifiersAreTypedAndUnique() throws {
        let a = PlaybackSessionID()
        let b = PlaybackSessionID()
        #expect(a != b && a.rawValue.count == 36)
        let decoded = try JSONDecoder().decode(PlaybackSessionID.self, from: JSONEncoder().encode(a))
        #expect(decoded == a)
    }

    @Test func broadcasterDeliversToEverySubscriberAndFinishes() async {
        let broadcaster = Broadcaster<Int>()
        let first = broadcaster.subscribe()
        let second = broadcaster.subscribe()
        #expect(broadcaster.subscriberCount == 2)
        broadcaster.yield(1)
        broadcaster.yield(2)
        broadcaster.finish()
        var a: [Int] = []
        for await value in first { a.append(value) }
        var b: [Int] = []
        for await value in second { b.append(value) }
        #expect(a == [1, 2] && b == [1, 2])
        var late: [Int] = []
        for await value in broadcaster.subscribe() { late.append(value) }
        #expect(late.isEmpty)
    }

    @Test func broadcasterBoundsASlowSubscriber() async {
        let broadcaster = Broadcaster<Int>(bufferLimit: 3)
        let stream = broadcaster.subscribe()
        for value in 0..<10 { broadcaster.yield(value) }
        broadcaster.finish()
        var received: [Int] = []
        for await value in stream { received.append(value) }
        #expect(received == [7, 8, 9])
    }
}

extension Double {
    func isApproximately(_ other: Double) -> Bool { abs(self - other) < 1e-6 }
}
