#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Estimates network throughput from segment downloads, as two exponentially weighted moving averages (a fast
/// and a slow one, weighted by download time) of which the lower is used: quick to react to a drop, slower to
/// trust a rise.
struct ThroughputEstimator: Sendable {
    private var fast = DecayingAverage(halfLife: 2)
    private var slow = DecayingAverage(halfLife: 6)
    private(set) var sampleCount = 0

    /// Adds a download of `bytes` that took `seconds` (on the engine's clock).
    mutating func add(bytes: Int, seconds: Double) {
        guard bytes > 0 else { return }
        let duration = max(seconds, 0.001)
        let bitsPerSecond = Double(bytes) * 8 / duration
        fast.add(bitsPerSecond, weight: duration)
        slow.add(bitsPerSecond, weight: duration)
        sampleCount += 1
    }

    /// The estimate in bits per second, once there is a sample.
    var estimate: Double? {
        guard sampleCount > 0 else { return nil }
        return min(fast.value, slow.value)
    }
}

/// An exponentially weighted moving average whose weights decay with time, corrected for its zero start.
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
