import Foundation
import PlaytraceCore
import PlaytraceLab
public import PlaytracePlayer
import Testing

/// The engine-level behaviours the Player relies on, written once and run against every engine: the headless
/// engine (`PlaytraceHeadlessTests`) and MPVEngine (`PlaytraceMPVTests`, with the trait `MPV`).
///
/// Every check plays the lab's real media (`scripts/generate-media`: 12 s of H.264 and AAC in 2 s segments, a key
/// frame at the start of each) on the real clock, because libmpv decodes in real time; each takes a few seconds. The
/// tolerances say what a real decoder allows: a frame (40 ms at 25 fps) where the headless engine would be exact.
public struct EngineConformance: Sendable {
    /// Makes the engine under test; `close` releases what it holds besides the engine (an HTTP client).
    public typealias Factory = @Sendable () async throws -> (engine: any PlaybackEngine, close: @Sendable () async -> Void)

    private let makeEngine: Factory
    /// The streaming format the checks play.
    public let format: Format

    /// The suite for the engines `makeEngine` makes, on streams of `format`.
    public init(format: Format = .hls, makeEngine: @escaping Factory) {
        self.format = format
        self.makeEngine = makeEngine
    }

    /// A streaming format, and the lab's streams of it the checks play.
    public enum Format: String, Sendable, CaseIterable {
        /// The real media as HLS (`/media/vod/`), the lab's live and DVR playlists.
        case hls
        /// The real media as ffmpeg's dash muxer writes it (`/media/dash/`), the lab's live and DVR MPDs.
        case dash

        /// The on-demand real media.
        var onDemandPath: String { self == .hls ? "/media/vod/index.m3u8" : "/media/dash/manifest.mpd" }
        /// Part of the path of the on-demand media's third segment (4 s to 6 s; the video's, in DASH).
        var thirdSegment: String { self == .hls ? "vod/seg2.ts" : "dash/chunk-0-00003.m4s" }
        var missingPath: String { self == .hls ? "/media/none/index.m3u8" : "/media/none/manifest.mpd" }
        var livePath: String { self == .hls ? "/live/master.m3u8" : "/dash/live/manifest.mpd" }
        var dvrPath: String { self == .hls ? "/dvr/master.m3u8" : "/dash/dvr/manifest.mpd" }
        /// The lab's on-demand stream (40 s, three variants, 4 s segments; on DASH, its ad period from 8 s to 16 s).
        var labStream: String { self == .hls ? "/vod/master.m3u8" : "/dash/vod/manifest.mpd" }
        /// Part of the path of every variant's segment from 24 s to 28 s of the lab's on-demand stream.
        var labSegmentAt24: String { self == .hls ? "/seg6.ts" : "/5.m4s" }
    }

    /// The checks that apply to a format: on DASH, those that do not play HLS's own features (interstitials, its
    /// program date time, fragmented MP4 as an HLS option) or the lab's HLS-only streams (renditions, its
    /// faults by variant).
    public static func checks(for format: Format) -> [Check] {
        switch format {
        case .hls: Check.allCases
        case .dash:
            Check.allCases.filter { check in
                switch check {
                case .reportsTheProgramDateTime, .playsInterstitialsByTheirRules,
                     .skipsFailingInterstitialsAndPlaysThePostRoll, .jumpRestrictedInterstitialPlaysBeforeTheSeek,
                     .joinsTheInterstitialUnderWay, .playsFragmentedMP4, .selectsAnAudioRendition:
                    false
                default: true
                }
            }
        }
    }

    /// The media directory the test script generated (`PLAYTRACE_MEDIA_DIR`), or the default one.
    public static var mediaDirectory: String {
        ProcessInfo.processInfo.environment["PLAYTRACE_MEDIA_DIR"] ?? ".build-media"
    }

    /// The length of the on-demand media, in seconds.
    static let mediaDuration = 12.0
    /// A frame of the media, in seconds (25 fps).
    static let frame = 0.04
    /// How far a position two engines report for the same instant may differ, in seconds. A decoder's timeline
    /// starts at the stream's first packet, the audio's, 21 ms before the first video frame (ffmpeg's AAC encoder
    /// puts its priming samples first), where the playlist's timeline starts at the segment; and a decoder reports
    /// the frame it shows, up to a frame after the instant asked for. 0.1 s is both with room to spare, and less than
    /// any difference a viewer or a beacon would notice.
    static let positionTolerance = 0.1

