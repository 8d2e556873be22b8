/// What a probe's end says of it in one line: whether its viewers did what they should — played, fired their
/// beacons once and on time, started quickly — and why not. The exit status follows it.
public struct ProbeVerdict: Sendable {
    /// A way a probe falls short: one of a viewer's (``SessionVerdict/Shortfall``, named by how many viewers had
    /// it, under the same name), or a percentile over its bound (``startup``, ``lateness``). Each fails the probe
    /// unless `--accept` names it.
    public struct Shortfall: RawRepresentable, Hashable, Sendable, CaseIterable {
        public let rawValue: String

        /// A name of ``allCases``; nil for any other.
        public init?(rawValue: String) {
            guard Self.allCases.contains(where: { $0.rawValue == rawValue }) else { return nil }
            self.rawValue = rawValue
        }

        private init(name: String) { rawValue = name }

        /// Viewers that fell short so.
        public init(_ viewer: SessionVerdict.Shortfall) { rawValue = viewer.rawValue }

        /// The startup time's 99th percentile over its bound (``Bounds/startupP99``).
        public static let startup = Shortfall(name: "startup")
        /// The beacon delivery lateness' 99th percentile over its bound (``Bounds/latenessP99``).
        public static let lateness = Shortfall(name: "lateness")
        public static let telemetry = Shortfall(.telemetry)
        public static let summaryFile = Shortfall(.summaryFile)
        public static let reportFile = Shortfall(.reportFile)

        public static var allCases: [Shortfall] {
            SessionVerdict.Shortfall.allCases.map(Shortfall.init) + [.startup, .lateness]
        }
    }

    /// The bounds the percentiles are held to.
    public struct Bounds: Sendable, Hashable {
        /// Startup time, 99th percentile: 4 s by default (a viewer waiting longer often leaves).
        public var startupP99: Duration = .seconds(4)
        /// Beacon delivery lateness, 99th percentile: 1 s by default, the bound past which `play` calls a beacon late.
        public var latenessP99: Duration = .seconds(1)

        public init(startupP99: Duration = .seconds(4), latenessP99: Duration = .seconds(1)) {
            self.startupP99 = startupP99
            self.latenessP99 = latenessP99
        }
    }

    /// One shortfall found, in words.
    public struct Finding: Sendable, Hashable {
        public var kind: Shortfall
        public var text: String

        public init(kind: Shortfall, text: String) {
            self.kind = kind
            self.text = text
        }
    }

    public var findings: [Finding] = []
    public var accepted: Set<Shortfall> = []
    /// Whether a signal ended the probe before its duration.
    public var interrupted = false

    public init(accepted: Set<Shortfall> = []) { self.accepted = accepted }

    /// The shortfalls that fail the probe.
    public var failing: [Finding] { findings.filter { !accepted.contains($0.kind) } }

    public var succeeded: Bool { failing.isEmpty }

    /// The shortfalls of `aggregate` against `bounds`: every kind some viewers had, with how many; the percentiles
    /// over their bounds.
    public static func judge(_ aggregate: ProbeAggregate, bounds: Bounds, accepted: Set<Shortfall>) -> ProbeVerdict {
        var verdict = ProbeVerdict(accepted: accepted)
        let ended = max(aggregate.ended, 1)
        for kind in SessionVerdict.Shortfall.allCases {
            guard let viewers = aggregate.shortfalls[kind.rawValue], viewers > 0 else { continue }
            var text = "\(viewers) of \(ended) viewer(s) \(Self.phrase(kind))"
            if kind == .playbackFailed, aggregate.failedToStart > 0 {
                text += " (\(aggregate.failedToStart) before playing: their set-up failed)"
            }
            verdict.findings.append(Finding(kind: Shortfall(kind), text: text))
        }
        if let p99 = aggregate.startup.percentile(99), p99 > bounds.startupP99 {
            verdict.findings.append(Finding(kind: .startup, text: "startup p99 \(Format.milliseconds(p99)) over "
                + "\(Format.milliseconds(bounds.startupP99)) (--startup-p99)"))
        }
        if let p99 = aggregate.lateness.percentile(99), p99 > bounds.latenessP99 {
            verdict.findings.append(Finding(kind: .lateness, text: "beacon delivery lateness p99 \(Format.milliseconds(p99)) "
                + "over \(Format.milliseconds(bounds.latenessP99)) (--lateness-p99)"))
        }
        return verdict
    }

    private static func phrase(_ kind: SessionVerdict.Shortfall) -> String {
        switch kind {
        case .playbackFailed: "failed"
        case .stalled: "stalled"
        case .missed: "missed beacons called for"
        case .earlierRun: "found beacons fired by an earlier run"
        case .adMetadata: "had no ad metadata"
        case .unexpected: "fired beacons nothing played called for"
        case .duplicated: "fired beacons twice"
        case .failed: "had beacons fail for good"
        case .waiting: "left beacons waiting at the end"
        case .late: "delivered beacons more than 1 s after their crossing"
        case .outbox: "lost the outbox file"
        case .vastErrors: "reported VAST errors"
        case .telemetry: "had telemetry refused or lost"
        case .summaryFile, .reportFile: "could not write a file"
        }
    }

    /// The verdict line: `verdict: OK — …` or `verdict: FAILED — …`.
    public func line(_ aggregate: ProbeAggregate) -> String {
        let excused = findings.filter { accepted.contains($0.kind) }.map(\.text)
        var line: String
        if succeeded {
            line = "verdict: OK — \(aggregate.ended) viewer(s) played"
                + (aggregate.beacons.expected > 0 ? ", \(aggregate.beacons.expected) beacon(s) called for fired once each" : "")
        } else {
            line = "verdict: FAILED" + (interrupted ? " (interrupted)" : "") + " — " + failing.map(\.text).joined(separator: "; ")
        }
        if succeeded, interrupted { line += " (interrupted)" }
        if !excused.isEmpty { line += " (accepted: " + excused.joined(separator: ", ") + ")" }
        return line
    }
}
