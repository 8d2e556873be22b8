import Foundation
import PlaytraceCore
import PlaytraceLab
import PlaytraceTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every command fails with one line that names the culprit and a non-zero status, never with a crash; and a
/// session ends the same way whether it reached its end or was interrupted.
@Suite("The command line under bad input and signals", .serialized)
struct CLIRobustnessTests {
    static func expectCleanFailure(_ run: CLITests.Run, naming culprit: String, status: Int32 = 1,
                                   sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.status == status, "status \(run.status), stderr: \(run.error)", sourceLocation: sourceLocation)
        let errorLines = run.error.split(separator: "\n").filter { $0.hasPrefix("Error: ") }
        #expect(errorLines.count == 1, "stderr: \(run.error)", sourceLocation: sourceLocation)
        #expect(errorLines.first?.contains(culprit) == true, "stderr: \(run.error)", sourceLocation: sourceLocation)
        #expect(!run.error.contains("Fatal error") && !run.error.contains("Backtrace"), sourceLocation: sourceLocation)
    }

    @Test func optionsOutOfRangeAreRefusedByName() async throws {
        Self.expectCleanFailure(try await CLITests.run(["--speed", "1e9"]), naming: "--speed", status: 64)
        Self.expectCleanFailure(try await CLITests.run(["--speed", "1e308"]), naming: "--speed", status: 64)
        Self.expectCleanFailure(try await CLITests.run(["--speed", "0"]), naming: "--speed", status: 64)
        Self.expectCleanFailure(try await CLITests.run(["--duration=-5", "--stream", "live"]), naming: "--duration", status: 64)
        Self.expectCleanFailure(try await CLITests.run(["play", "http://127.0.0.1:99999/x.m3u8"]), naming: "99999", status: 64)
        Self.expectCleanFailure(try await CLITests.run(["play", "ftp://example/x.m3u8"]), naming: "ftp://example/x.m3u8", status: 64)
        Self.expectCleanFailure(try await CLITests.run(["play", "http://127.0.0.1:9/x.m3u8", "--duration=-5"]),
                                naming: "--duration", status: 64)
        Self.expectCleanFailure(try await CLITests.run(["play", "http://127.0.0.1:9/x.m3u8", "--max-bandwidth", "0"]),
                                naming: "--max-bandwidth", status: 64)
        Self.expectCleanFailure(try await CLITests.run(["lab", "--port", "99999"]), naming: "--port", status: 64)
    }

    @Test func telemetrySetUpErrorsNameTheOptionAndTheFile() async throws {
        let notDatabase = FileManager.default.temporaryDirectory.appendingPathComponent("not-\(UUID().uuidString).db")
        try Data("hello\n".utf8).write(to: notDatabase)
        defer { try? FileManager.default.removeItem(at: notDatabase) }
        let jsonl = try await CLITests.run(["play", "http://127.0.0.1:9/x.m3u8", "--jsonl", "/nonexistent/dir/x.jsonl"])
        Self.expectCleanFailure(jsonl, naming: "--jsonl /nonexistent/dir/x.jsonl: No such file or directory", status: 64)
        #expect(jsonl.output.isEmpty, "refused before the session starts")
        let outbox = try await CLITests.run(["play", "http://127.0.0.1:9/x.m3u8", "--outbox", notDatabase.path])
        Self.expectCleanFailure(outbox, naming: "--outbox \(notDatabase.path): ")
        #expect(!outbox.error.contains("while executing"))
        // The outbox command without --deliver, on a file that is not an outbox, and on a missing file.
        Self.expectCleanFailure(try await CLITests.run(["outbox", notDatabase.path]), naming: notDatabase.path)
        Self.expectCleanFailure(try await CLITests.run(["outbox", "/nonexistent/outbox.sqlite"]),
                                naming: "/nonexistent/outbox.sqlite", status: 64)
    }

    @Test("Telemetry that never reached its backend during the run fails the verdict unless accepted, naming the outbox it waits in; outbox without --deliver exits 0")
    func undeliveredTelemetryIsAShortfall() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let arguments = ["play", "http://127.0.0.1:\(port)/vod/master.m3u8", "--duration", "1", "--outbox", path,
                         "--influx", "http://127.0.0.1:9", "--drain-timeout", "1"]
        let failed = try await CLITests.run(arguments)
        #expect(failed.status == 1, "stderr: \(failed.error)")
        let line = failed.output.split(separator: "\n").last { $0.hasPrefix("verdict: ") } ?? ""
        #expect(line.hasPrefix("verdict: FAILED — playback played") && line.contains("not delivered during the run, waiting in \(path)"),
                "\(failed.output)")
        // A backend that cannot be reached is said once, its failed attempts counted.
        #expect(failed.error.components(separatedBy: "delivery failed").count - 1 == 1, "\(failed.error)")
        #expect(failed.output.contains(" failed attempt(s) (latest: cannot connect"), "\(failed.output)")
        // Accepted: the session passes, and the verdict still names it. The run leaves an outbox file behind.
        let demo = try await CLITests.run(arguments + ["--accept", "telemetry"])
        await lab.stop()
        #expect(demo.status == 0, "stderr: \(demo.error)")
        #expect(demo.output.contains("(accepted: telemetry: "), "\(demo.output)")
        let run = try await CLITests.run(["outbox", path])
        #expect(run.status == 0, "stderr: \(run.error)")
        #expect(run.output.contains("waiting"))
        #expect(!run.error.contains("Fatal error"))
    }

    @Test func inspectExitsZeroWhenUsableOneWhenNotAndStrictOnAnyProblem() async throws {
        let directory = FileManager.default.temporaryDirectory
        let usable = directory.appendingPathComponent("usable-\(UUID().uuidString).m3u8")
        let fatal = directory.appendingPathComponent("fatal-\(UUID().uuidString).m3u8")
        defer {
            try? FileManager.default.removeItem(at: usable)
            try? FileManager.default.removeItem(at: fatal)
        }
        try "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:1\n#EXT-X-MEDIA-SEQUENCE:2\n#EXTINF:4,\na.ts\n#EXT-X-ENDLIST\n"
            .write(to: usable, atomically: true, encoding: .utf8)
        try "#EXTM3U\n#EXTINF:4,\na.ts\n".write(to: fatal, atomically: true, encoding: .utf8)
        let lenient = try await CLITests.run(["inspect", usable.path])
        #expect(lenient.status == 0, "stderr: \(lenient.error)")
        #expect(lenient.output.contains("line 4: #EXT-X-MEDIA-SEQUENCE appears more than once"))
        let strict = try await CLITests.run(["inspect", usable.path, "--strict"])
        #expect(strict.status == 1)
        // Unusable, and reported all the same: the report with the problem, the reason on standard error, exit 1.
        let unusable = try await CLITests.run(["inspect", fatal.path])
        #expect(unusable.status == 1)
        #expect(unusable.output.contains("line 3: the media playlist has no #EXT-X-TARGETDURATION"), "\(unusable.output)")
        #expect(unusable.error.contains("line 3: the media playlist has no #EXT-X-TARGETDURATION"), "\(unusable.error)")
    }

    /// A local file is read up to the playlist size limit, not whole: a huge file (here a sparse one) is refused
    /// by name without being held in memory; a directory is named as such.
    @Test func inspectRefusesAFileLargerThanAPlaylistMayBe() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("huge-\(UUID().uuidString).m3u8")
        try Data("#EXTM3U\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        Self.expectCleanFailure(try await CLITests.run(["inspect", file.path]),
                                naming: "\(file.path): the file holds more than 67108864 bytes")
        Self.expectCleanFailure(try await CLITests.run(["inspect", FileManager.default.temporaryDirectory.path]),
                                naming: "it is a directory")
    }

    @Test func bytesFromThePlaylistNeverReachTheTerminalRaw() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("escape-\(UUID().uuidString).m3u8")
        defer { try? FileManager.default.removeItem(at: file) }
        try "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:\u{1B}]0;pwned\u{07}\n#EXTINF:4,\na.ts\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let run = try await CLITests.run(["inspect", file.path])
        #expect(run.status == 0)
        #expect(!run.output.contains("\u{1B}") && !run.output.contains("\u{07}"))
        #expect(run.output.contains("\\u{1B}]0;pwned\\u{7}"))
    }

    @Test func labPrintsItsAddressAtOnceAndWritesTheReadyFile() async throws {
        let ready = FileManager.default.temporaryDirectory.appendingPathComponent("ready-\(UUID().uuidString).json")
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("lab-\(UUID().uuidString).log")
        defer {
            try? FileManager.default.removeItem(at: ready)
            try? FileManager.default.removeItem(at: log)
        }
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = CLITests.executable
        process.arguments = ["lab", "--port", "0", "--ready-file", ready.path]
        process.standardOutput = try FileHandle(forWritingTo: log)   // a file, not a terminal
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // Wall time, for a reason: a real process starts; the wait ends as soon as the file appears (bounded).
        var object: [String: Any]?
        for _ in 0..<200 where object == nil {
            if let data = try? Data(contentsOf: ready), !data.isEmpty {
                object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            } else {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        let port = try #require(object?["port"] as? Int)
        #expect(port > 0 && object?["url"] as? String == "http://127.0.0.1:\(port)")
        let printed = try String(contentsOf: log, encoding: .utf8)
        #expect(printed.contains("Playtrace lab on http://127.0.0.1:\(port)"), "printed: \(printed)")
        // A ready-to-paste play per --ads mode, and steering.
        for (name, rest) in [("harmonic", "/ssai/harmonic/vod/master.m3u8 --ads harmonic"),
                             ("mediatailor", "/ssai/mediatailor/v1/session/lab/origin/vod/master.m3u8 --ads mediatailor"),
                             ("signaling", "/interstitials/master.m3u8 --ads signaling"),
                             ("vast", "/vast-interstitials/master.m3u8 --ads vast"), ("steering", "/steering/master.m3u8")] {
            #expect(printed.contains("  \(name):") && printed.contains("\(CLITests.executable.path) play http://127.0.0.1:\(port)\(rest)"),
                    "printed: \(printed)")
        }
        kill(process.processIdentifier, SIGINT)
        await process.ended()
        #expect(process.terminationStatus == 0)
    }

    /// Runs the executable with writes limited to `kilobytes` per file (RLIMIT_FSIZE, SIGXFSZ ignored): a write
    /// past the limit fails with EFBIG mid-file, as one on a full disk fails with ENOSPC.
    static func runWithFullDisk(after kilobytes: Int, _ arguments: [String]) async throws -> CLITests.Run {
        try await CommandRunner.run(executable: URL(fileURLWithPath: "/bin/bash"),
                                    ["-c", #"trap '' XFSZ; ulimit -f "$1"; shift; exec "$@""#, "bash", "\(kilobytes)",
                                     CLITests.executable.path] + arguments)
    }

    @Test("A disk that fills mid-file: the old file stays whole, no temporary file is left, one line names the file")
    func aFullDiskLeavesTheOldFile() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("full-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let summary = directory.appendingPathComponent("summary.json").path
        let report = directory.appendingPathComponent("report.html").path
        let played = try await CLITests.run(["play", "http://127.0.0.1:\(port)/vod/master.m3u8", "--duration", "2",
                                             "--summary-json", summary, "--report", report])
        await lab.stop()
        #expect(played.status == 0, "stderr: \(played.error)")
        let reportSize = try #require(try FileManager.default.attributesOfItem(atPath: report)[.size] as? Int)
        // Half the report fits.
        let limit = reportSize / 2 / 1024
        try #require(limit >= 1, "report \(reportSize) B")

        // Without -o, the report goes beside the summary, with .html for its extension.
        let beside = try await CLITests.run(["report", summary])
        let besidePath = directory.appendingPathComponent("summary.html").path
        #expect(beside.status == 0 && beside.output == "report: \(besidePath)\n", "\(beside.output)\(beside.error)")
        #expect(try String(contentsOfFile: besidePath, encoding: .utf8) == String(contentsOfFile: report, encoding: .utf8))
        try FileManager.default.removeItem(atPath: besidePath)

        // `report` over an earlier report: the old one stays.
        try Data("an earlier report".utf8).write(to: URL(fileURLWithPath: report))
        let failed = try await Self.runWithFullDisk(after: limit, ["report", summary, "-o", report])
        Self.expectCleanFailure(failed, naming: "--output \(report)")
        #expect(try String(contentsOfFile: report, encoding: .utf8) == "an earlier report")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") }.isEmpty,
                "no temporary file left beside it")
    }

    @Test("A report that cannot be written at the end (its folder gone) makes the summary, written last, say the session failed")
    func anUnwritableReportFailsTheSession() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gone-\(UUID().uuidString)")
        let folder = directory.appendingPathComponent("reports")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let summary = directory.appendingPathComponent("summary.json").path
        let report = folder.appendingPathComponent("report.html").path
        let process = Process()
        process.executableURL = CLITests.executable
        process.arguments = ["play", "http://127.0.0.1:\(port)/vod/master.m3u8", "--duration", "3",
                             "--summary-json", summary, "--report", report]
        let printed = Pipe()
        process.standardOutput = printed
        process.standardError = printed
        try process.run()
        // Wall time, for a reason: a real process plays in real time. Once a segment is asked for, the options have
        // been checked (the report's folder was there); the folder goes before the session's end (bounded wait).
        for _ in 0..<400 where !lab.requests.all.contains(where: { $0.path.hasSuffix(".ts") }) {
            try await Task.sleep(for: .milliseconds(25))
        }
        try FileManager.default.removeItem(at: folder)
        let text = await printed.fileHandleForReading.readText()
        await process.ended()
        await lab.stop()
        #expect(process.terminationStatus == 1, "printed: \(text)")
        #expect(!text.contains("Fatal error") && !text.contains("Backtrace"))
        #expect(text.split(separator: "\n").filter { $0.contains("--report \(report)") }.count == 1,
                "one line names the file: \(text)")
        #expect(!FileManager.default.fileExists(atPath: report))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") }.isEmpty,
                "no temporary file left beside the summary")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: summary)))
            as? [String: Any])
        #expect(record["succeeded"] as? Bool == false, "the summary's verdict is the run's final one")
        let verdict = try #require(record["verdict"] as? [String: Any])
        let reasons = try #require(verdict["reasons"] as? [[String: Any]])
        #expect(reasons.contains { ($0["text"] as? String)?.contains("--report could not be written") == true }, "\(verdict)")
    }

    /// SIGHUP is what a closed terminal or a dropped ssh link sends: it ends the session as SIGTERM does.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aSignalEndsPlayWithTheSummary(signal: Int32) async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("signal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let jsonl = directory.appendingPathComponent("events.jsonl")
        let summary = directory.appendingPathComponent("summary.json")
        let report = directory.appendingPathComponent("report.html")
        let process = Process()
        process.executableURL = CLITests.executable
        process.arguments = ["play", "http://127.0.0.1:\(port)/vod/master.m3u8", "--jsonl", jsonl.path,
                             "--summary-json", summary.path, "--report", report.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wall time, for a reason: a real process plays in real time; the signal goes as soon as a segment has been
        // requested (bounded wait), then the process ends on its own.
        for _ in 0..<400 where !lab.requests.all.contains(where: { $0.path.hasSuffix(".ts") }) {
            try await Task.sleep(for: .milliseconds(25))
        }
        try await Task.sleep(for: .milliseconds(500))
        kill(process.processIdentifier, signal)
        let text = await output.fileHandleForReading.readText()
        await process.ended()
        await lab.stop()
        #expect(process.terminationStatus == 128 + signal)
        #expect(text.contains("interrupted at"))
        #expect(text.contains("Summary") && text.contains("Metrics (CTA-2066, per session)"))
        #expect(text.contains("disable at"), "trackers get their disable")
        let lines = try String(contentsOf: jsonl, encoding: .utf8)
        #expect(lines.contains("\"action\":\"Stop\""), "telemetry sends its Stop")
        let record = try String(contentsOf: summary, encoding: .utf8)
        #expect(record.contains("\"schemaVersion\"") && record.contains("\"complete\" : true"), "the summary, whole")
        #expect(try String(contentsOf: report, encoding: .utf8).contains("</html>"), "the report, whole")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") }.isEmpty,
                "no temporary file left beside them")
    }
}