    /// The checks, each run as a case of one parameterized test per engine.
    public enum Check: String, CaseIterable, Sendable {
        case startsAtTheRequestedPosition, exactSeekLandsOnTarget, toleratedSeekLandsWithinTolerances
        case seekReplacesTheOneUnderWay, skipsBlockedRanges, skippedRangeAtTheEndEndsTheItem, playsAtTheRate
        case endsAtTheEnd, progressEndsAtBoundaries, stallsWhileASegmentIsLate, reportsTheProgramDateTime
        case missingStreamFails, playsInterstitialsByTheirRules, skipsFailingInterstitialsAndPlaysThePostRoll
        case jumpRestrictedInterstitialPlaysBeforeTheSeek, joinsTheInterstitialUnderWay, playsFragmentedMP4
        case followsALiveStream, seeksBackInADVRWindow, selectsAnAudioRendition, playsPastASegmentNoVariantHas
    }

    /// Runs one check.
    public func run(_ check: Check) async throws {
        switch check {
        case .startsAtTheRequestedPosition: try await startsAtTheRequestedPosition()
        case .exactSeekLandsOnTarget: try await exactSeekLandsOnTarget()
        case .toleratedSeekLandsWithinTolerances: try await toleratedSeekLandsWithinTolerances()
        case .seekReplacesTheOneUnderWay: try await seekReplacesTheOneUnderWay()
        case .skipsBlockedRanges: try await skipsBlockedRanges()
        case .skippedRangeAtTheEndEndsTheItem: try await skippedRangeAtTheEndEndsTheItem()
        case .playsAtTheRate: try await playsAtTheRate()
        case .endsAtTheEnd: try await endsAtTheEnd()
        case .progressEndsAtBoundaries: try await progressEndsAtBoundaries()
        case .stallsWhileASegmentIsLate: try await stallsWhileASegmentIsLate()
        case .reportsTheProgramDateTime: try await reportsTheProgramDateTime()
        case .missingStreamFails: try await missingStreamFails()
        case .playsInterstitialsByTheirRules: try await playsInterstitialsByTheirRules()
        case .skipsFailingInterstitialsAndPlaysThePostRoll: try await skipsFailingInterstitialsAndPlaysThePostRoll()
        case .jumpRestrictedInterstitialPlaysBeforeTheSeek: try await jumpRestrictedInterstitialPlaysBeforeTheSeek()
        case .joinsTheInterstitialUnderWay: try await joinsTheInterstitialUnderWay()
        case .playsFragmentedMP4: try await playsFragmentedMP4()
        case .followsALiveStream: try await followsALiveStream()
        case .seeksBackInADVRWindow: try await seeksBackInADVRWindow()
        case .selectsAnAudioRendition: try await selectsAnAudioRendition()
        case .playsPastASegmentNoVariantHas: try await playsPastASegmentNoVariantHas()
        }
    }

    // MARK: - Checks

    /// A load with a start position starts there: at it, or at the key frame before it (the segment's start).
    func startsAtTheRequestedPosition() async throws {
        try await withSession { session in
            await session.engine.load(EngineSource(url: session.url, startPosition: MediaTime(seconds: 5)))
            await session.engine.play()
            try await session.waitFor("the first frame") { await session.engine.snapshot().startupTime != nil }
            try await session.waitFor("some playback") { await session.engine.snapshot().playhead.seconds > 5.3 }
            let played = await session.engine.snapshot().playedRanges.ranges
            let start = played.first?.start.seconds ?? -1
            #expect((4 - Self.positionTolerance...5 + Self.positionTolerance).contains(start), "playback starts at 5 s or its key frame (4 s): \(played)")
            #expect(await session.events.contains { if case .firstFrame = $0 { true } else { false } })
        }
    }

