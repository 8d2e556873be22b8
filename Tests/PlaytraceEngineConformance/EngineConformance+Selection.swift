import Foundation
import PlaytraceCore
import PlaytraceLab
import PlaytracePlayer
import Testing

/// Media selection and missing media, on the lab's on-demand stream served as real media (`/vod/…`: 40 s, three
/// variants with their English audio muxed in, a French audio rendition of its own, 4 s segments).
extension EngineConformance {
    static let labStream = "/vod/master.m3u8"

    /// The audio renditions are listed, one per language; choosing the French one is said, asks the server for it
    /// (libmpv for its segments; the headless engine, which decodes nothing, for its playlist), and playback goes on.
    func selectsAnAudioRendition() async throws {
        try await withSession(path: Self.labStream) { session in
            try await session.startPlaying()
            let options = await session.engine.snapshot().mediaOptions.filter { $0.kind == .audio }
            #expect(Set(options.compactMap(\.language)) == ["en", "fr"], "\(options)")
            let french = try #require(options.first { $0.language == "fr" })
            let chosenAt = await session.engine.snapshot().playhead
            session.lab.requests.clear()
            await session.engine.selectMediaOption(french.id, for: .audio)
            try await session.waitFor("a request for the French rendition") {
                session.lab.requests.all.contains { $0.path.hasPrefix("/vod/audio/fr") }
            }
            #expect(await session.events.contains { event in
                if case .mediaOptionSelected(let option, .audio) = event { option?.id == french.id } else { false }
            })
            #expect(await session.engine.snapshot().selectedMediaOptions[.audio] == french.id)
            try await session.waitFor("playback in French") {
                await session.engine.snapshot().playhead > chosenAt + MediaTime(seconds: 2)
            }
            let snapshot = await session.engine.snapshot()
            #expect(snapshot.status == .playing && snapshot.error?.isFatal != true, "\(snapshot.status) \(String(describing: snapshot.error))")
        }
    }

    /// A segment that no variant can deliver (404 everywhere) is played past: the item plays on to its end, loses at
    /// most that segment, and does not fail.
    func playsPastASegmentNoVariantHas() async throws {
        let fault = LabFault(pathContains: format.labSegmentAt24, kind: .status(404), remaining: nil)
        try await withSession(faults: [fault], path: format.labStream) { session in
            await session.engine.setRate(2)
            await session.engine.load(EngineSource(url: session.url, startPosition: MediaTime(seconds: 18)))
            await session.engine.play()
            try await session.waitFor("the end", within: .seconds(30)) { await session.events.contains(.ended) }
            let snapshot = await session.engine.snapshot()
            #expect(snapshot.status == .ended && snapshot.error?.isFatal != true, "\(snapshot.status) \(String(describing: snapshot.error))")
            let played = snapshot.playedRanges
            #expect(played.overlap(with: MediaTimeRange(start: 18.5, end: 23.5)).seconds > 4.9, "before the hole: \(played.ranges)")
            #expect(played.overlap(with: MediaTimeRange(start: 28.5, end: 39.5)).seconds > 10.9, "after the hole: \(played.ranges)")
            #expect(session.lab.requests.all.contains { $0.path.hasSuffix(format.labSegmentAt24) && $0.status == 404 },
                    "the segment was asked for")
        }
    }
}
