import ArgumentParser
import Foundation
import PlaytraceCore
import PlaytraceHLS
import PlaytraceNetwork

struct Inspect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Parse a playlist and print what it holds: variants, segments, dates, date ranges, SCTE-35, ad breaks, problems.")

    @OptionGroup var common: CommonOptions

    @Argument(help: "A playlist URL (http or https) or a file path.")
    var location: String

    @Flag(help: "Print the report as JSON.")
    var json = false

    func run() async throws {
        common.bootstrapLogging()
        let bytes: [UInt8]
        let baseURL: URL
        do {
            (bytes, baseURL) = try await load(location)
        } catch {
            FileHandle.standardError.write(Data("playtrace inspect: \(error)\n".utf8))
            throw ExitCode.failure
        }
        let outcome: PlaylistParser.Outcome
        do {
            outcome = try PlaylistParser(options: .init(queryParameters: Self.query(baseURL)))
                .parseWithWarnings(bytes: bytes)
        } catch {
            FileHandle.standardError.write(Data("playtrace inspect: \(location): \(error)\n".utf8))
            throw ExitCode.failure
        }
        let report = InspectionReport(outcome, source: location, size: bytes.count)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            for line in report.lines { print(line) }
        }
    }

    private func load(_ location: String) async throws -> ([UInt8], URL) {
        if let url = URL(string: location), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            let transport = AsyncHTTPClientTransport()
            defer { Task { try? await transport.shutdown() } }
            let response = try await transport.send(HTTPRequest(url: url, timeout: .seconds(20)))
            guard response.isSuccess else { throw InspectError.httpStatus(response.status, url.absoluteString) }
            return (response.body, response.url)
        }
        let url = URL(fileURLWithPath: location)
        return (Array(try Data(contentsOf: url)), url)
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
