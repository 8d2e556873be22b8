import Foundation
import PlaytraceCore
import Testing

/// Conversions of outside numbers that clamp instead of trapping (issue 44).
@Suite("Checked numbers and whole files")
struct CheckedNumbersTests {
    @Test("Doubles at the edges become the nearest integer or duration there is, never a trap")
    func saturatingConversions() {
        #expect(Int64(saturating: 1e300) == .max && Int64(saturating: -1e300) == .min)
        #expect(Int64(saturating: .infinity) == .max && Int64(saturating: .nan) == 0)
        #expect(Int64(saturating: 9_223_372_036_854_775_807.0) == .max, "2^63 itself is past Int64.max")
        #expect(Int64(saturating: -0.0) == 0 && Int64(saturating: 2.5) == 3)
        #expect(Int64(checkedRounding: 1e19) == nil && Int64(checkedRounding: .nan) == nil && Int64(checkedRounding: 7.4) == 7)
        #expect(Int.max.addingSaturating(1) == .max && Int.min.addingSaturating(-1) == .min)
        #expect(Int.max.addingChecked(1) == nil && 2.addingChecked(3) == 5)
        #expect(Duration.saturating(seconds: 1e16) == .nanoseconds(Int64.max))
        #expect(Duration.saturating(milliseconds: .nan) == .zero)
        #expect(Duration.saturating(milliseconds: 1.4) == .milliseconds(1))
        #expect(MediaTime(seconds: 1e16).duration == .nanoseconds(Int64.max))
        #expect(MediaTime(seconds: -.infinity).duration == .nanoseconds(Int64.min))
        #expect(MediaTime(seconds: 1e300).timecode.hasPrefix("2562047788015:"), "clamped at Int64 milliseconds")
        #expect(MediaTime(documentSeconds: 1e16) == nil && MediaTime(documentSeconds: -1) == nil)
        #expect(MediaTime(documentSeconds: -1, allowsNegative: true) == MediaTime(seconds: -1))
    }

    private func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("A file written whole replaces the old one at once, keeps its mode, and leaves no temporary file")
    func atomicWrite() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/summary.json"
        try AtomicFile.write("old", to: path)
        chmod(path, 0o640)
        try AtomicFile.write("new", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["summary.json"])
        // A private file is private whatever was there before.
        try AtomicFile.write("secret", to: path, permissions: AtomicFile.privatePermissions)
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o600)
    }

    @Test("A write that fails leaves the old file as it was")
    func failedWriteKeepsTheOldFile() throws {
        let folder = try directory()
        defer { chmod(folder, 0o755); try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/report.html"
        try AtomicFile.write("old", to: path)
        // A path whose directory is missing cannot be written: the error is thrown, nothing else changes.
        #expect(throws: (any Error).self) { try AtomicFile.write("new", to: folder + "/missing/report.html") }
        // Writing over a directory fails at the rename: the temporary file is removed.
        try FileManager.default.createDirectory(atPath: folder + "/dir", withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: folder + "/dir/inside", withIntermediateDirectories: false)
        #expect(throws: (any Error).self) { try AtomicFile.write("new", to: folder + "/dir") }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["dir", "report.html"])
    }

    @Test("A draft keeps the file as it was until it is committed; discarded, or never committed, it leaves it so")
    func draft() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/events.jsonl"
        try AtomicFile.write("{\"n\":1}\n", to: path)
        let draft = try AtomicFile.Draft(path: path, keepingContents: true)
        try draft.append(Array("{\"n\":2}\n".utf8))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"n\":1}\n", "a reader sees the file as it was")
        try draft.append(Data("{\"n\":3}\n".utf8))
        try draft.commit()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"n\":1}\n{\"n\":2}\n{\"n\":3}\n")
        #expect(throws: (any Error).self) { try draft.append([1]) }
        // Discarded, and dropped without a commit: the file stays, and no temporary file is left.
        let discarded = try AtomicFile.Draft(path: path)
        try discarded.append([0x2a])
        discarded.discard()
        do {
            let dropped = try AtomicFile.Draft(path: path, keepingContents: true)
            try dropped.append([0x2a])
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasSuffix("{\"n\":3}\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["events.jsonl"])
        // A new file: nothing to keep.
        let fresh = try AtomicFile.Draft(path: folder + "/new.jsonl", keepingContents: true)
        try fresh.append([0x7b, 0x7d])
        try fresh.commit()
        #expect(try String(contentsOfFile: folder + "/new.jsonl", encoding: .utf8) == "{}")
    }

    @Test("A private file is created fresh, owner-only, never at a name someone planted")
    func privateFile() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try AtomicFile.createPrivate(in: folder, prefix: "playtrace-demo-report", suffix: ".html")
        let second = try AtomicFile.createPrivate(in: folder, prefix: "playtrace-demo-report", suffix: ".html")
        #expect(first != second && first.hasSuffix(".html") && first.contains("/playtrace-demo-report-"))
        #expect((try FileManager.default.attributesOfItem(atPath: first)[.posixPermissions] as? Int) == 0o600)
    }
}