    /// An exact seek lands on its target, reported by a begin and a completed end; playback goes on from there.
    func exactSeekLandsOnTarget() async throws {
        try await withSession { session in
            try await session.startPlaying()
            await session.engine.seek(to: MediaTime(seconds: 7.3), toleranceBefore: .zero, toleranceAfter: .zero)
            let landed = try await session.seekEnd()
            #expect(landed.completed)
            #expect(abs(landed.position.seconds - 7.3) <= Self.positionTolerance, "an exact seek lands at 7.3 s: \(landed.position)")
            #expect(await session.events.contains(.seekBegan(target: MediaTime(seconds: 7.3))))
            try await session.waitFor("playback after the seek") { await session.engine.snapshot().playhead.seconds > 7.6 }
            #expect(await session.engine.snapshot().status == .playing)
        }
    }

    /// A seek with tolerances lands within them: here on the key frame (and segment boundary) at 6 s.
    func toleratedSeekLandsWithinTolerances() async throws {
        try await withSession { session in
            try await session.startPlaying()
            let target = MediaTime(seconds: 6.7)
            await session.engine.seek(to: target, toleranceBefore: MediaTime(seconds: 1), toleranceAfter: MediaTime(seconds: 1))
            let landed = try await session.seekEnd()
            #expect(landed.completed)
            #expect(abs(landed.position.seconds - 6) <= Self.positionTolerance, "the key frame at 6 s is within 1 s: \(landed.position)")
        }
    }

    /// A seek made while another is under way replaces it: the first ends not completed, the second completes.
    func seekReplacesTheOneUnderWay() async throws {
        try await withSession { session in
            try await session.startPlaying()
            await session.engine.seek(to: MediaTime(seconds: 3), toleranceBefore: .zero, toleranceAfter: .zero)
            await session.engine.seek(to: MediaTime(seconds: 9), toleranceBefore: .zero, toleranceAfter: .zero)
            try await session.waitFor("the second seek's end") {
                await session.events.contains { if case .seekEnded(_, true) = $0 { true } else { false } }
            }
            let ends = await session.events.compactMap { event -> (MediaTime, Bool)? in
                if case .seekEnded(let position, let completed) = event { (position, completed) } else { nil }
            }
            #expect(ends.count == 2, "\(ends)")
            #expect(ends.first?.1 == false, "the first seek is replaced: \(ends)")
            #expect(ends.last.map { $0.1 && abs($0.0.seconds - 9) <= Self.positionTolerance } == true, "the second lands at 9 s: \(ends)")
        }
    }

    /// Skipped ranges, given at load and later: playback jumps over each, reports it, and plays none of it; a seek
    /// into one lands at its end.
    func skipsBlockedRanges() async throws {
        try await withSession { session in
            let first = MediaTimeRange(start: 3, end: 5)
            let second = MediaTimeRange(start: 7, end: 8)
            await session.engine.setReportsProgress(true)
            await session.engine.load(EngineSource(url: session.url, startPosition: MediaTime(seconds: 1.5),
                                                   skippedRanges: MediaTimeRangeSet([first])))
            await session.engine.setSkippedRanges(MediaTimeRangeSet([first, second]))
            await session.engine.play()
            try await session.waitFor("the second range passed") { await session.engine.snapshot().playhead.seconds > 8.5 }
            let skipped = await session.events.compactMap { if case .rangeSkipped(let range) = $0 { range } else { nil } }
            #expect(skipped == [first, second], "\(skipped)")
            let played = await session.engine.snapshot().playedRanges
            for range in [first, second] {
                #expect(played.overlap(with: range).seconds <= Self.frame, "none of \(range) played: \(played.ranges)")
            }
            let reported = await session.progress
            #expect(!reported.contains { [first, second].contains(where: $0.overlaps) }, "no progress inside a skipped range")
            await session.engine.seek(to: MediaTime(seconds: 3.5), toleranceBefore: .zero, toleranceAfter: .zero)
            let landed = try await session.seekEnd()
            #expect(abs(landed.position.seconds - 5) <= Self.positionTolerance, "a seek into a skipped range lands at its end: \(landed.position)")
        }
    }

