import Foundation
import PlaytraceCore
import PlaytracePlayer
import Testing

/// HLS interstitials, on the lab's interstitials stream served as real media (`/interstitials/…`, 4 s segments):
/// `pre` (`CUE=PRE`, one 4 s asset), `mid-1` (dated at 21.6 s, `X-SNAP=OUT,IN`: played at 20 s, two assets of 8 and
/// 4 s, resumes at 20 + 11 snapped to 32 s), `mid-2` (40 s, `X-RESTRICT=JUMP`, skip control from 2 s), `mid-3`
/// (52 s, its asset list missing), `mid-4` (60 s, its first asset missing, then 4 s) and `post` (`CUE=POST,ONCE`).
/// Interstitials play at normal speed whatever the primary's rate.
extension EngineConformance {
    static let interstitialStream = "/interstitials/master.m3u8"

    /// A pre-roll plays before the primary moves, wherever playback starts; a mid-roll plays at its snapped start,
    /// its assets in order, the primary waiting there, and the primary resumes at the snapped resume offset.
    func playsInterstitialsByTheirRules() async throws {
        try await withSession(path: Self.interstitialStream) { session in
            await session.engine.setReportsProgress(true)
            await session.engine.load(EngineSource(url: session.url, startPosition: MediaTime(seconds: 16)))
            await session.engine.play()
            try await session.waitFor("mid-1", within: .seconds(30)) { await session.engine.snapshot().interstitial?.event.id == "mid-1" }
            let during = await session.engine.snapshot()
            #expect(abs(during.playhead.seconds - 20) <= Self.positionTolerance, "the primary waits at mid-1's snapped start: \(during.playhead)")
            try await session.waitFor("the primary after mid-1", within: .seconds(30)) {
                let snapshot = await session.engine.snapshot()
                return snapshot.interstitial == nil && snapshot.playhead.seconds > 32.5
            }
            let trail = await session.interstitialTrail
            #expect(trail == [
                "began pre", "asset pre 0", "asset pre 0 played", "ended pre played",
                "began mid-1", "asset mid-1 0", "asset mid-1 0 played", "asset mid-1 1", "asset mid-1 1 played", "ended mid-1 played",
            ], "\(trail)")
            let began = await session.events.compactMap { if case .interstitialBegan(let event) = $0 { event } else { nil } }
            #expect(began.first?.placement == .preRoll)
            #expect(began.last.map { abs($0.start.seconds - 20) < 1e-6 && abs($0.datePosition.seconds - 21.6) < 0.01 } == true,
                    "mid-1 starts at the boundary before its date: \(began)")
            let snapshot = await session.engine.snapshot()
            #expect(snapshot.playedRanges.overlap(with: MediaTimeRange(start: 20.2, end: 31.8)).seconds == 0,
                    "the primary between 20 and 32 s is not played: \(snapshot.playedRanges.ranges)")
            let played = snapshot.interstitialPlayedRanges["mid-1"]?.ranges ?? []
            #expect(played.count == 1 && played.first.map { $0.start.seconds < 0.2 && $0.end.seconds > 11.8 } == true,
                    "mid-1 played whole: \(played)")
            // Its progress: contiguous on its own timeline, the primary's playhead still.
            let moves = await session.movements.compactMap { progress in progress.interstitial.map { (progress, $0) } }
                .filter { $0.1.event.id == "mid-1" }
            let gaps = zip(moves, moves.dropFirst()).filter { $0.0.1.to != $0.1.1.from }.map { ($0.0.1.to.seconds, $0.1.1.from.seconds) }
            #expect(gaps.isEmpty, "contiguous: \(gaps)")
            #expect(moves.allSatisfy { $0.0.from == $0.0.to }, "the primary does not move")
            #expect((moves.last?.1.to.seconds ?? 0) > 11.9, "to its end: \(String(describing: moves.last?.1.to))")
        }
    }

    /// Playback that starts inside the span a mid-roll stands for (after the pre-roll) joins it there: the assets
    /// before the offset are passed over, the one it falls in plays from the offset, and the primary resumes at the
    /// mid-roll's resume point.
    func joinsTheInterstitialUnderWay() async throws {
        try await withSession(path: Self.interstitialStream) { session in
            // mid-1 stands for 20 to 31 s (its resume offset): 30 s is 10 s into it, 2 s into its second asset.
            await session.engine.load(EngineSource(url: session.url, startPosition: MediaTime(seconds: 30)))
            await session.engine.play()
            try await session.waitFor("the primary after mid-1", within: .seconds(20)) {
                await session.interstitialTrail.contains("ended mid-1 played")
            }
            let trail = await session.interstitialTrail
            #expect(trail == ["began pre", "asset pre 0", "asset pre 0 played", "ended pre played",
                              "began mid-1", "asset mid-1 1", "asset mid-1 1 played", "ended mid-1 played"], "\(trail)")
            let played = await session.engine.snapshot().interstitialPlayedRanges["mid-1"]?.ranges ?? []
            #expect(played.first.map { abs($0.start.seconds - 10) <= Self.positionTolerance && $0.end.seconds > 11.8 } == true,
                    "mid-1 played from 10 s on its timeline: \(played)")
            try await session.waitFor("the primary") { await session.engine.snapshot().playhead.seconds > 32.3 }
            let primary = await session.engine.snapshot().playedRanges.ranges
            #expect(primary.first.map { abs($0.start.seconds - 32) <= Self.positionTolerance } == true,
                    "the primary resumes at mid-1's resume point, 32 s: \(primary)")
        }
    }

    /// An interstitial whose asset list is missing is cancelled (the primary plays on from its start); an asset that
    /// is missing is skipped and the next one plays; the post-roll plays after the primary's end, then the item
    /// ends. The primary plays at rate 2, the interstitials at 1.
    func skipsFailingInterstitialsAndPlaysThePostRoll() async throws {
        try await withSession(path: Self.interstitialStream) { session in
            await session.engine.load(EngineSource(url: session.url, startPosition: MediaTime(seconds: 50)))
            await session.engine.setRate(2)
            await session.engine.play()
            try await session.waitFor("the end", within: .seconds(60)) { await session.events.contains(.ended) }
            let trail = await session.interstitialTrail
            #expect(trail.first == "began pre")
            #expect(trail.contains("ended mid-3 failed"), "\(trail)")
            #expect(trail.filter { $0.hasPrefix("asset mid-3") }.isEmpty, "no asset of mid-3: \(trail)")
            #expect(trail.contains("asset mid-4 0 failed") && trail.contains("asset mid-4 1 played") && trail.contains("ended mid-4 played"),
                    "\(trail)")
            #expect(trail.suffix(4) == ["began post", "asset post 0", "asset post 0 played", "ended post played"], "\(trail)")
            let events = await session.events
            let postEnded = events.firstIndex { if case .interstitialEnded(let event, _) = $0 { event.id == "post" } else { false } }
            #expect(postEnded.map { $0 < (events.firstIndex(of: .ended) ?? 0) } == true, "the item ends after the post-roll")
            let post = events.compactMap { if case .interstitialBegan(let event) = $0, event.id == "post" { event } else { nil } }.first
            #expect(post.map { abs($0.start.seconds - 80) <= 0.25 } == true, "the post-roll at the primary's end: \(String(describing: post))")
            let played = await session.engine.snapshot().playedRanges
            #expect(played.overlap(with: MediaTimeRange(start: 52.2, end: 59.8)).seconds > 7, "after mid-3's failure the primary plays on: \(played.ranges)")
        }
    }

    /// A forward seek past a JUMP-restricted interstitial plays it first; it cannot be skipped before its skip
    /// control shows (2 s), then it can, and the seek goes on to its target.
    func jumpRestrictedInterstitialPlaysBeforeTheSeek() async throws {
        try await withSession(path: Self.interstitialStream) { session in
            // At 34 s, past the span mid-1 stands for (20 to 31 s: a start inside it joins mid-1 under way).
            await session.engine.load(EngineSource(url: session.url, startPosition: MediaTime(seconds: 34)))
            await session.engine.play()
            try await session.waitFor("the primary after the pre-roll", within: .seconds(20)) {
                let snapshot = await session.engine.snapshot()
                return snapshot.interstitial == nil && snapshot.playhead.seconds > 34.5
            }
            await session.engine.seek(to: MediaTime(seconds: 46), toleranceBefore: .zero, toleranceAfter: .zero)
            try await session.waitFor("mid-2") { await session.engine.snapshot().interstitial?.event.id == "mid-2" }
            await session.engine.skipInterstitial()
            try await Task.sleep(for: .milliseconds(300))
            #expect(await session.engine.snapshot().interstitial?.event.id == "mid-2", "not skippable before 2 s")
            try await session.waitFor("the skip control") { await session.engine.snapshot().interstitial?.canSkip == true }
            await session.engine.skipInterstitial()
            try await session.waitFor("the seek's target") {
                await session.events.contains { if case .seekEnded(let at, true) = $0 { abs(at.seconds - 46) <= Self.positionTolerance } else { false } }
            }
            let trail = await session.interstitialTrail
            #expect(trail.suffix(3) == ["asset mid-2 0", "asset mid-2 0 skipped", "ended mid-2 skipped"], "\(trail)")
            try await session.waitFor("playback from 46 s") { await session.engine.snapshot().playhead.seconds > 46.3 }
            let played = await session.engine.snapshot().playedRanges
            #expect(played.overlap(with: MediaTimeRange(start: 36, end: 45.8)).seconds == 0, "the seek went past: \(played.ranges)")
        }
    }
}

extension ConformanceSession {
    /// The interstitial events so far, as short lines: `began mid-1`, `asset mid-1 0`, `asset mid-1 0 played`,
    /// `ended mid-1 played`.
    var interstitialTrail: [String] {
        get async {
            func outcome(_ outcome: InterstitialOutcome) -> String {
                switch outcome {
                case .played: "played"
                case .skipped: "skipped"
                case .failed: "failed"
                }
            }
            return await events.compactMap { event in
                switch event {
                case .interstitialBegan(let event): "began \(event.id)"
                case .interstitialAssetBegan(let event, let index, _): "asset \(event.id) \(index)"
                case .interstitialAssetEnded(let event, let index, let result): "asset \(event.id) \(index) \(outcome(result))"
                case .interstitialEnded(let event, let result): "ended \(event.id) \(outcome(result))"
                default: nil
                }
            }
        }
    }
}
