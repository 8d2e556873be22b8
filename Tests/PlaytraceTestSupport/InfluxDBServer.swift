public import Foundation
public import PlaytraceNetwork

/// The InfluxDB that `scripts/test` started on loopback (`PLAYTRACE_INFLUXDB_URL`), and a database of the test's
/// own.
public struct InfluxDBServer: Sendable {
    public struct QueryError: Error, CustomStringConvertible {
        public let description: String
    }

    public static var url: URL? { ProcessInfo.processInfo.environment["PLAYTRACE_INFLUXDB_URL"].flatMap(URL.init(string:)) }

    public let url: URL
    public let database = "playtrace_\(UUID().uuidString.prefix(8).lowercased())"
    public let transport = AsyncHTTPClientTransport(clock: ContinuousClock())

    public init(url: URL) {
        self.url = url
    }

    /// Runs an InfluxQL query in the test's database; the decoded JSON answer.
    public func query(_ text: String) async throws -> [String: Any] {
        var components = URLComponents(url: url.appendingPathComponent("query"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "db", value: database), URLQueryItem(name: "q", value: text)]
        guard let queryURL = components?.url else { throw QueryError(description: "no query URL for \(url)") }
        let response = try await transport.send(HTTPRequest(method: "POST", url: queryURL))
        guard response.isSuccess else {
            throw QueryError(description: "HTTP \(response.status): " + String(decoding: response.body, as: UTF8.self))
        }
        return try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] ?? [:]
    }

    /// The rows of a query's first series, as column → value dictionaries.
    public func rows(_ text: String) async throws -> [[String: Any]] {
        let result = try await query(text)
        guard let results = result["results"] as? [[String: Any]], let series = results.first?["series"] as? [[String: Any]],
              let first = series.first, let columns = first["columns"] as? [String],
              let values = first["values"] as? [[Any]]
        else { return [] }
        return values.map { Dictionary(uniqueKeysWithValues: zip(columns, $0)) }
    }

    /// The types of a measurement's fields (`integer`, `float`, `boolean`, `string`), by field.
    public func fieldTypes(of measurement: String) async throws -> [String: String] {
        Dictionary(try await rows("SHOW FIELD KEYS FROM \(measurement)").compactMap { row -> (String, String)? in
            guard let key = row["fieldKey"] as? String, let type = row["fieldType"] as? String else { return nil }
            return (key, type)
        }, uniquingKeysWith: { first, _ in first })
    }
}
