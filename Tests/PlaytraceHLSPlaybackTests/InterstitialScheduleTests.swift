import Foundation
import PlaytraceCore
import PlaytraceHLS
import PlaytraceHLSPlayback
import PlaytracePlayer
import Testing

/// The rules of rfc8216bis appendix D that both engines keep, on a playlist of 6 s segments from 10:00:00.
@Suite("The interstitial schedule's rules")
struct InterstitialScheduleTests {
    static let base = try! StreamDate(iso8601: "2026-11-29T10:00:00.000Z")
    static let url = URL(string: "https://origin.example/live/index.m3u8")!

    /// A media playlist of `count` 6 s segments whose second segment carries `dateRanges`.
    static func playlist(_ dateRanges: [String], count: Int = 6) throws -> MediaPlaylist {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-11-29T10:00:00.000Z\n#EXTINF:6.0,\ns0.ts\n"
        text += dateRanges.joined(separator: "\n") + "\n"
        for index in 1..<count { text += "#EXTINF:6.0,\ns\(index).ts\n" }
        return try PlaylistParser().parseMediaPlaylist(text + "#EXT-X-ENDLIST\n")
    }

    static func interstitial(_ id: String, at second: Int, _ attributes: String = "") -> String {
        let date = "2026-11-29T10:00:" + (second < 10 ? "0" : "") + "\(second).000Z"
        return "#EXT-X-DATERANGE:ID=\"\(id)\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"\(date)\","
            + "X-ASSET-LIST=\"ads.json\"" + (attributes.isEmpty ? "" : "," + attributes)
    }

    static func schedule(_ playlist: MediaPlaylist) -> InterstitialSchedule {
        var schedule = InterstitialSchedule()
        schedule.note(playlist, baseURL: url, placement: { sequence in
            let start = MediaTime(seconds: Double(sequence) * 6)
            return .init(start: start, date: base + start)
        }, nearestBoundary: { MediaTime(seconds: ($0.seconds / 6).rounded() * 6) })
        return schedule
    }

    @Test("Placed at its date; X-SNAP=OUT moves it to the nearest boundary")
    func placement() throws {
        let schedule = Self.schedule(try Self.playlist([
            Self.interstitial("plain", at: 9), Self.interstitial("snapped", at: 16, "X-SNAP=\"OUT\""),
        ]))
        #expect(schedule.events.map(\.id) == ["plain", "snapped"])
        #expect(schedule.events.map(\.start) == [MediaTime(seconds: 9), MediaTime(seconds: 18)])
        #expect(schedule.events.map(\.datePosition) == [MediaTime(seconds: 9), MediaTime(seconds: 16)])
        #expect(schedule.midRoll(from: .zero, to: MediaTime(seconds: 8.9)) == nil)
        #expect(schedule.midRoll(from: MediaTime(seconds: 8.9), to: MediaTime(seconds: 20))?.event.id == "plain")
    }

    @Test("A forward seek plays the last JUMP-restricted one it passes; a seek back re-arms all but CUE=ONCE")
    func jumpAndRearm() throws {
        var schedule = Self.schedule(try Self.playlist([
            Self.interstitial("a", at: 9, "X-RESTRICT=\"JUMP\""), Self.interstitial("b", at: 20, "X-RESTRICT=\"SKIP,JUMP\""),
            Self.interstitial("once", at: 25, "CUE=\"ONCE\""),
        ]))
        #expect(schedule.jumpRestricted(from: .zero, to: MediaTime(seconds: 30))?.event.id == "b")
        #expect(schedule.jumpRestricted(from: MediaTime(seconds: 30), to: .zero) == nil)
        for id in ["a", "b", "once"] {
            let entry = try #require(schedule.midRoll(from: .zero, to: MediaTime(seconds: 30)))
            #expect(entry.event.id == id)
            _ = schedule.begin(entry, at: entry.event.start)
        }
        #expect(schedule.midRoll(from: .zero, to: MediaTime(seconds: 30)) == nil)
        schedule.rearm(after: MediaTime(seconds: 10))
        #expect(schedule.midRoll(from: .zero, to: MediaTime(seconds: 30))?.event.id == "b")
        #expect(schedule.midRoll(from: MediaTime(seconds: 21), to: MediaTime(seconds: 30)) == nil)
    }

    @Test("Playback that starts inside one with a span joins it there, through its assets")
    func joinedUnderWay() throws {
        let schedule = Self.schedule(try Self.playlist([Self.interstitial("live", at: 9, "DURATION=20,X-RESUME-OFFSET=20")]))
        let (entry, offset) = try #require(schedule.underWay(at: MediaTime(seconds: 24)))
        #expect(entry.event.id == "live" && offset == MediaTime(seconds: 15))
        #expect(schedule.underWay(at: MediaTime(seconds: 9)) == nil)
        #expect(schedule.underWay(at: MediaTime(seconds: 29)) == nil)
        let assets = [InterstitialAsset(url: "a.m3u8", duration: MediaTime(seconds: 10)),
                      InterstitialAsset(url: "b.m3u8", duration: MediaTime(seconds: 10))]
        let join = InterstitialSchedule.joinPoint(at: offset, in: assets)
        #expect(join.index == 1 && join.into == MediaTime(seconds: 5))
        #expect(InterstitialSchedule.offset(ofAsset: 1, in: assets) == MediaTime(seconds: 10))
        let source = try InterstitialAssetSource(of: entry, primaryID: "viewer-1", startOffset: offset)
        guard case .list(let list) = source else { Issue.record("an asset list: \(source)"); return }
        #expect(list.absoluteString.contains("_HLS_interstitial_id=live"))
        #expect(list.absoluteString.contains("_HLS_primary_id=viewer-1"))
        #expect(list.absoluteString.contains("_HLS_start_offset=15.000"))
    }

    @Test("The primary resumes at start + X-RESUME-OFFSET, by default what played; a cancelled one at its start")
    func resumption() throws {
        let schedule = Self.schedule(try Self.playlist([
            Self.interstitial("overlay", at: 12, "X-RESUME-OFFSET=0"), Self.interstitial("inserted", at: 18),
            Self.interstitial("snapped", at: 26, "X-RESUME-OFFSET=5,X-SNAP=\"IN\""),
        ]))
        let entries = Dictionary(uniqueKeysWithValues: schedule.entries.map { ($0.key, $0.value) })
        func resume(_ id: String, played: Double, cancelled: Bool = false) throws -> MediaTime {
            InterstitialSchedule.resumePosition(after: try #require(entries[id]), played: MediaTime(seconds: played),
                                                cancelled: cancelled, nearestBoundary: { MediaTime(seconds: ($0.seconds / 6).rounded() * 6) })
        }
        #expect(try resume("overlay", played: 15) == MediaTime(seconds: 12))
        #expect(try resume("inserted", played: 15) == MediaTime(seconds: 33))
        #expect(try resume("inserted", played: 15, cancelled: true) == MediaTime(seconds: 18))
        #expect(try resume("snapped", played: 15) == MediaTime(seconds: 30))
    }
}
