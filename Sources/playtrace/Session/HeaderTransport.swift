import PlaytraceNetwork

/// Adds headers to each request that does not carry one of their names already: `--header`, `--ads-header`,
/// `--beacon-header` and `--user-agent`, each on the transport of its kind of request (media, ad decisions and
/// metadata, beacons). Their values may be secrets: they are sent, never recorded or printed.
struct HeaderTransport: HTTPTransport {
    private let inner: any HTTPTransport
    private let headers: [(name: String, value: String)]

    /// `inner` itself when there is nothing to add.
    static func adding(_ headers: [(name: String, value: String)], to inner: any HTTPTransport) -> any HTTPTransport {
        headers.isEmpty ? inner : HeaderTransport(inner: inner, headers: headers)
    }

    private init(inner: any HTTPTransport, headers: [(name: String, value: String)]) {
        self.inner = inner
        self.headers = headers
    }

    func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        var request = request
        let present = Set(request.headers.map { $0.name.lowercased() })
        request.headers += headers.filter { !present.contains($0.name.lowercased()) }
        return try await inner.send(request)
    }
}
