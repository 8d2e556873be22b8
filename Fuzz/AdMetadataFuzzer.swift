// libFuzzer target for PlaytraceAds's metadata decoders (built by scripts/fuzz): any bytes go through the Harmonic
// and the MediaTailor decoder; each must decode or give a typed error, never crash or hang. What decodes is then
// checked, as decoded and with its producer-clock times placed: breaks sorted, identities unique, a merge of a response into itself keeps every break, and the
// scheduler, playing through every break in uneven ticks, never fires an event twice.
import PlaytraceAds
import PlaytraceCore

// Invariant (what makes this file's pointer use sound): libFuzzer lends `size` bytes at `data` for the call; they are copied at once.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAdMetadata(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    if let metadata = try? HarmonicMetadataDecoder().decode(bytes) {
        check(metadata)
        // Times on the producer's clock placed (a DASH stream whose encoder is 1.5 s ahead): still in order, keys kept.
        if metadata.hasProducerTimes { check(metadata.placingProducerTimes(offset: .milliseconds(1_500))) }
    }
    if let metadata = try? MediaTailorTrackingDecoder().decode(bytes) { check(metadata) }
    return 0
}

private func check(_ metadata: AdMetadata) {
    let pods = metadata.pods
    precondition(zip(pods, pods.dropFirst()).allSatisfy { $0.startTime <= $1.startTime }, "breaks out of order")
    precondition(Set(pods.map(\.id)).count == pods.count, "two breaks share an identifier")
    for pod in pods {
        precondition(Set(pod.ads.map(\.id)).count == pod.ads.count, "two ads of a break share an identifier")
        for ad in pod.ads {
            precondition(Set(ad.trackingEvents.map(\.id)).count == ad.trackingEvents.count, "two events share a key")
        }
    }
    for problem in metadata.problems { precondition(!problem.path.isEmpty && !problem.message.isEmpty) }
    var merger = AdPodMerger()
    let merged = merger.merge(pods, into: pods, playhead: nil)
    precondition(merged.count == pods.count, "a merge of a response into itself lost breaks")

    // Play through the breaks (bounded: the first 50, in 37 ticks each) and require each event to fire at most once.
    var playing = merged
    var scheduler = BeaconScheduler()
    var fired: Set<String> = []
    for pod in merged.prefix(50) where pod.startTime.isFinite && pod.endTime.isFinite {
        let from = pod.startTime - 1
        let step = max((pod.endTime + 2 - from) / 37, 0.001)
        var position = from
        for tick in 0..<37 {
            let next = position + step * (tick % 3 == 0 ? 0.5 : 1.25)
            for firing in scheduler.observe(.played(from: position, to: next, rate: 1, at: .milliseconds(Int64(tick))), pods: &playing) {
                let key = firing.deliveryKey(session: "fuzz", reportedAt: StreamDate(secondsSince1970: 0))
                precondition(fired.insert(key).inserted, "\(key) fired twice")
            }
            position = next
        }
    }
    for firing in scheduler.catchUp(&playing) {
        let key = firing.deliveryKey(session: "fuzz", reportedAt: StreamDate(secondsSince1970: 0))
        precondition(fired.insert(key).inserted, "\(key) fired twice (catch-up)")
    }
}
