// libFuzzer target for PlaytraceAds's VAST parser (built by scripts/fuzz): any bytes must parse or give a typed
// VAST error (100–102), never crash or hang. What parses is then checked: within the parser's limits, every ad's
// break (VASTAdBreak) has its events inside the ad and unique keys, and the scheduler, playing through it in uneven
// ticks, never fires an event twice. The same bytes, as base64, go through the SVTA2053 signaling decoder.
import Foundation
import PlaytraceAds
import PlaytraceCore

// Invariant (what makes this file's pointer use sound): libFuzzer lends `size` bytes at `data` for the call; they are copied at once.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVAST(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let parser = VASTParser()
    do {
        check(try parser.parse(bytes), limits: parser.limits)
    } catch {
        precondition([100, 101, 102].contains(error.code.rawValue), "unexpected code \(error.code)")
    }
    let signaling = AdCreativeSignalingDecoder().decode(base64: bytes.base64EncodedString(), id: "fuzz",
                                                        date: StreamDate(secondsSince1970: 1_000))
    for pod in signaling.pods {
        precondition(Set(pod.ads.map(\.id)).count == pod.ads.count, "two signaled ads share an identifier")
    }
    return 0
}

private func check(_ document: VASTDocument, limits: VASTParser.Limits) {
    precondition(document.ads.count <= limits.maximumAds, "more ads than the limit")
    let inline = document.ads.filter { $0.inline != nil }.prefix(20)
    let ads = inline.map { ad in
        (ad: ResolvedVASTAd(ad: ad), duration: min(ad.linear?.duration ?? 0, 86_400), mediaURL: ad.linear?.mediaFiles.first?.url)
    }
    let adBreak = VASTAdBreak(id: "fuzz", start: 1_000, ads: Array(ads))
    var pods = [adBreak.pod]
    for ad in adBreak.pod.ads {
        precondition(Set(ad.trackingEvents.map(\.id)).count == ad.trackingEvents.count, "two events share a key")
        for event in ad.trackingEvents {
            precondition(event.startTime >= ad.startTime - 1e-6 && event.startTime <= ad.endTime + 1e-6, "an event outside its ad")
        }
    }
    var scheduler = BeaconScheduler()
    var fired: Set<String> = []
    let pod = adBreak.pod
    let step = max((pod.endTime + 2 - pod.startTime) / 41, 0.001)
    var position = pod.startTime - 1
    for tick in 0..<41 {
        let next = position + step * (tick % 3 == 0 ? 0.5 : 1.25)
        for firing in scheduler.observe(.played(from: position, to: next, rate: 1, at: .milliseconds(Int64(tick))), pods: &pods) {
            let key = firing.deliveryKey(session: "fuzz", reportedAt: StreamDate(secondsSince1970: 0))
            precondition(fired.insert(key).inserted, "\(key) fired twice")
        }
        position = next
    }
}
