/// How many times longer parsing a large input takes than a small one: the best of three runs of each,
/// interleaved, so that a scaling test measures the shape of the cost, not this machine's speed.
public enum ScalingMeasure {
    /// The ratio of the best times (`parse` returns a count of what it read, so that its work is used).
    public static func ratio(small: [UInt8], large: [UInt8], _ parse: ([UInt8]) throws -> Int) throws -> Double {
        let clock = ContinuousClock()
        var best = (small: Duration.seconds(1_000), large: Duration.seconds(1_000))
        var total = 0
        for _ in 0..<3 {
            best.small = min(best.small, try clock.measure { total &+= try parse(small) })
            best.large = min(best.large, try clock.measure { total &+= try parse(large) })
        }
        return withExtendedLifetime(total) { best.large / max(best.small, .microseconds(50)) }
    }
}
