#if MPV
/// Lets at most a number of messages through in each second of a clock, and counts those it holds back so that the
/// next one let through can say how many there were: a corrupt stream can make libmpv's decoder complain at every
/// frame.
struct MessageRateLimit: Sendable {
    /// The most messages let through in a second.
    let perSecond: Int
    private var second = Duration.zero
    private var passedThisSecond = 0
    private var heldBack = 0

    init(perSecond: Int) { self.perSecond = perSecond }

    /// Whether a message at `time` (on the clock) goes through; when it does, how many were held back since the last
    /// one that did (then counted again from zero); `nil` when it is held back.
    mutating func admit(at time: Duration) -> Int? {
        let second = Duration.seconds((time / .seconds(1)).rounded(.down))
        if second != self.second {
            self.second = second
            passedThisSecond = 0
        }
        guard passedThisSecond < perSecond else {
            heldBack += 1
            return nil
        }
        passedThisSecond += 1
        defer { heldBack = 0 }
        return heldBack
    }
}
#endif
