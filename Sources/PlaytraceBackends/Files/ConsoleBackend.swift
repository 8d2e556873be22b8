public import PlaytraceTelemetry

/// Writes a readable line per event and metric, to standard output by default: what an engineer watches while a
/// session plays (`playtrace play --console`).
///
/// ```
/// event  Start      position=0 bitrate=1500000 contentId=urn:1 …
/// metric StartTime  640 (gauge) contentId=urn:1 …
/// ```
public final class ConsoleBackend: Backend, Sendable {
    private let write: @Sendable (String) -> Void
    private let includesEvents: Bool

    /// - Parameters:
    ///   - includesEvents: whether events are written (metrics always are).
    ///   - write: where lines go.
    public init(includesEvents: Bool = true, write: @escaping @Sendable (String) -> Void = { print($0) }) {
        self.includesEvents = includesEvents
        self.write = write
    }

    public func sendEvent(_ event: Event) {
        guard includesEvents else { return }
        write("event  " + Self.column(event.action.name) + Self.describe(event.allAttributes))
    }

    public func sendMetric(_ metric: Metric) {
        let value = metric.value.rounded() == metric.value && abs(metric.value) < 1e15
            ? String(Int64(metric.value)) : String(metric.value)
        write("metric " + Self.column(metric.name) + "\(value) (\(metric.kind.rawValue)) "
            + Self.describe(metric.dimensions))
    }

    /// A name padded to the width of the longest standard one, always followed by a space.
    private static func column(_ name: String) -> String {
        name.count >= 22 ? name + " " : name.padding(toLength: 22, withPad: " ", startingAt: 0)
    }

    private static func describe(_ attributes: AttributeList) -> String {
        attributes.map { "\($0.attribute.name)=\($0.value)" }.joined(separator: " ")
    }
}
