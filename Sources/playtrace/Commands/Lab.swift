import ArgumentParser
import Foundation
import PlaytraceCore
import PlaytraceLab

struct Lab: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lab",
        abstract: "Serve the lab on loopback: HLS and DASH VOD, live and DVR streams with ad breaks, fault injection, a request log.",
        discussion: """
            Streams: /vod/master.m3u8, /live/master.m3u8 and /dvr/master.m3u8 (three variants, ad breaks signalled \
            by SCTE-35 date ranges, cue tags and an interstitial), /fmp4/master.m3u8 (byte ranges, a map, a key), \
            /interstitials/master.m3u8 and /vast-interstitials/master.m3u8 (interstitials of every kind, asset lists \
            as JSON or from the VAST ad server under /vast/), /steering/master.m3u8 (two content-steering pathways, \
            steered by POST /lab/steering), /long-live/N/index.m3u8 (a live playlist of N segments), the same content \
            as MPEG-DASH at /dash/<vod|live|dvr|list>/manifest.mpd (an ad period, SegmentTimeline live windows whose \
            clock /dash/time gives, a SegmentList). SSAI sessions: \
            /ssai/harmonic/<vod|live>/master.m3u8 (?initSession=true) and its /metadata, and \
            /ssai/mediatailor/v1/session/lab/origin/<vod|live>/master.m3u8 (POST) with its tracking JSON; their \
            beacons hit GET /beacons/..., read back as JSON at GET /lab/beacons. Faults: POST /lab/faults \
            {"path": "/vod/2/", "type": "status|delay|drop|throttle|body", "value": N, "count": N}; the request log at \
            GET /lab/requests; what telemetry backends post is kept under /sink/.

            The address is printed (and flushed) as soon as the lab listens, so `playtrace lab --port 0 > log &` \
            works; --ready-file also writes it as JSON for scripts: {"host": …, "port": …, "url": …}.
            """)

    @OptionGroup var common: CommonOptions

    @Option(help: "The port to listen on (0 picks a free one).")
    var port: Int = 8080

    @Option(help: "The address to listen on.")
    var host: String = "127.0.0.1"

    @Option(help: "Write the lab's address to this file as JSON once it listens.")
    var readyFile: String?

    @Option(name: .customLong("beacon-vendor"),
            help: "Another ad vendor's beacon server (a base URL, repeatable): every SSAI tracking event also lists a URL to it.")
    var beaconVendors: [String] = []

    @Option(help: ArgumentHelp(
        "The bit rate ladder: standard (400 kbit/s to 3 Mbit/s) or load (32 to 128 kbit/s).",
        discussion: "load serves the same streams with small segments, for probes of thousands of viewers: what they "
            + "do is measured, not how many bytes loopback moves."))
    var ladder: Ladder = .standard

    enum Ladder: String, ExpressibleByArgument, CaseIterable {
        case standard, load
    }

    @Option(help: "A directory of real media to serve under /media/ (scripts/generate-media makes one with ffmpeg).")
    var mediaDir: String?

    /// One ready-to-paste `play` per kind of stream and `--ads` mode, content steering included, with the program as
    /// it was invoked (a `swift run`'s build path, or `playtrace` from the PATH).
    static func tryCommands(_ url: String) -> [String] {
        let invoked = CommandLine.arguments.first ?? "playtrace"
        let program = invoked.contains("/") ? shellQuoted(invoked) : "playtrace"
        return [
            ("on demand", "/vod/master.m3u8 --duration 20"),
            ("live", "/live/master.m3u8 --duration 30"),
            ("steering", "/steering/master.m3u8 --duration 20"),
            ("harmonic", "/ssai/harmonic/vod/master.m3u8 --ads harmonic"),
            ("mediatailor", "/ssai/mediatailor/v1/session/lab/origin/vod/master.m3u8 --ads mediatailor"),
            ("signaling", "/interstitials/master.m3u8 --ads signaling"),
            ("vast", "/vast-interstitials/master.m3u8 --ads vast"),
        ].map { name, rest in
            "  " + (name + ":").padding(toLength: 13, withPad: " ", startingAt: 0) + "\(program) play \(url)\(rest)"
        }
    }

    /// A word for a POSIX shell: as it is when it holds nothing the shell reads specially, else in single quotes.
    private static func shellQuoted(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy {
            CharacterSet.alphanumerics.contains($0) || "/._-+:@".unicodeScalars.contains($0)
        }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    func validate() throws {
        if let mediaDir {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: mediaDir, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError(PlainText.safe("--media-dir \(mediaDir): no such directory"))
            }
        }
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard !host.isEmpty else { throw ValidationError("--host must not be empty") }
        for vendor in beaconVendors {
            guard let url = URL(string: vendor), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw ValidationError(PlainText.safe("--beacon-vendor \(vendor): expected an http(s) base URL"))
            }
        }
    }

    func run() async throws {
        common.bootstrapLogging()
        var configuration = LabConfiguration()
        configuration.beaconVendors = beaconVendors.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        configuration.mediaDirectory = mediaDir
        configuration.variants = ladder == .load ? LabConfiguration.loadLadder : LabConfiguration.standardLadder
        let lab = LabServer(clock: ContinuousClock(), configuration: configuration)
        let host = self.host
        let readyFile = self.readyFile
        let realMedia = mediaDir.map { "\n  real:     /media/vod/index.m3u8 (decodable, from \($0))" } ?? ""
        do {
            try await lab.serveUntilSignalled(host: host, port: port) { bound in
                let url = "http://\(host.contains(":") ? "[\(host)]" : host):\(bound)"
                Self.write("""
                    Playtrace lab on \(url)
                      streams:  /vod/master.m3u8  /live/master.m3u8  /dvr/master.m3u8  /fmp4/master.m3u8
                                /interstitials/master.m3u8  /vast-interstitials/master.m3u8  /steering/master.m3u8\(realMedia)
                      DASH:     /dash/vod/manifest.mpd  /dash/live/manifest.mpd  /dash/dvr/manifest.mpd  /dash/list/manifest.mpd
                      ads:      /ssai/harmonic/<vod|live>/master.m3u8  /ssai/mediatailor/v1/session/lab/origin/<vod|live>/master.m3u8
                                /vast/pods/<id>.xml  /vast/chain/<n>/<id>.xml
                      beacons:  GET /lab/beacons
                      faults:   POST /lab/faults {"path": "/vod/2/", "type": "status|delay|drop|throttle|body", "value": N, "count": N}
                                GET /lab/faults, DELETE /lab/faults
                      requests: GET /lab/requests
                    Try (each in another terminal):
                    \(Self.tryCommands(url).joined(separator: "\n"))
                    Press Ctrl-C to stop.

                    """)
                if let readyFile {
                    let ready = ReadyFile(host: host, port: bound, url: url)
                    do {
                        let encoder = JSONEncoder()
                        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                        try AtomicFile.write(encoder.encode(ready), to: readyFile)
                    } catch {
                        StandardStreams.writeError(PlainText.safe(
                            "playtrace lab: --ready-file \(readyFile): \(PlainText.describe(error))") + "\n")
                    }
                }
            }
        } catch {
            throw PlainFailure("lab on \(host):\(port)", error: error)
        }
        Self.write("lab stopped after \(lab.requests.all.count) requests\n")
    }

    /// Writes to standard output at once, whether it is a terminal, a file or a pipe.
    private static func write(_ text: String) {
        StandardStreams.writeOutput(text)
    }

    struct ReadyFile: Encodable {
        var host: String
        var port: Int
        var url: String
    }
}
