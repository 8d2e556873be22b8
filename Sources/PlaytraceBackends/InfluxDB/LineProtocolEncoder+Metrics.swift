import PlaytraceCore
public import PlaytraceTelemetry

/// Metric lines: one measurement per metric, tagged with its dimensions and kind, with one field, `value`.
extension LineProtocolEncoder {
    /// Appends a metric's line (with its line feed).
    public func encode(_ metric: Metric, timestamp: Int64, into buffer: inout [UInt8]) {
        var cache = ContextCache()
        encode(metric, timestamp: timestamp, into: &buffer, cache: &cache)
    }

    /// Appends a metric's line (with its line feed) to an array, reusing what `cache` holds of its dimensions.
    public func encode(_ metric: Metric, timestamp: Int64, into buffer: inout [UInt8], cache: inout ContextCache) {
        var lines = LineBuffer()
        encode(metric, timestamp: timestamp, into: &lines, cache: &cache)
        lines.append(to: &buffer)
    }

    /// Appends a metric's line (with its line feed), reusing what `cache` holds of its dimensions (metrics of one
    /// playback share them).
    public func encode(_ metric: Metric, timestamp: Int64, into buffer: inout LineBuffer, cache: inout ContextCache) {
        var line = LineWriter(taking: &buffer)
        writeMetricLine(metric, timestamp: timestamp, cache: &cache, to: &line)
        line.finish(into: &buffer)
    }

    @inline(__always)
    func writeMetricLine(_ metric: borrowing Metric, timestamp: Int64, cache: inout ContextCache,
                                 to line: inout LineWriter) {
        cache.prepareDimensions(metric.dimensions, for: self)
        Self.writeMeasurement(metric.name, to: &line)
        cache.writeDimensionTags(to: &line)
        switch metric.kind {
        case .counter: line.ascii(",kind=counter value=")
        case .gauge: line.ascii(",kind=gauge value=")
        case .histogram: line.ascii(",kind=histogram value=")
        }
        let value = metric.value
        if metric.kind == .counter, let whole = Self.wholeNumber(value) {
            line.integer(whole)
            line.byte(UInt8(ascii: "i"))
        } else {
            Self.writeFloat(value, to: &line)
        }
        line.byte(UInt8(ascii: " "))
        cache.timestamps.write(timestamp, to: &line)
        line.byte(UInt8(ascii: "\n"))
    }
}
