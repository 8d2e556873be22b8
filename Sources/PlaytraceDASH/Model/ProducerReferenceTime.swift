public import PlaytraceCore

/// A `ProducerReferenceTime` element (ISO/IEC 23009-1 5.12), on an adaptation set or a representation: the wall-clock
/// time at which the producer made one presentation time, from which a client measures its latency to the producer
/// and places the producer's clock on the MPD's timeline. With `@inband`, the segments carry the same as `prft`
/// boxes (``ProducerReferenceTimeBox``).
public struct ProducerReferenceTime: Sendable, Hashable {
    /// `@type`: which instant of the production the wall clock stands for.
    public enum Kind: String, Sendable, Hashable {
        /// When the encoder produced the sample (the default).
        case encoder
        /// When the sample was captured.
        case captured
        /// An instant an application defines (`@applicationScheme` names it).
        case application
    }

    /// `@id`, which `prft` boxes and `Latency@referenceId` name.
    public var id: Int64
    /// `@inband`: the segments carry `prft` boxes for this reference.
    public var inband = false
    public var kind = Kind.encoder
    public var applicationScheme: String?
    /// `@wallClockTime` as written: its format is that of the element's ``utcTiming``, else of the MPD's.
    public var wallClockTime: String
    /// ``wallClockTime`` read as a date; `nil` when its format is not a date's (an NTP time).
    public var wallClock: StreamDate?
    /// `@presentationTime`, in the timescale of the segments it stands beside.
    public var presentationTime: Int64
    /// The `UTCTiming` child: the clock ``wallClockTime`` is read on.
    public var utcTiming: UTCTiming?
    public var line = 0

    public init(id: Int64, wallClockTime: String, presentationTime: Int64) {
        self.id = id
        self.wallClockTime = wallClockTime
        self.presentationTime = presentationTime
    }
}
