public import PlaytraceCore

/// A measurement derived from events by a metricalc, with the dimensions a time-series database groups it by.
///
/// ```swift
/// Metric(name: "StartTime", kind: .gauge, value: 840, date: event.date, dimensions: dimensions)
/// ```
public struct Metric: Sendable, Hashable {
    /// How a backend aggregates the metric.
    public enum Kind: String, Sendable, Hashable {
        /// An amount to add up (a count of plays, of stalls).
        case counter
        /// A value at an instant (a startup time, a ratio).
        case gauge
        /// One sample of a distribution (summarised into count, sum, min and max by backends that can).
        case histogram
    }

    /// The name, upper camel case by convention (`StartTime`, `RebufferTime`).
    public let name: String
    public let kind: Kind
    public var value: Double
    public var date: StreamDate
    /// The dimensions, by attribute (session, playback, stream, content, variant, engine, platform).
    public var dimensions: AttributeList

    public init(name: String, kind: Kind, value: Double, date: StreamDate, dimensions: AttributeList = AttributeList()) {
        self.name = name
        self.kind = kind
        self.value = value
        self.date = date
        self.dimensions = dimensions
    }
}