/// What `inspect` tells about a playlist: every fact an engineer checks, in text and in JSON.
@Suite("inspect: the whole truth", .serialized)
struct InspectFactsTests {
    static func write(_ text: String) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("facts-\(UUID().uuidString).m3u8")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test func mediaPlaylistFacts() async throws {
        let file = try Self.write("""
            #EXTM3U
            #EXT-X-VERSION:9
            #EXT-X-TARGETDURATION:4
            #EXT-X-START:TIME-OFFSET=-8,PRECISE=YES
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3.0,CAN-SKIP-UNTIL=24
            #EXT-X-PART-INF:PART-TARGET=1.0
            #EXT-X-MAP:URI="init.mp4",BYTERANGE="800@0"
            #EXT-X-KEY:METHOD=AES-128,URI="k1"
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z
            #EXTINF:4,
            #EXT-X-BYTERANGE:1000@800
            main.mp4
            #EXT-X-KEY:METHOD=AES-128,URI="k2"
            #EXT-X-PART:DURATION=1.0,URI="p1.mp4",INDEPENDENT=YES
            #EXTINF:4,
            #EXT-X-BYTERANGE:1000
            main.mp4
            #EXT-X-PRELOAD-HINT:TYPE=PART,URI="p2.mp4"
            #EXT-X-RENDITION-REPORT:URI="../1/index.m3u8",LAST-MSN=1,LAST-PART=0
            """)
        defer { try? FileManager.default.removeItem(at: file) }
        let text = try await CLITests.run(["inspect", file.path])
        #expect(text.status == 0, "stderr: \(text.error)")
        for line in ["start: -8.0 s, precise", "byte ranges: 2 segments", "encryption (2):", "  AES-128 k1 for segments 0–0",
                     "  AES-128 k2 for segments 1–1", "  init.mp4 bytes 800@0 for segments 0–1",
                     "low latency: part target 1.0 s, 1 parts, server control: blocking reload, skip until 24.0 s, part hold back 3.0 s",
                     "  preload hint PART p2.mp4", "  rendition report ../1/index.m3u8 last 1.0"] {
            #expect(text.output.contains(line), "missing: \(line)\n\(text.output)")
        }
        let (json, object) = try await CLITests.inspectJSON([file.path])
        #expect((object["start"] as? [String: Any])?["timeOffsetSeconds"] as? Double == -8)
        let lowLatency = try #require(object["lowLatency"] as? [String: Any])
        #expect(lowLatency["partTargetSeconds"] as? Double == 1)
        #expect((lowLatency["serverControl"] as? [String: Any])?["canSkipUntilSeconds"] as? Double == 24)
        let segments = try #require(object["segments"] as? [[String: Any]])
        #expect(segments.map { ($0["byteRange"] as? [String: Int]) ?? [:] } == [["length": 1000, "offset": 800], ["length": 1000, "offset": 1800]])
        #expect((object["maps"] as? [[String: Any]])?.first?["byteRange"] as? [String: Int] == ["length": 800, "offset": 0])
        #expect(segments.map { $0["key"] as? Int } == [0, 1])
        #expect(segments.map { $0["map"] as? Int } == [0, 0])
        #expect(segments.first?["date"] as? String == "2026-01-01T00:00:00.000Z")
        #expect(!json.output.contains("\\/"), "no escaped slashes")
    }

