import Foundation
import PlaytraceHLS
import PlaytraceLab
import Testing

/// `inspect` tells every truth it can: every problem with its line to the end of the document, whatever came first;
/// no header at odds with the problems; SCTE-35 as written; documents recognised by what they are.
@Suite("inspect: every truth it can", .serialized)
struct InspectTruthTests {
    private static func write(_ text: String, suffix: String = "m3u8") throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("truth-\(UUID().uuidString).\(suffix)")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    private static func inspect(_ text: String, suffix: String = "m3u8", _ extra: [String] = []) async throws -> CLITests.Run {
        let file = try write(text, suffix: suffix)
        defer { try? FileManager.default.removeItem(at: file) }
        return try await CLITests.run(["inspect", file.path] + extra)
    }

    @Test("A line that mixes the kinds does not stop the report: every later problem is listed, a bad SCTE-35 CRC among them")
    func everyProblemToTheEnd() async throws {
        var corrupt = SpliceInfoSectionEncoder.spliceInsert(eventID: 3, isOutOfNetwork: true, ptsTime: 90_000,
                                                            breakDuration: 30 * 90_000)
        corrupt[corrupt.count - 1] ^= 0xFF
        let run = try await Self.inspect("""
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXTINF:10,
            a.ts
            #EXT-X-STREAM-INF:BANDWIDTH=100
            v.m3u8
            #EXT-X-DATERANGE:ID="x",START-DATE="not a date"
            #EXTINF:10,
            b.ts
            #EXT-OATCLS-SCTE35:\(SpliceInfoSectionEncoder.hex(corrupt))
            #EXTINF:10,
            c.ts
            """)
        #expect(run.status == 1, "tags of both kinds leave it unusable")
        for problem in ["line 5: the playlist mixes media-playlist and multivariant-playlist tags",
                        "line 7: #EXT-X-DATERANGE has an invalid START-DATE", "segment 2: EXT-OATCLS-SCTE35 cannot be decoded"] {
            #expect(run.output.contains(problem), "missing \(problem): \(run.output)")
        }
        #expect(run.output.contains("segments: 3"), "the segments after the mixed line are read: \(run.output)")
        #expect(run.error.contains("line 5: the playlist mixes"), "\(run.error)")
    }

    @Test("A VOD playlist without EXT-X-ENDLIST: the header does not say ended")
    func noEndListNoEnded() async throws {
        let run = try await Self.inspect("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:4,\na.ts\n")
        #expect(run.status == 0)
        #expect(run.output.contains("type VOD (no #EXT-X-ENDLIST)") && !run.output.contains(", ended"), "\(run.output)")
        #expect(run.output.contains("a VOD playlist lacks #EXT-X-ENDLIST"))
    }

