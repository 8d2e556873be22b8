/// The beacons of every viewer, as each one's verdict counts them.
public struct ProbeBeaconTotals: Sendable, Codable, Equatable {
    public var expected = 0
    public var fired = 0
    public var delivered = 0
    public var failed = 0
    public var waiting = 0
    public var late = 0
    public var missed = 0
    public var duplicated = 0
    public var unexpected = 0
}
