import Foundation
public import PlaytraceNetwork

extension InfluxDBBackend {
    /// Why the write destination could not be prepared.
    public struct DatabaseError: Error, Sendable, CustomStringConvertible {
        /// What went wrong, with the server's own message when it gave one.
        public var message: String

        public var description: String { message }
    }

    /// Makes sure the 1.x database exists before batches are written to it (a write to a missing database is
    /// refused with 404): `CREATE DATABASE` is idempotent on InfluxDB 1.x, so it is sent every time. The 2.x and
    /// 3.x APIs write to buckets that their administrator creates: nothing is sent for them.
    ///
    /// ```swift
    /// try await InfluxDBBackend.createDatabase(for: configuration, transport: transport)
    /// ```
    ///
    /// - Throws: ``DatabaseError`` when the server cannot be reached or refuses (for instance without the
    ///   rights to create a database).
    /// - Parameters:
    ///   - configuration: the server and the database (v1) to create.
    ///   - transport: how the request is made.
    ///   - timeout: the longest wait for the server's answer (the session waits for it before it starts).
    public static func createDatabase(for configuration: Configuration, transport: any HTTPTransport,
                                      timeout: Duration = .seconds(5)) async throws(DatabaseError) {
        guard case .v1(let database, _, _) = configuration.api else { return }
        guard var components = URLComponents(url: configuration.url, resolvingAgainstBaseURL: false) else {
            throw DatabaseError(message: "\(configuration.url) is not a URL")
        }
        let basePath = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = basePath + "/query"
        let name = database.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        components.queryItems = [URLQueryItem(name: "q", value: "CREATE DATABASE \"\(name)\"")]
        components.user = nil
        components.password = nil
        guard let url = components.url else { throw DatabaseError(message: "\(configuration.url) is not a URL") }
        let response: HTTPResponse
        do {
            response = try await transport.send(HTTPRequest(method: "POST", url: url, headers: configuration.credentialHeaders,
                                                            timeout: timeout, maximumBodySize: 64 << 10))
        } catch {
            throw DatabaseError(message: "could not create the database \"\(database)\": \(error)")
        }
        guard response.isSuccess else {
            let body = String(decoding: response.body.prefix(300), as: UTF8.self)
            throw DatabaseError(message: "could not create the database \"\(database)\": HTTP \(response.status) \(body)")
        }
        // InfluxDB 1.x answers 200 with the statement's error in the body ({"results":[{"error":…}]}).
        if let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
           let results = object["results"] as? [[String: Any]], let error = results.first?["error"] as? String {
            throw DatabaseError(message: "could not create the database \"\(database)\": \(error)")
        }
    }
}
