#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Estimates network throughput from segment downloads, as two exponentially weighted moving averages (a fast
/// and a slow one, weighted by download time in seconds, with half-lives of 2 and 6 seconds of downloading) of which
/// the lower is used: quick to react to a drop, slower to trust a rise.
struct ThroughputEstimator: Sendable {
    private var fast = DecayingAverage(halfLife: 2)
    private var slow = DecayingAverage(halfLife: 6)
    private(set) var sampleCount = 0

    /// Adds a download of `bytes` that took `duration` (on the engine's clock; a millisecond at least).
    mutating func add(bytes: Int, duration: Duration) {
        guard bytes > 0 else { return }
        let seconds = max(duration.seconds, 0.001)
        let bitsPerSecond = Double(bytes) * 8 / seconds
        fast.add(bitsPerSecond, weight: seconds)
        slow.add(bitsPerSecond, weight: seconds)
        sampleCount += 1
    }

    /// The estimate in bits per second, once there is a sample.
    var estimate: Double? {
        guard sampleCount > 0 else { return nil }
        return min(fast.value, slow.value)
    }
}

/// An exponentially weighted moving average whose weights decay with time, corrected for its zero start. Weights and
/// the half-life are in one unit of the caller's (seconds of download for ``ThroughputEstimator``).
struct DecayingAverage: Sendable {
    let halfLife: Double
    private var raw = 0.0
    private var totalWeight = 0.0

    init(halfLife: Double) { self.halfLife = halfLife }

    mutating func add(_ sample: Double, weight: Double) {
        let keep = exp2(-weight / halfLife)
        raw = sample * (1 - keep) + keep * raw
        totalWeight += weight
    }

    var value: Double {
        let correction = 1 - exp2(-totalWeight / halfLife)
        return correction > 0 ? raw / correction : 0
    }
}
