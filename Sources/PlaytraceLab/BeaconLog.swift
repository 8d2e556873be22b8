/// One hit on the lab's beacon sink (`GET /beacons/...`): what ad trackers request when an event fires. In JSON
/// (`GET /lab/beacons`) its arrival is `receivedAtSeconds`.
public struct BeaconHit: Sendable, Hashable, Codable {
    /// The path requested (`/beacons/pod-1/ad-1/firstQuartile`).
    public var path: String
    /// The query string, macros filled (`cb=12345678&t=…`).
    public var query: String?
    /// When it arrived, in lab time since the lab started.
    public var receivedAt: Duration
    /// The status the sink answered with (a fault can make it fail; 0 for a dropped connection).
    public var status: Int

    public init(path: String, query: String?, receivedAt: Duration, status: Int) {
        self.path = path
        self.query = query
        self.receivedAt = receivedAt
        self.status = status
    }

    private enum CodingKeys: String, CodingKey {
        case path, query, receivedAtSeconds, status
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decode(String.self, forKey: .path)
        query = try container.decodeIfPresent(String.self, forKey: .query)
        receivedAt = .seconds(try container.decode(Double.self, forKey: .receivedAtSeconds))
        status = try container.decode(Int.self, forKey: .status)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encodeIfPresent(query, forKey: .query)
        try container.encode(receivedAt.seconds, forKey: .receivedAtSeconds)
        try container.encode(status, forKey: .status)
    }
}

/// The beacon sink's hits, oldest first (the last 100,000).
public typealias BeaconLog = BoundedLog<BeaconHit>

public extension BoundedLog where Entry == BeaconHit {
    convenience init() { self.init(limit: 100_000) }

    /// The hits the sink answered with success, under a path prefix.
    func accepted(under prefix: String = "/beacons/") -> [BeaconHit] {
        all.filter { $0.path.hasPrefix(prefix) && (200..<300).contains($0.status) }
    }
}
