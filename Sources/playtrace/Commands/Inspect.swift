import ArgumentParser
import Foundation
import PlaytraceAds
import PlaytraceCore
import PlaytraceDASH
import PlaytraceHLS
import PlaytraceNetwork

struct Inspect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Parse a playlist and print what it holds: variants, segments, dates, date ranges, SCTE-35, ad breaks, interstitials, problems. Also reads MPEG-DASH MPDs, VAST (its whole wrapper chain), Harmonic ad metadata and MediaTailor tracking JSON (detected by content).",
        discussion: discussionText)

    @OptionGroup var common: CommonOptions

    @Argument(help: """
        A playlist, an MPEG-DASH MPD, a VAST response, Harmonic ad metadata, MediaTailor tracking JSON or an HLS asset list: a URL \
        (http or https), a file path, or - for standard input.
        """)
    var location: String

    @Flag(help: "Print the report as JSON, as schemas/inspect.schema.json describes it (a schemaVersion, a kind, units in keys).")
    var json = false

    @Flag(help: "Exit 1 when the playlist has any problem, not only when it is unusable.")
    var strict = false

    @Flag(help: "Fetch nothing: a VAST wrapper's ad tag URI is listed, not followed.")
    var offline = false

    static let discussionText = """
        Exits 0 when the playlist is usable, even with problems (each listed with its line); 1 when it is not \
        (it cannot be read, or nothing playable is left); with --strict, 1 when anything at all is wrong. \
        An MPD: the same (usable when a period has a representation whose segments can be named); a live MPD's \
        available segments are computed at this machine's clock. \
        Ad metadata JSON: exits 0 when it decodes (its problems listed with their JSON paths), 1 when it does not; \
        with --strict, 1 when it has any problem. VAST: its wrappers are followed (five levels); exits 0 when it \
        parses, 1 when it does not (what it cannot read of a document that parses, such as a time out of its form or \
        range, is listed with its line); with --strict, 1 when the resolution reports any error or a document any \
        problem.
        """

    func run() async throws {
        common.bootstrapLogging()
        let bytes: [UInt8]
        let baseURL: URL
        do {
            (bytes, baseURL) = try await load(location)
        } catch {
            throw PlainFailure(location, error: error)
        }
        if VASTAssetListReader.isXML(bytes) {
            if MPDDetection.isMPD(bytes) {
                try await inspectMPD(Data(bytes), url: baseURL)
                return
            }
            try await inspectVAST(Data(bytes), base: baseURL)
            return
        }
        if JSONDocument.looksLikeJSON(bytes) {
            try inspectJSON(bytes)
            return
        }
        let outcome: PlaylistParser.Outcome
        do {
            // Read to the end whatever is wrong: every problem is listed, the first that leaves nothing playable too.
            outcome = try PlaylistParser(options: .init(queryParameters: Self.query(baseURL), diagnoses: true))
                .parseWithWarnings(bytes: bytes)
        } catch {
            throw PlainFailure(location, error: error)
        }
        var report = InspectionReport(outcome, source: location, size: bytes.count, includesSegments: json)
        if let unusable = outcome.unusable { report.unusable = unusable.description }
        try printReport(json: report, lines: report.lines)
        // The playlist and its report are left to the process's exit rather than freed one object at a time:
        // for 100,000 segments, freeing them costs about as much as printing them.
        ProcessExit.keep((bytes, outcome, report))
        if let reason = report.unusable {
            StandardStreams.writeError(PlainText.safe("playtrace inspect: \(location): \(reason)") + "\n")
            throw ExitCode.failure
        }
        if strict, !report.problems.isEmpty { throw ExitCode.failure }
    }

    /// An MPEG-DASH MPD: its periods, representations, segments and events, resolved against its URL. A live MPD's
    /// availability is computed at the server's clock, read through its `UTCTiming` (unless `--offline`), else at
    /// this machine's.
    private func inspectMPD(_ bytes: Data, url: URL) async throws {
        let presentation: MediaPresentation
        do {
            presentation = try MPDParser().parse(bytes)
        } catch {
            throw PlainFailure(location, error.description)
        }
        var clock = MPDReport.ClockEntry(source: "this machine's clock", offsetSeconds: 0)
        if presentation.type == .dynamic, !presentation.utcTimings.isEmpty {
            clock = offline ? MPDReport.ClockEntry(source: "this machine's clock (--offline: UTCTiming not read)", offsetSeconds: 0)
                : await Self.serverClock(presentation.utcTimings)
        }
        let now = StreamDate(secondsSince1970: Date().timeIntervalSince1970 + clock.offsetSeconds)
        var report = MPDReport(ResolvedPresentation(presentation, url: url), source: location, size: bytes.count, now: now)
        if report.inspectedAt != nil { report.clock = clock }
        try printReport(json: report, lines: report.lines)
        if let reason = report.unusable {
            StandardStreams.writeError(PlainText.safe("playtrace inspect: \(location): \(reason)") + "\n")
            throw ExitCode.failure
        }
        if strict, !report.problems.isEmpty { throw ExitCode.failure }
    }

    /// The first `UTCTiming` that gives a time, in the MPD's order: its offset from this machine's clock. One
    /// client for every request.
    private static func serverClock(_ timings: [UTCTiming]) async -> MPDReport.ClockEntry {
        var failures: [String] = []
        let found: MPDReport.ClockEntry? = try? await AsyncHTTPClientTransport.scoped { transport in
            for timing in timings {
                if let time = timing.directTime {
                    return MPDReport.ClockEntry(source: "UTCTiming direct",
                                                offsetSeconds: time.secondsSince1970 - Date().timeIntervalSince1970)
                }
                for request in timing.requests {
                    let response: HTTPResponse
                    do {
                        response = try await transport.send(HTTPRequest(method: request.method, url: request.url,
                                                                        timeout: .seconds(5)))
                    } catch {
                        failures.append("\(request.url.absoluteString): \(error)")
                        continue
                    }
                    guard response.isSuccess else {
                        failures.append("\(request.url.absoluteString): HTTP \(response.status)")
                        continue
                    }
                    let sent = StreamDate(secondsSince1970: Date().timeIntervalSince1970 - MPDReport.seconds(response.timing.duration))
                    guard let server = timing.serverTime(body: response.body, dateHeader: response.header("date")) else {
                        failures.append("\(request.url.absoluteString) gave no time")
                        continue
                    }
                    let offset = ServerClock.offset(server: server, sent: sent, received: StreamDate(Date()))
                    return MPDReport.ClockEntry(source: "UTCTiming \(request.method) \(request.url.absoluteString)",
                                                offsetSeconds: MPDReport.seconds(offset))
                }
            }
            return nil
        }
        return found ?? MPDReport.ClockEntry(
            source: "this machine's clock (UTCTiming failed: \(failures.joined(separator: "; ")))", offsetSeconds: 0)
    }

    /// A VAST response: its chain, ads, media files, tracking and errors.
    private func inspectVAST(_ bytes: Data, base: URL) async throws {
        let document: VASTDocument
        do {
            document = try VASTParser().parse(bytes)
        } catch {
            throw PlainFailure(location, error.description)
        }
        let resolution: VASTResolution
        if offline {
            resolution = await VASTResolver(transport: OfflineTransport()).resolve(document, base: base)
        } else {
            resolution = try await AsyncHTTPClientTransport.scoped { transport in
                await VASTResolver(transport: transport).resolve(document, base: base)
            }
        }
        let report = VASTReport(document, resolution: resolution, source: location, size: bytes.count)
        try printReport(json: report, lines: report.lines)
        if strict, !report.errors.isEmpty || !report.problems.isEmpty { throw ExitCode.failure }
    }

    /// A JSON document, recognised by its content: Harmonic ad metadata, MediaTailor tracking, or an HLS asset list;
    /// anything else is named for what it is (not JSON at all, or JSON of none of these kinds).
    private func inspectJSON(_ bytes: [UInt8]) throws {
        let adMetadata: (format: AdMetadataFormat, metadata: AdMetadata)?
        do {
            adMetadata = try AdMetadataFormat.detectAndDecode(bytes)
        } catch {
            throw PlainFailure(location, error: error)
        }
        if let adMetadata {
            try inspectAdMetadata(adMetadata.metadata, format: adMetadata.format, size: bytes.count)
            return
        }
        switch JSONDocument.classify(Data(bytes)) {
        case .assetList(let list):
            let report = AssetListReport(list, source: location, size: bytes.count)
            try printReport(json: report, lines: report.lines)
            if strict, !report.problems.isEmpty { throw ExitCode.failure }
        case .invalid(let reason):
            throw PlainFailure(location, "not valid JSON: \(reason)")
        case .unknown(let keys):
            throw PlainFailure(location, "JSON, but neither Harmonic ad metadata (adBreaks, dataRange), MediaTailor "
                + "tracking (avails) nor an HLS asset list (ASSETS): "
                + (keys.isEmpty ? "an empty object" : "its keys are " + keys.prefix(8).joined(separator: ", ")))
        }
    }

    /// Harmonic ad metadata or MediaTailor tracking JSON: its breaks, ads, events and problems.
    private func inspectAdMetadata(_ metadata: AdMetadata, format: AdMetadataFormat, size: Int) throws {
        let report = AdMetadataReport(metadata, format: format, source: location, size: size)
        try printReport(json: report, lines: report.lines)
        if strict, !report.problems.isEmpty { throw ExitCode.failure }
    }

    /// Prints a report: as JSON with `--json`, else its lines (made safe for a terminal).
    private func printReport(json report: some Encodable, lines: @autoclosure () -> [String]) throws {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            // One print of the whole text (a playlist of thousands of date ranges has thousands of lines).
            print(lines().map(PlainText.safe).joined(separator: "\n"))
        }
    }

    private func load(_ location: String) async throws -> ([UInt8], URL) {
        if let url = URL(string: location), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            return try await AsyncHTTPClientTransport.scoped { transport in
                // A slow server is named while it is waited for (on standard error), and given up after 20 s.
                let notice = Task {
                    try await Task.sleep(for: .seconds(2))
                    StandardStreams.writeError(PlainText.safe("waiting for \(url.absoluteString) (at most 20 s)…") + "\n")
                }
                defer { notice.cancel() }
                let response = try await transport.send(HTTPRequest(url: url, timeout: .seconds(20)))
                guard response.isSuccess else { throw InspectError.httpStatus(response.status, url.absoluteString) }
                return (response.body, response.url)
            }
        }
        if location == "-" {
            let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            return (try LocalFile.readStandardInput(limit: PlaylistLimits().maximumBytes), directory.appending(path: "stdin"))
        }
        let url = URL(fileURLWithPath: location)
        return (try LocalFile.read(location, limit: PlaylistLimits().maximumBytes), url)
    }

    static func query(_ url: URL) -> [String: String]? {
        guard !url.isFileURL, let items = URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems else { return nil }
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }
}

enum InspectError: Error, CustomStringConvertible {
    case httpStatus(Int, String)
    var description: String {
        switch self {
        case .httpStatus(let status, let url): return "HTTP \(status) for \(url)"
        }
    }
}
