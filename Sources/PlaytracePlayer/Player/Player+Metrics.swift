import DequeModule
import Foundation
import PlaytraceCore

extension Player {
    /// The current item's metric events so far, oldest first (what its trackers received last).
    public var metricEvents: [MetricEvent] { session?.collector.events ?? [] }

    /// The current item's metric events as they accumulate (Pillarbox's `metricEventsPublisher`): the list now,
    /// then the whole list again each time an event joins it; a new current item starts a new list. Apps see what
    /// trackers see, without writing a tracker.
    ///
    /// ```swift
    /// for await events in player.metricEventUpdates() {
    ///     if case .stall = events.last?.kind { showSlowNetworkHint() }
    /// }
    /// ```
    public func metricEventUpdates() -> AsyncStream<[MetricEvent]> {
        let (stream, continuation) = AsyncStream<[MetricEvent]>.makeStream(bufferingPolicy: .bufferingNewest(8))
        let id = UUID()
        metricEventSubscribers[id] = continuation
        let events = metricEvents
        continuation.yield(events)
        if metricEventSubscribers.count == 1 { publishedMetricEvents = events }
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.metricEventSubscribers[id] = nil }
        }
        return stream
    }

    /// The current item's quality-of-service history (Pillarbox's `metrics()`): a sample at each of the player's
    /// refreshes (``Configuration/refreshInterval``), oldest first, the last ``Configuration/metricsHistoryLimit``
    /// kept.
    public func metrics() -> [Metrics] {
        Array(session?.metricsHistory ?? [])
    }

    /// Samples of the current item's quality of service every `interval` (Pillarbox's `periodicMetricsPublisher`):
    /// each time, the last `limit` samples, the newest last, with totals and the increments since the sample
    /// before. It begins with an empty history (as Pillarbox's), which is all an empty player publishes; a new
    /// current item starts a new series. The stream reads the engine when it samples, so its figures are fresh, and
    /// stops when its consumer does.
    ///
    /// ```swift
    /// for await samples in player.periodicMetricUpdates(every: .seconds(1), limit: 60) {
    ///     chart.plot(samples.map { $0.increment.bytesReceived })
    /// }
    /// ```
    /// - Parameters:
    ///   - interval: how often to sample (at least 10 ms).
    ///   - limit: how many samples each update holds, at least 1.
    public func periodicMetricUpdates(every interval: Duration, limit: Int = 100) -> AsyncStream<[Metrics]> {
        let interval = max(interval, .milliseconds(10))
        let limit = max(limit, 1)
        let stopwatch = self.stopwatch
        return Self.stream { [weak self] continuation in
            var samples = Deque<Metrics>()
            var sampled: ObjectIdentifier?
            continuation.yield([])
            while !Task.isCancelled {
                do { try await stopwatch.sleep(for: interval) } catch { return }
                guard let session = self?.session else {
                    if self == nil { return }
                    continue
                }
                let snapshot = await session.engine.snapshot()
                guard !session.isClosed else { continue }
                if sampled != ObjectIdentifier(session) {
                    sampled = ObjectIdentifier(session)
                    samples.removeAll()
                }
                samples.append(Metrics(snapshot, at: session.sessionTime(stopwatch), after: samples.last))
                if samples.count > limit { samples.removeFirst() }
                continuation.yield(Array(samples))
            }
        }
    }

    /// Tells the metric-event subscribers the current item's list.
    func publishMetricEvents() {
        guard !metricEventSubscribers.isEmpty else { return }
        let events = metricEvents
        guard events != publishedMetricEvents else { return }
        publishedMetricEvents = events
        for continuation in metricEventSubscribers.values { continuation.yield(events) }
    }

    /// Samples the current session's metrics into its history (at each periodic refresh).
    func recordMetricsSample(of session: ItemSession) {
        let sample = Metrics(session.snapshot, at: session.sessionTime(stopwatch), after: session.metricsHistory.last)
        session.metricsHistory.append(sample)
        if session.metricsHistory.count > configuration.metricsHistoryLimit { session.metricsHistory.removeFirst() }
    }
}
