public import PlaytraceCore

extension Player {
    /// The playhead every `interval` while it moves (Pillarbox's `periodicTimePublisher`): the time now, then the
    /// time after each interval when it changed (a paused player sends nothing). The stream runs on the player's
    /// clock and costs nothing once its consumer stops: ending the iteration ends it, as does the player's end.
    ///
    /// ```swift
    /// for await time in player.periodicTimeUpdates(every: .seconds(1)) {
    ///     label.text = time.timecode
    /// }
    /// ```
    /// - Parameter interval: how often to look (at least 10 ms).
    public func periodicTimeUpdates(every interval: Duration) -> AsyncStream<MediaTime> {
        let interval = max(interval, .milliseconds(10))
        let stopwatch = self.stopwatch
        return Self.stream { [weak self] continuation in
            var last: MediaTime?
            while !Task.isCancelled {
                if let self, self.currentItem != nil {
                    let time = self.time
                    if time != last {
                        last = time
                        continuation.yield(time)
                    }
                } else if self == nil {
                    return
                }
                do { try await stopwatch.sleep(for: interval) } catch { return }
            }
        }
    }

    /// The boundaries the playhead crosses while playing (Pillarbox's `boundaryTimePublisher`): each time it goes
    /// past one of `times` in continuous playback, that time. Seeks cross nothing. The stream sleeps until the
    /// next boundary is due (looking again at least every 250 ms, for seeks and rate changes).
    ///
    /// ```swift
    /// for await _ in player.boundaryTimeUpdates(at: [creditsStart]) { showNextEpisodeButton() }
    /// ```
    /// - Parameter times: the boundaries, on the item's timeline.
    public func boundaryTimeUpdates(at times: [MediaTime]) -> AsyncStream<MediaTime> {
        let boundaries = times.sorted()
        let stopwatch = self.stopwatch
        return Self.stream { [weak self] continuation in
            var last: (time: MediaTime, at: Duration)?
            while !Task.isCancelled {
                // The player is held only while it is read, never across the sleep.
                guard let wait = self.map({ player -> Duration in
                    let now = stopwatch.elapsed
                    let time = player.time
                    let rate = player.engineSnapshot.status == .playing ? player.engineSnapshot.rate : 0
                    if let last, time > last.time,
                       time - last.time <= MediaTime(seconds: (now - last.at).seconds * max(rate, 1) + 0.25) {
                        for boundary in boundaries where boundary > last.time && boundary <= time {
                            continuation.yield(boundary)
                        }
                    }
                    last = (time, now)
                    var wait = Duration.milliseconds(250)
                    if rate > 0, let next = boundaries.first(where: { $0 > time }) {
                        wait = min(wait, max(.milliseconds(10), .seconds((next - time).seconds / rate)))
                    }
                    return wait
                }) else { return }
                do { try await stopwatch.sleep(for: wait) } catch { return }
            }
        }
    }

    /// A stream fed by a main-actor task that ends when its consumer stops.
    static func stream<Element: Sendable>(
        _ body: @escaping @MainActor (AsyncStream<Element>.Continuation) async -> Void
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let task = Task { @MainActor in
            await body(continuation)
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
