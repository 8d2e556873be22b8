import PlaytraceNetwork

extension AsyncHTTPClientTransport {
    /// Runs `body` with a transport of its own that is shut down however `body` ends.
    static func scoped<Result>(
        clock: any Clock<Duration> = ContinuousClock(), connectionsPerHost: Int? = nil, isolation: isolated (any Actor)? = #isolation,
        _ body: (AsyncHTTPClientTransport) async throws -> Result
    ) async throws -> Result {
        let transport = AsyncHTTPClientTransport(clock: clock, connectionsPerHost: connectionsPerHost)
        do {
            let result = try await body(transport)
            try? await transport.shutdown()
            return result
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }
}
