/// One request body the lab's sink received (`POST /sink/...`): what telemetry backends and beacons send.
public struct SinkDelivery: Sendable, Hashable {
    /// The path posted to (`/sink/newrelic/events`).
    public var path: String
    public var query: String?
    /// Request headers, by lower-cased name (the last value when one repeats).
    public var headers: [String: String]
    /// The body as received (still compressed when `content-encoding` says so).
    public var body: [UInt8]
    /// The status the sink answered with (a fault can make it fail).
    public var status: Int
}

/// What the sink received.
public typealias SinkLog = BoundedLog<SinkDelivery>

public extension BoundedLog where Entry == SinkDelivery {
    /// A log that keeps the last 10,000 deliveries.
    convenience init() { self.init(limit: 10_000) }

    /// The deliveries the sink accepted (2xx) under a path prefix.
    func accepted(under prefix: String) -> [SinkDelivery] {
        all.filter { $0.path.hasPrefix(prefix) && (200..<300).contains($0.status) }
    }
}
