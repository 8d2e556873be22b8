public import Foundation
import PlaytraceNetwork

/// The Prometheus that `scripts/test` started on loopback (`PLAYTRACE_PROMETHEUS_URL`), scraping every second the
/// targets listed in the files of `PLAYTRACE_PROMETHEUS_TARGETS` (file discovery): a test lists its own there, with a
/// label of its own (`run`) that its queries select.
public struct PrometheusServer: Sendable {
    public struct QueryError: Error, CustomStringConvertible {
        public let description: String
    }

    public static var url: URL? { ProcessInfo.processInfo.environment["PLAYTRACE_PROMETHEUS_URL"].flatMap(URL.init(string:)) }
    public static var targetsDirectory: String? { ProcessInfo.processInfo.environment["PLAYTRACE_PROMETHEUS_TARGETS"] }
    public static var isAvailable: Bool { url != nil && targetsDirectory != nil }

    public let url: URL
    public let targetsDirectory: String
    /// This test's label value: every target it lists carries `run="<this>"`.
    public let run = "run_\(UUID().uuidString.prefix(8).lowercased())"
    private let transport = AsyncHTTPClientTransport(clock: ContinuousClock())

    public init?() {
        guard let url = Self.url, let targetsDirectory = Self.targetsDirectory else { return nil }
        self.url = url
        self.targetsDirectory = targetsDirectory
    }

    private var targetsFile: String { targetsDirectory + "/" + run + ".json" }

    /// Lists `targets` (host:port) for scraping, labelled with ``run`` and each with its `labels`.
    public func scrape(_ targets: [(address: String, labels: [String: String])]) throws {
        let groups: [[String: Any]] = targets.map { target in
            ["targets": [target.address], "labels": target.labels.merging(["run": run]) { $1 }]
        }
        let data = try JSONSerialization.data(withJSONObject: groups)
        // Whole or not at all: Prometheus reads the file as it changes.
        let temporary = targetsFile + ".tmp"
        try data.write(to: URL(fileURLWithPath: temporary))
        _ = rename(temporary, targetsFile)
    }

    /// Stops listing this test's targets.
    public func forget() {
        try? FileManager.default.removeItem(atPath: targetsFile)
    }

    /// An instant PromQL query; its vector as (labels, value) pairs.
    public func query(_ expression: String) async throws -> [(labels: [String: String], value: Double)] {
        var components = URLComponents(url: url.appendingPathComponent("api/v1/query"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "query", value: expression)]
        guard let queryURL = components?.url else { throw QueryError(description: "no query URL for \(url)") }
        let response = try await transport.send(HTTPRequest(url: queryURL))
        guard response.isSuccess,
              let document = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
              let data = document["data"] as? [String: Any], let result = data["result"] as? [[String: Any]]
        else {
            throw QueryError(description: "\(expression): HTTP \(response.status): " + String(decoding: response.body, as: UTF8.self))
        }
        return result.compactMap { sample in
            guard let value = sample["value"] as? [Any], value.count == 2, let text = value[1] as? String,
                  let number = Double(text) else { return nil }
            return (sample["metric"] as? [String: String] ?? [:], number)
        }
    }

    /// The one value of `expression` (a `sum(…)`), nil when the vector is empty.
    public func value(_ expression: String) async throws -> Double? {
        try await query(expression).first?.value
    }
}
