import PlaytraceCore
import PlaytracePlayer

/// The adaptive bit rate rule: throughput with a safety factor, and hysteresis on the way up.
///
/// - Down at once: when the current variant no longer fits within `safetyFactor` of the throughput estimate, the
///   highest variant that does is chosen for the next segment (quick to protect the buffer, as every player is).
/// - Up only with sustained headroom: a higher variant is chosen only after `switchUpSamples` segment downloads in a
///   row measured enough throughput for it within the stricter `switchUpSafetyFactor`, and while at least
///   `minimumBufferForSwitchUp` is buffered. One fast download after startup does not jump from the lowest
///   to the highest variant, and a throughput that comes and goes does not make the engine oscillate (the streak
///   starts again after every switch down).
///
/// These are the throughput rule of dash.js and hls.js's bandwidth estimator with the hysteresis that both apply
/// on the way up, not BOLA's buffer rule: the headless engine's buffer is real, but its segments have no decode
/// cost, so throughput is what limits it.
struct VariantSelector: Sendable {
    /// The share of the estimate a variant may use to be kept (or chosen on the way down).
    var safetyFactor: Double
    /// The share of the estimate a higher variant may use to be switched up to.
    var switchUpSafetyFactor: Double
    /// How much media must be buffered ahead before switching up.
    var minimumBufferForSwitchUp: MediaTime
    /// Segment downloads in a row with headroom for a higher variant before switching up.
    var switchUpSamples: Int
    /// Segment downloads in a row that measured headroom for a variant above the current one.
    private(set) var headroomStreak = 0

    init(safetyFactor: Double, switchUpSafetyFactor: Double, minimumBufferForSwitchUp: MediaTime, switchUpSamples: Int) {
        self.safetyFactor = safetyFactor
        self.switchUpSafetyFactor = min(switchUpSafetyFactor, safetyFactor)
        self.minimumBufferForSwitchUp = minimumBufferForSwitchUp
        self.switchUpSamples = max(1, switchUpSamples)
    }

    /// Notes a segment download's effect on the estimate: whether a variant above `current` fits it now.
    mutating func observe(estimate: Double?, current: Int?, variants: [VariantInfo]) {
        guard let estimate, let current, let currentVariant = variants.first(where: { $0.index == current }) else {
            headroomStreak = 0
            return
        }
        let budget = estimate * switchUpSafetyFactor
        let fitsHigher = variants.contains { $0.bandwidth > currentVariant.bandwidth && Double($0.bandwidth) <= budget }
        headroomStreak = fitsHigher ? headroomStreak + 1 : 0
    }

    /// Forgets the streak (after a switch down, a failover or a seek).
    mutating func resetHeadroom() { headroomStreak = 0 }

    /// The variant for the next segment among `variants`: the candidates, already allowed by the limits and
    /// without those that failed (``HeadlessEngine/candidateVariants(excluding:)``).
    func choose(current: Int?, variants: [VariantInfo], estimate: Double?, bufferedAhead: MediaTime) -> Int? {
        guard !variants.isEmpty else { return nil }
        let allowed = variants.sorted { $0.bandwidth < $1.bandwidth }
        let currentVariant = current.flatMap { index in allowed.first { $0.index == index } }
        guard let estimate else { return currentVariant?.index ?? allowed.first?.index }
        let keepBudget = estimate * safetyFactor
        guard let currentVariant else {
            // No current variant among the candidates (the start, a failover, new limits): the best that fits.
            return (allowed.last { Double($0.bandwidth) <= keepBudget } ?? allowed[0]).index
        }
        if Double(currentVariant.bandwidth) > keepBudget {
            return (allowed.last { Double($0.bandwidth) <= keepBudget } ?? allowed[0]).index
        }
        guard headroomStreak >= switchUpSamples, bufferedAhead >= minimumBufferForSwitchUp else {
            return currentVariant.index
        }
        let upBudget = estimate * switchUpSafetyFactor
        let higher = allowed.last { $0.bandwidth > currentVariant.bandwidth && Double($0.bandwidth) <= upBudget }
        return (higher ?? currentVariant).index
    }
}