    /// A skipped range that reaches the end of the item ends it, none of the range played.
    func skippedRangeAtTheEndEndsTheItem() async throws {
        try await withSession { session in
            let tail = MediaTimeRange(start: 10, end: MediaTime(seconds: Self.mediaDuration + 1))
            await session.engine.load(EngineSource(url: session.url, startPosition: MediaTime(seconds: 8.5),
                                                   skippedRanges: MediaTimeRangeSet([tail])))
            await session.engine.play()
            try await session.waitFor("the end") { await session.events.contains(.ended) }
            #expect(await session.engine.snapshot().status == .ended)
            let played = await session.engine.snapshot().playedRanges
            #expect(played.overlap(with: tail).seconds <= Self.frame, "none of the tail played: \(played.ranges)")
        }
    }

    /// At rate 2 the playhead moves twice as fast as the clock.
    func playsAtTheRate() async throws {
        try await withSession { session in
            try await session.startPlaying()
            await session.engine.setRate(2)
            try await session.waitFor("the rate's change") { await session.events.contains(.rateChanged(2)) }
            try await Task.sleep(for: .milliseconds(300))
            let from = await session.engine.snapshot().playhead
            let start = ContinuousClock.now
            try await Task.sleep(for: .seconds(2))
            let moved = (await session.engine.snapshot().playhead - from).seconds
            let elapsed = (ContinuousClock.now - start) / .seconds(1)
            #expect(abs(moved - 2 * elapsed) < 0.5, "\(moved) s of media in \(elapsed) s at rate 2")
            #expect(await session.engine.snapshot().rate == 2)
        }
    }

    /// Playing to the end ends the item: the event, the status, the played ranges up to the duration.
    func endsAtTheEnd() async throws {
        try await withSession { session in
            await session.engine.load(EngineSource(url: session.url, startPosition: MediaTime(seconds: 9)))
            await session.engine.play()
            try await session.waitFor("the end") { await session.events.contains(.ended) }
            let snapshot = await session.engine.snapshot()
            #expect(snapshot.status == .ended)
            let end = snapshot.playedRanges.ranges.last?.end.seconds ?? 0
            #expect(abs(end - Self.mediaDuration) < 0.25, "played up to the end: \(snapshot.playedRanges.ranges)")
            #expect(abs((snapshot.duration?.seconds ?? 0) - Self.mediaDuration) < 0.25)
        }
    }

    /// Progress reports are contiguous while playing, even when they are asked for again, and one ends exactly at
    /// each boundary the playhead crosses, at most a frame late.
    func progressEndsAtBoundaries() async throws {
        try await withSession { session in
            let boundaries = [MediaTime(seconds: 1.01), MediaTime(seconds: 2.5)]
            await session.engine.setReportsProgress(true)
            await session.engine.setProgressBoundaries(boundaries.map { .time($0) })
            try await session.startPlaying()
            // Asked again (as the Player does whenever a tracker changes what it observes): the reports go on unbroken.
            await session.engine.setReportsProgress(true)
            try await session.waitFor("1.5 s played") { await session.engine.snapshot().playhead.seconds > 1.5 }
            await session.engine.setReportsProgress(true)
            try await session.waitFor("three seconds played") { await session.engine.snapshot().playhead.seconds > 3 }
            let movements = await session.movements
            #expect(movements.count > 20, "\(movements.count) reports")
            let gaps = zip(movements, movements.dropFirst()).filter { $0.0.to != $0.1.from }
            #expect(gaps.isEmpty, "contiguous: \(gaps.map { ($0.0.to, $0.1.from) })")
            for boundary in boundaries {
                // Exactly, or a microsecond past it (the headless engine's margin for rounding).
                let ending = movements.first { $0.to >= boundary && ($0.to - boundary).seconds <= 1e-5 }
                #expect(ending != nil, "a report ends at \(boundary)")
                #expect((ending?.lag ?? .seconds(1)) <= .seconds(Self.frame * 1.5), "late by \(String(describing: ending?.lag))")
            }
        }
    }