    /// The one-line SCTE-35 summaries of the text report, for the specification's time_signal sample (14.1) and a
    /// splice_insert with a break duration.
    @Test func scte35Summaries() async throws {
        let file = try Self.write("""
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z
            #EXT-X-DATERANGE:ID="a",START-DATE="2026-01-01T00:00:00.000Z",SCTE35-CMD=0xFC3034000000000000FFFFF00506FE72BD0050001E021C435545494800008E7FCF0001A599B00808000000002CA0A18A3402009AC9D17E
            #EXT-X-DATERANGE:ID="b",START-DATE="2026-01-01T00:00:01.000Z",DURATION=12.3456,SCTE35-OUT=0xFC302F000000000000FFFFF014054800008F7FEFFE7369C02EFE0052CCF500000000000A0008435545490000013562DBA30A
            #EXT-X-DATERANGE:ID="c",START-DATE="2026-01-01T00:00:02.000Z",DURATION=0.05
            #EXTINF:6,
            a.ts
            #EXT-X-ENDLIST
            """)
        defer { try? FileManager.default.removeItem(at: file) }
        let text = try await CLITests.run(["inspect", file.path])
        #expect(text.status == 0, "stderr: \(text.error)")
        for line in ["  c  2026-01-01T00:00:02.000Z  0.050 s", "      SCTE-35: time_signal, pts_time 21388.766756 s, Provider Placement Opportunity Start (0x34) upid TI:0x000000002ca0a18a 307.000 s",
                     "  b  2026-01-01T00:00:01.000Z  12.346 s",
                     "      SCTE-35: splice_insert, event 1207959695, out, break 60.294 s, pts_time 21514.559089 s"] {
            #expect(text.output.contains(line), "missing: \(line)\n\(text.output)")
        }
    }

