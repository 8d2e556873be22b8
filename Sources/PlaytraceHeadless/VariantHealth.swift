/// Which variants failed recently, and until when the engine leaves them alone.
///
/// A variant whose segment or playlist could not be loaded is penalized for a while, as the best players do
/// (ExoPlayer excludes a failed track for 60 s; hls.js drops a level that keeps failing): adaptation picks among
/// the others, and the variant becomes a candidate again once its penalty is over (a CDN that recovered is used
/// again).
struct VariantHealth: Sendable {
    private var penalizedUntil: [Int: Duration] = [:]

    /// Leaves `variant` alone until `now + duration`.
    mutating func penalize(_ variant: Int, now: Duration, for duration: Duration) {
        penalizedUntil[variant] = max(penalizedUntil[variant] ?? .zero, now + duration)
    }

    func isPenalized(_ variant: Int, now: Duration) -> Bool {
        guard let until = penalizedUntil[variant] else { return false }
        return now < until
    }

    /// The variants not penalized at `now`; all of them when every one is (the least bad choice is still a choice).
    func healthy(_ variants: [VariantInfo], now: Duration) -> [VariantInfo] {
        let healthy = variants.filter { !isPenalized($0.index, now: now) }
        return healthy.isEmpty ? variants : healthy
    }

    mutating func reset() { penalizedUntil = [:] }
}

import PlaytracePlayer