    /// A segment that comes late stalls playback once the buffer runs out; playback resumes when it arrives.
    func stallsWhileASegmentIsLate() async throws {
        try await withSession(faults: [LabFault(pathContains: format.thirdSegment, kind: .delay(milliseconds: 7_000), remaining: 1)]) { session in
            try await session.startPlaying()
            try await session.waitFor("the stall's end", within: .seconds(25)) {
                await session.events.contains { if case .stallEnded = $0 { true } else { false } }
            }
            let snapshot = await session.engine.snapshot()
            #expect(snapshot.stallCount == 1)
            let stalledAt = await session.events.compactMap { if case .stallBegan(let at) = $0 { at } else { nil } }.first
            #expect(stalledAt.map { abs($0.seconds - 4) < 0.5 } == true, "the stall begins where the buffer ends (4 s): \(String(describing: stalledAt))")
            // The segment comes 7 s after it is asked for, about 4 s after the buffer ran out.
            #expect((1.5...6).contains(snapshot.stallDuration / .seconds(1)), "\(snapshot.stallDuration)")
            try await session.waitFor("playback after the stall") { await session.engine.snapshot().status == .playing }
        }
    }

    /// The stream's program date time follows the playhead: in the snapshot and in each progress report.
    func reportsTheProgramDateTime() async throws {
        try await withSession { session in
            await session.engine.setReportsProgress(true)
            try await session.startPlaying()
            try await session.waitFor("the dates") { await session.engine.snapshot().streamDate != nil }
            let snapshot = await session.engine.snapshot()
            let first = try #require(Self.firstProgramDateTime(), "the media's first EXT-X-PROGRAM-DATE-TIME")
            let expected = first + snapshot.playhead
            let date = try #require(snapshot.streamDate)
            #expect(abs(date.secondsSince1970 - expected.secondsSince1970) <= Self.positionTolerance,
                    "\(date) at \(snapshot.playhead)")
            let dated = await session.movements.filter { $0.toDate != nil }
            #expect(!dated.isEmpty, "progress reports carry dates")
            for movement in dated.suffix(5) {
                let expected = first + movement.to
                #expect(abs((movement.toDate?.secondsSince1970 ?? 0) - expected.secondsSince1970) < 0.001)
            }
        }
    }

    /// The same media in fragmented MP4 (an initialization section, `.m4s` segments) plays to its end, with its
    /// dates. From its start: FFmpeg 5.1, which libmpv reads HLS with here, fails to seek in fragmented MP4 in some
    /// runs (MPVEngine's DocC says what it reports then).
    func playsFragmentedMP4() async throws {
        try await withSession(path: "/media/fmp4/index.m3u8") { session in
            await session.engine.setReportsProgress(true)
            await session.engine.load(EngineSource(url: session.url))
            await session.engine.play()
            try await session.waitFor("the end", within: .seconds(25)) { await session.events.contains(.ended) }
            let snapshot = await session.engine.snapshot()
            #expect(snapshot.status == .ended)
            #expect(abs((snapshot.duration?.seconds ?? 0) - Self.mediaDuration) < 0.25, "\(String(describing: snapshot.duration))")
            let played = snapshot.playedRanges.ranges
            #expect(played.first.map { $0.start.seconds <= Self.positionTolerance } == true, "from the start: \(played)")
            #expect(played.last.map { abs($0.end.seconds - Self.mediaDuration) < 0.25 } == true, "to the end: \(played)")
            #expect(await session.movements.contains { $0.toDate != nil }, "progress carries the program date time")
        }
    }

    /// The first program date time of the media playlist the suite plays.
    static func firstProgramDateTime() -> StreamDate? {
        guard let text = try? String(contentsOfFile: mediaDirectory + "/vod/index.m3u8", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("#EXT-X-PROGRAM-DATE-TIME:") })
        else { return nil }
        return try? StreamDate(iso8601: line.dropFirst("#EXT-X-PROGRAM-DATE-TIME:".count))
    }

    /// A stream that does not exist fails the load with a fatal error.
    func missingStreamFails() async throws {
        try await withSession { session in
            let missing = URL(string: format.missingPath, relativeTo: session.url)!.absoluteURL
            await session.engine.load(EngineSource(url: missing))
            try await session.waitFor("the failure") { await session.engine.snapshot().status == .failed }
            #expect(await session.engine.snapshot().error?.isFatal == true)
            #expect(await session.events.contains { if case .error = $0 { true } else { false } })
        }
    }

    // MARK: - Sessions

    /// Runs `body` with an engine, a lab serving the real media, and the engine's events collected; the session plays
    /// `path` on the lab (its real on-demand media by default), set up by `configure`.
    func withSession(faults: [LabFault] = [], path: String? = nil,
                     configure: (inout LabConfiguration) -> Void = { _ in },
                     _ body: (ConformanceSession) async throws -> Void) async throws {
        let directory = Self.mediaDirectory
        try #require(FileManager.default.fileExists(atPath: directory + "/vod/index.m3u8"),
                     "no real media in \(directory): run scripts/generate-media")
        var configuration = LabConfiguration()
        configuration.mediaDirectory = directory
        configure(&configuration)
        let lab = LabServer(clock: ContinuousClock(), configuration: configuration)
        for fault in faults { lab.faults.add(fault) }
        let port = try await lab.start()
        let (engine, close) = try await makeEngine()
        let session = ConformanceSession(engine: engine, url: URL(string: "http://127.0.0.1:\(port)\(path ?? format.onDemandPath)")!,
                                         lab: lab)
        do {
            try await body(session)
        } catch {
            await session.finish(close: close, lab: lab)
            throw error
        }
        await session.finish(close: close, lab: lab)
    }
}