    @Test("SCTE-35: pts_time and pts_adjustment apart; a Provider Placement Opportunity End is no open break")
    func scte35AsWritten() async throws {
        let start = SpliceInfoSectionEncoder.hex(SpliceInfoSectionEncoder.timeSignal(
            ptsTime: 900_000, segmentationEventID: 9, segmentationTypeID: 0x34, duration: 20 * 90_000, ptsAdjustment: 90_000))
        let end = SpliceInfoSectionEncoder.hex(SpliceInfoSectionEncoder.timeSignal(
            ptsTime: 2_700_000, segmentationEventID: 9, segmentationTypeID: 0x35, duration: nil))
        let run = try await Self.inspect("""
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z
            #EXT-X-DATERANGE:ID="po-start",START-DATE="2026-01-01T00:00:10Z",SCTE35-CMD=\(start)
            #EXTINF:10,
            a.ts
            #EXTINF:10,
            b.ts
            #EXT-X-DATERANGE:ID="po-end",START-DATE="2026-01-01T00:00:30Z",SCTE35-CMD=\(end)
            #EXTINF:10,
            c.ts
            #EXT-X-ENDLIST
            """)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("pts_time 10.000000 s, pts_adjustment 1.000000 s (splice at 11.000000 s)"), "\(run.output)")
        #expect(run.output.contains("ad breaks (1):"), "\(run.output)")
        #expect(run.output.contains("po-start  daterange-scte35  at 10.000 s  for 20.000 s") && !run.output.contains("(open)"),
                "the end closes the start: \(run.output)")
        #expect(!run.output.contains("has no end signal"))
    }

    @Test("A break opened by SCTE35-OUT and closed by a later tag's SCTE35-CMD: both messages listed, the break closed")
    func mergedRangeKeepsEveryMessage() async throws {
        let start = SpliceInfoSectionEncoder.hex(SpliceInfoSectionEncoder.timeSignal(
            ptsTime: 900_000, segmentationEventID: 9, segmentationTypeID: 0x34, duration: 20 * 90_000))
        let end = SpliceInfoSectionEncoder.hex(SpliceInfoSectionEncoder.timeSignal(
            ptsTime: 2_700_000, segmentationEventID: 9, segmentationTypeID: 0x35, duration: nil))
        let playlist = """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z
            #EXT-X-DATERANGE:ID="po-9",START-DATE="2026-01-01T00:00:10Z",PLANNED-DURATION=20,SCTE35-OUT=\(start)
            #EXTINF:10,
            a.ts
            #EXTINF:10,
            b.ts
            #EXT-X-DATERANGE:ID="po-9",START-DATE="2026-01-01T00:00:10Z",SCTE35-CMD=\(end)
            #EXTINF:10,
            c.ts
            #EXT-X-ENDLIST
            """
        let run = try await Self.inspect(playlist)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("      SCTE-35 (SCTE35-OUT): time_signal, pts_time 10.000000 s, Provider Placement Opportunity Start (0x34)"),
                "\(run.output)")
        #expect(run.output.contains("      SCTE-35 (SCTE35-CMD): time_signal, pts_time 30.000000 s, Provider Placement Opportunity End (0x35)"),
                "\(run.output)")
        #expect(run.output.contains("po-9  daterange-scte35  at 10.000 s  for 20.000 s") && !run.output.contains("(open)"),
                "the later command closes the break: \(run.output)")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("merged-\(UUID().uuidString).m3u8")
        try playlist.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let (_, object) = try await CLITests.inspectJSON([file.path])
        let range = try #require((object["dateRanges"] as? [[String: Any]])?.first)
        #expect((range["scte35Out"] as? [String: Any])?["summary"] as? String != nil)
        #expect(((range["scte35Command"] as? [String: Any])?["summary"] as? String)?.contains("(0x35)") == true, "\(range)")
        #expect(range["scte35In"] == nil)
    }

    @Test("JSON is recognised by its content: empty, malformed, an asset list")
    func jsonDocuments() async throws {
        let empty = try await Self.inspect("{}", suffix: "json")
        #expect(empty.status == 1 && empty.error.contains("JSON, but neither Harmonic ad metadata"), "\(empty.error)")
        #expect(!empty.error.contains("#EXTM3U"))
        let malformed = try await Self.inspect("{\"avails\": [", suffix: "json")
        #expect(malformed.status == 1 && malformed.error.contains("not valid JSON"), "\(malformed.error)")
        let assets = try await Self.inspect(#"{"ASSETS":[{"URI":"https://ads.example/1.m3u8","DURATION":15},{"URI":"https://ads.example/2.m3u8","DURATION":0}]}"#,
                                            suffix: "json")
        #expect(assets.status == 0, "\(assets.error)")
        #expect(assets.output.contains("HLS asset list") && assets.output.contains("2 asset(s), 15.00 s"), "\(assets.output)")
        #expect(assets.output.contains("asset 2: DURATION 0.0 is not positive"))
        let skippable = try Self.write(#"{"ASSETS":[{"URI":"https://ads.example/1.m3u8","DURATION":15}],"SKIP-CONTROL":{"OFFSET":5,"LABEL-ID":"skip"}}"#,
                                       suffix: "json")
        defer { try? FileManager.default.removeItem(at: skippable) }
        let (_, list) = try await CLITests.inspectJSON([skippable.path])
        #expect(list["kind"] as? String == "hls-asset-list" && list["totalDurationSeconds"] as? Double == 15)
        let skipControl = try #require(list["skipControl"] as? [String: Any])
        #expect(skipControl["offsetSeconds"] as? Double == 5 && skipControl["labelID"] as? String == "skip")
        #expect(skipControl["durationSeconds"] == nil, "absent: the control stays until the interstitial ends")
    }

    @Test("inspect - reads standard input")
    func standardInput() async throws {
        let file = try Self.write("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts\n#EXT-X-ENDLIST\n")
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try await CLITests.run(["inspect", "-"], input: file)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.hasPrefix("-: media playlist") && run.output.contains("segments: 1"), "\(run.output)")
    }

    @Test("--offline: a VAST wrapper is listed, not fetched")
    func offline() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let wrapper = """
            <VAST version="4.2"><Ad id="w"><Wrapper><AdSystem>x</AdSystem>
            <VASTAdTagURI><![CDATA[http://127.0.0.1:\(port)/vast/inline.xml]]></VASTAdTagURI>
            <Error><![CDATA[http://127.0.0.1:\(port)/beacons/error]]></Error></Wrapper></Ad></VAST>
            """
        let run = try await Self.inspect(wrapper, suffix: "xml", ["--offline"])
        await lab.stop()
        #expect(run.output.contains("not fetched (--offline)"), "\(run.output)")
        #expect(lab.requests.all.isEmpty, "nothing was requested")
    }
}
