import Foundation
import PlaytraceLab
import PlaytraceNetwork
import PlaytraceTestSupport
import Testing

/// Text from the network reaches the terminal only escaped (issue 44): ids and titles of ad metadata, a date range's
/// id, a backend's error body, on every path `play --plain` writes (status lines, pod list, summary, verdict, the log
/// lines on standard error).
@Suite("Hostile text never drives the terminal", .serialized)
struct HostileTextTests {
    /// OSC 0 (the window title), CSI 2J (clear the screen), OSC 8 (a link), C1 CSI, and a right-to-left override.
    static let payload = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}]8;;http://x\u{1B}\\\u{9B}31m\u{202E}"

    /// The bytes a terminal acts on: C0 controls but line feed and tab, DEL, C1 controls, bidirectional overrides.
    static func controls(in text: String) -> [String] {
        text.unicodeScalars.compactMap { scalar in
            switch scalar.value {
            case 0x0A, 0x09: nil
            case 0x00..<0x20, 0x7F..<0xA0, 0x202A...0x202E, 0x2066...0x2069: String(scalar.value, radix: 16)
            default: nil
            }
        }
    }

    /// Wall time, for a reason: the command plays in real time (the lab's Harmonic session up to its break's end).
    @Test("Ad ids, a date range id and a backend's error body, escaped on stdout and stderr")
    func hostileTextIsEscaped() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let base = "http://127.0.0.1:\(port)/ssai/harmonic/vod"
        // The session's own metadata and media playlist, with hostile ids.
        let transport = AsyncHTTPClientTransport()
        func get(_ url: String, method: String = "GET") async throws -> String {
            String(decoding: try await transport.send(HTTPRequest(method: method, url: URL(string: url)!)).body, as: UTF8.self)
        }
        _ = try await get("\(base)/master.m3u8", method: "POST")
        let metadata = try await get("\(base)/metadata?sessid=lab-1")
        let playlist = try await get("\(base)/0/index.m3u8?sessid=lab-1")
        try? await transport.shutdown()
        let hostileMetadata = metadata
            .replacingOccurrences(of: "\"id\":\"ad-1\"", with: "\"id\":\"ad-1\(Self.json(Self.payload))\"")
            .replacingOccurrences(of: "\"id\":\"break-1\"", with: "\"id\":\"break-1\(Self.json(Self.payload))\"")
        #expect(hostileMetadata.contains("pwned"))
        lab.faults.add(LabFault(pathContains: "/metadata", kind: .body(hostileMetadata)))
        let hostilePlaylist = playlist
            .replacingOccurrences(of: "ID=\"break-1\"", with: "ID=\"break-1\(Self.payload)\"")
        #expect(hostilePlaylist.contains("pwned"), "the media playlist has a date range to poison")
        lab.faults.add(LabFault(pathContains: "/index.m3u8", kind: .body(hostilePlaylist)))
        // A backend that refuses every batch with a hostile message.
        lab.faults.add(LabFault(pathContains: "/sink/influx", kind: .status(400)))
        lab.faults.add(LabFault(pathContains: "/sink/influx", kind: .body("bad\(Self.payload) request")))

        let run = try await CLITests.run(["play", "\(base)/master.m3u8", "--ads", "harmonic", "--plain",
                                          "--ads-interval", "2", "--script", "at 13 stop",
                                          "--influx", "http://127.0.0.1:\(port)/sink/influx"])
        await lab.stop()
        let everything = run.output + run.error
        #expect(Self.controls(in: everything).isEmpty, "control characters reached the terminal: \(Self.controls(in: everything))")
        #expect(everything.contains("pwned"), "the hostile text was shown, escaped")
        #expect(everything.contains("\\u{1B}]0;pwned"), "as visible escapes")
        #expect(run.error.contains("bad\\u{1B}]0;pwned"), "the backend's message, escaped in the log line: \(run.error)")
    }

    /// The text as a JSON string's content (control characters as \u escapes, as a server would send them).
    private static func json(_ text: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: [text])
        let array = String(decoding: data, as: UTF8.self)
        return String(array.dropFirst(2).dropLast(2))
    }
}