/// One engine under test, with its events as they came.
final class ConformanceSession: Sendable {
    let engine: any PlaybackEngine
    let url: URL
    /// The lab the session plays from: what it was asked for.
    let lab: LabServer
    private let log = ConformanceLog()
    private let collector: Task<Void, Never>

    init(engine: any PlaybackEngine, url: URL, lab: LabServer) {
        self.engine = engine
        self.url = url
        self.lab = lab
        let events = engine.events()
        let log = log
        collector = Task { for await event in events { await log.add(event) } }
    }

    var events: [EngineEvent] { get async { await log.events } }

    /// The progress reports so far.
    var movements: [PlaybackProgress] {
        get async { await log.events.compactMap { if case .progressed(let progress) = $0 { progress } else { nil } } }
    }

    /// The ranges the progress reports covered.
    var progress: [MediaTimeRange] {
        get async { await movements.map { MediaTimeRange(start: $0.from, end: $0.to) } }
    }

    /// Loads the media from its start and plays until a second has played.
    func startPlaying() async throws {
        await engine.load(EngineSource(url: url))
        await engine.play()
        try await waitFor("a second played") { await engine.snapshot().playhead.seconds > 1 }
    }

    /// The first seek end reported from now on.
    func seekEnd() async throws -> (position: MediaTime, completed: Bool) {
        let before = await log.events.count
        var found: (MediaTime, Bool)?
        try await waitFor("the seek's end") {
            found = await log.events.dropFirst(before).lazy.compactMap { event -> (MediaTime, Bool)? in
                if case .seekEnded(let position, let completed) = event { (position, completed) } else { nil }
            }.first
            return found != nil
        }
        return found ?? (.zero, false)
    }

    /// Waits, polling, until `condition` holds; records an issue (and throws) when `limit` passes first.
    func waitFor(_ what: String, within limit: Duration = .seconds(20), sourceLocation: SourceLocation = #_sourceLocation,
                 _ condition: () async -> Bool) async throws {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if await condition() { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        let snapshot = await engine.snapshot()
        try #require(Bool(false), "timed out waiting for \(what): \(snapshot.status), playhead \(snapshot.playhead)",
                     sourceLocation: sourceLocation)
    }

    func finish(close: @Sendable () async -> Void, lab: LabServer) async {
        await engine.stop()
        collector.cancel()
        await close()
        await lab.stop()
    }
}

/// What an engine reported, collected as it comes.
actor ConformanceLog {
    private(set) var events: [EngineEvent] = []
    func add(_ event: EngineEvent) { events.append(event) }
}
