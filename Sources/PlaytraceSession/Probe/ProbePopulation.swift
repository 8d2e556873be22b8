public import PlaytraceCore

/// The simulated viewers of a probe: one deterministic population, the same on every machine for the same seed and
/// size, of which a shard (`--shard I/N`) takes viewers I, I+N, I+2N… — so that N processes are one probe.
///
/// Each viewer has its place in the population, an identity (its telemetry `sessionId`), when it starts within
/// the ramp, and how far its scripted actions are shifted. All follow from the seed and the viewer's place alone:
/// a viewer is the same whichever shard runs it.
public struct ProbePopulation: Sendable {
    /// One simulated viewer.
    public struct Viewer: Sendable, Hashable {
        /// Its place in the whole population, from 0.
        public var index: Int
        /// Its identity: its telemetry `sessionId`, and its name in the report.
        public var id: String
        /// When it starts, from the start of the ramp.
        public var startOffset: Duration
        /// How much later than written its scripted actions come (from 0 up to the spread).
        public var scriptShift: MediaTime
    }

    /// Which part of the population a process runs: `index` of `count` (`--shard I/N`, I from 0).
    public struct Shard: Sendable, Hashable, CustomStringConvertible {
        public var index: Int
        public var count: Int

        /// The whole population.
        public static let whole = Shard(index: 0, count: 1)

        public init(index: Int, count: Int) {
            self.index = index
            self.count = count
        }

        /// Reads `I/N`, with I from 0 to N−1; nil otherwise.
        public init?(parsing text: String) {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
                  (0..<count).contains(index) else { return nil }
            self.init(index: index, count: count)
        }

        public var description: String { "\(index)/\(count)" }
    }

    /// The size of the whole population (every shard's viewers together).
    public var size: Int
    public var seed: UInt64
    /// Over how long the viewers start, evenly spaced in the order of their places.
    public var ramp: Duration
    /// The largest shift of a viewer's scripted actions (`--spread`).
    public var spread: MediaTime
    public var shard: Shard

    public init(size: Int, seed: UInt64, ramp: Duration = .zero, spread: MediaTime = .zero, shard: Shard = .whole) {
        self.size = size
        self.seed = seed
        self.ramp = ramp
        self.spread = spread
        self.shard = shard
    }

    /// The places this shard runs, in the order they start.
    public var places: StrideTo<Int> { stride(from: shard.index, to: size, by: shard.count) }

    /// How many viewers this shard runs.
    public var shardSize: Int { size > shard.index ? (size - shard.index - 1) / shard.count + 1 : 0 }

    /// The viewer at `index` in the whole population.
    public func viewer(at index: Int) -> Viewer {
        // One generator per viewer, seeded from the population's seed and the viewer's place only.
        var random = FastRandom(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15))
        let id = CompactUUID.random(using: &random).description
        let start = size > 1 ? ramp * (Double(index) / Double(size)) : .zero
        let shift = spread > .zero ? MediaTime(seconds: Double.random(in: 0..<spread.seconds, using: &random)) : .zero
        return Viewer(index: index, id: id, startOffset: start, scriptShift: shift)
    }

    /// This shard's viewers, in the order they start.
    public var viewers: [Viewer] { places.map(viewer(at:)) }
}