    @Test func multivariantFacts() async throws {
        let file = try Self.write("""
            #EXTM3U
            #EXT-X-CONTENT-STEERING:SERVER-URI="https://steering.example/manifest.json",PATHWAY-ID="CDN-A"
            #EXT-X-STREAM-INF:BANDWIDTH=3000000,RESOLUTION=1920x1080,VIDEO-RANGE=PQ,HDCP-LEVEL=TYPE-1,PATHWAY-ID="CDN-A"
            a/1080.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=3000000,RESOLUTION=1920x1080,VIDEO-RANGE=PQ,HDCP-LEVEL=TYPE-1,PATHWAY-ID="CDN-B"
            b/1080.m3u8
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=300000,RESOLUTION=1920x1080,URI="a/iframes.m3u8"
            """)
        defer { try? FileManager.default.removeItem(at: file) }
        let text = try await CLITests.run(["inspect", file.path])
        #expect(text.status == 0, "stderr: \(text.error)")
        for line in ["  3000000 bit/s  1920x1080  PQ  HDCP TYPE-1  pathway CDN-A  a/1080.m3u8", "I-frame variants (1):",
                     "  300000 bit/s  1920x1080  a/iframes.m3u8",
                     "content steering: https://steering.example/manifest.json, first pathway CDN-A",
                     "  pathway CDN-A: 1 variant(s)", "  pathway CDN-B: 1 variant(s)"] {
            #expect(text.output.contains(line), "missing: \(line)\n\(text.output)")
        }
        let (_, object) = try await CLITests.inspectJSON([file.path])
        let variant = try #require((object["variants"] as? [[String: Any]])?.first)
        #expect(variant["bandwidthBitsPerSecond"] as? Int == 3_000_000)
        #expect(variant["resolution"] as? [String: Int] == ["width": 1920, "height": 1080])
        let steering = try #require(object["contentSteering"] as? [String: Any])
        #expect((steering["pathways"] as? [String: [String]])?["CDN-B"] == ["b/1080.m3u8"])
        #expect((object["iFrameVariants"] as? [[String: Any]])?.first?["uri"] as? String == "a/iframes.m3u8")
    }
}
