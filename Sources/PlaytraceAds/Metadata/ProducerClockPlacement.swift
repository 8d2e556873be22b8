import PlaytraceCore

extension AdMetadata {
    /// Whether any time is given on the producer's wall clock as well (Harmonic's `prftStartTime` on DASH).
    public var hasProducerTimes: Bool {
        func given(_ events: [TrackingEvent]) -> Bool { events.contains { $0.producerStartTime != nil } }
        return pods.contains { pod in
            pod.producerStartTime != nil || given(pod.trackingEvents)
                || pod.ads.contains { $0.producerStartTime != nil || given($0.trackingEvents) }
        }
    }

    /// The metadata with each time given on the producer's clock placed among the stream's dates: that time less
    /// `offset`, how far the producer's clock is ahead of the stream's dates (``AdPlayerObserver/producerClockOffset``).
    /// A time given only as `startTime` stays as it is, and each event keeps its key (the written `startTime`), so
    /// that a response placed otherwise is still the same events. Only dates are placed: on a timeline of offsets
    /// from the content's start, nothing changes.
    ///
    /// Harmonic's web library compares its `prftStartTime` with a playhead on the producer's clock when Shaka has one
    /// and with the presentation time otherwise, at the same moment: placed here, both sides stay on one clock.
    public func placingProducerTimes(offset: Duration) -> AdMetadata {
        guard timeline == .programDateTime else { return self }
        let shift = AdTime(milliseconds: offset.seconds * 1000)
        func placed(_ time: AdTime, producer: AdTime?) -> AdTime { producer.map { $0 - shift } ?? time }
        // Placed, each list stays in order of time (stably: the decoder's order among equal times).
        func place(_ events: inout [TrackingEvent]) {
            for index in events.indices {
                events[index].startTime = placed(events[index].startTime, producer: events[index].producerStartTime)
            }
            events = inTimeOrder(events, \.startTime)
        }
        var metadata = self
        for podIndex in metadata.pods.indices {
            var pod = metadata.pods[podIndex]
            pod.startTime = placed(pod.startTime, producer: pod.producerStartTime)
            place(&pod.trackingEvents)
            for adIndex in pod.ads.indices {
                pod.ads[adIndex].startTime = placed(pod.ads[adIndex].startTime, producer: pod.ads[adIndex].producerStartTime)
                place(&pod.ads[adIndex].trackingEvents)
            }
            pod.ads = inTimeOrder(pod.ads, \.startTime)
            metadata.pods[podIndex] = pod
        }
        metadata.pods = inTimeOrder(metadata.pods, \.startTime)
        if var range = metadata.dataRange {
            range.start = placed(range.start, producer: range.producerStart)
            range.end = placed(range.end, producer: range.producerEnd)
            metadata.dataRange = range
        }
        return metadata
    }
}

/// `items` sorted by their start, stably (the decoder's order among equal times).
func inTimeOrder<Item>(_ items: [Item], _ start: KeyPath<Item, AdTime>) -> [Item] {
    items.enumerated().sorted { ($0.element[keyPath: start], $0.offset) < ($1.element[keyPath: start], $1.offset) }.map(\.element)
}
