import PlaytraceAds
import PlaytraceCore
import PlaytracePlayer
import Testing

@Suite("Engine progress on the ad timeline")
struct ProgressObservationTests {
    let base = StreamDate(secondsSince1970: 1_700_000_000)

    @Test("Media time and program-date-time timelines; no dates, nothing; a date discontinuity is a jump")
    func mapping() {
        let plain = PlaybackProgress(from: MediaTime(seconds: 10), to: MediaTime(seconds: 10.1),
                                     fromDate: base, toDate: base + MediaTime(seconds: 0.1), rate: 1)
        #expect(PlaybackObservation.observations(for: plain, on: .mediaTime, at: .seconds(3))
            == [.played(from: 10_000, to: 10_100, rate: 1, at: .seconds(3))])
        let dated = PlaybackObservation.observations(for: plain, on: .programDateTime, at: .seconds(3))
        guard case .played(let from, let to, 1, .seconds(3)) = dated.first, dated.count == 1 else {
            Issue.record("\(dated)"); return
        }
        #expect(abs(from.milliseconds - 1_700_000_000_000) < 0.01 && abs(to.milliseconds - 1_700_000_000_100) < 0.01)
        var undated = plain
        undated.fromDate = nil
        #expect(PlaybackObservation.observations(for: undated, on: .programDateTime, at: .zero).isEmpty)
        var jumped = plain
        jumped.toDate = base + MediaTime(seconds: 60.1)
        let observations = PlaybackObservation.observations(for: jumped, on: .programDateTime, at: .zero)
        #expect(observations.count == 2)
        if case .jumped(_, let target, _) = observations.first { #expect(abs(target.milliseconds - 1_700_000_060_000) < 0.01) }
    }

    @Test("Fed with progress reports, the scheduler fires a break's events on the stream's dates")
    func endToEnd() {
        let start = AdTime(base) + 10_000
        var pods = [AdFixtures.pod(start: start)]
        var scheduler = BeaconScheduler()
        var fired: [BeaconFiring] = []
        var position = 0.0
        while position < 40 {
            let progress = PlaybackProgress(from: MediaTime(seconds: position), to: MediaTime(seconds: position + 0.1),
                                            fromDate: base + MediaTime(seconds: position),
                                            toDate: base + MediaTime(seconds: position + 0.1), rate: 1)
            position += 0.1
            for observation in PlaybackObservation.observations(for: progress, on: .programDateTime,
                                                                at: .milliseconds(Int64((position * 1000).rounded()))) {
                fired += scheduler.observe(observation, pods: &pods)
            }
        }
        #expect(fired.count == 14)
        #expect(Set(fired.map { $0.deliveryKey(session: "s", reportedAt: base) }).count == 14)
        for firing in fired {
            let expected = Duration.milliseconds(Int64((firing.mediaTime - AdTime(base)).milliseconds.rounded()))
            #expect(abs((firing.crossing - expected).seconds) < 0.002, "\(firing.key): \(firing.crossing) vs \(expected)")
        }
    }
}
