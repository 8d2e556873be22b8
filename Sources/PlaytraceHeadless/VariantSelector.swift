import PlaytracePlayer

/// The adaptive bit rate rule: the highest allowed variant whose declared bandwidth fits within a safety share of
/// the throughput estimate. Switching up also waits until enough is buffered, so that a short burst of
/// throughput does not trade a safe buffer for quality.
struct VariantSelector: Sendable {
    /// The share of the estimate a variant may use.
    var safetyFactor: Double
    /// Seconds that must be buffered ahead before switching up.
    var minimumBufferForSwitchUp: Double

    func choose(current: Int?, variants: [VariantInfo], limits: VariantLimits, estimate: Double?,
                bufferedAhead: Double) -> Int? {
        guard !variants.isEmpty else { return nil }
        var allowed = variants.filter { limits.allows($0) }
        if allowed.isEmpty { allowed = [variants.min { $0.bandwidth < $1.bandwidth }!] }
        allowed.sort { $0.bandwidth < $1.bandwidth }
        guard let estimate else {
            if let current, allowed.contains(where: { $0.index == current }) { return current }
            return allowed.first?.index
        }
        let budget = estimate * safetyFactor
        let target = allowed.last { Double($0.bandwidth) <= budget } ?? allowed[0]
        guard let current, let currentVariant = variants.first(where: { $0.index == current }),
              allowed.contains(currentVariant)
        else { return target.index }
        if target.bandwidth > currentVariant.bandwidth && bufferedAhead < minimumBufferForSwitchUp {
            return current
        }
        return target.index
    }
}
