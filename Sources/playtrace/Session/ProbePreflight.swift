import Foundation
import PlaytraceAds
import PlaytraceCore
import PlaytraceDASH
import PlaytraceHLS
import PlaytraceNetwork

/// What `probe` checks before it ramps: that the process may open a connection per viewer, and that the URL answers
/// with a playlist. Either failing is one line and exit status 2, before a single viewer starts.
enum ProbePreflight {
    /// A check that failed: said as it is.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The connections to one host `viewers` viewers may hold at once: two each (a media request beside a metadata
    /// poll), and the beacons under way (``BeaconCourier/Concurrency/viewers(_:)``), which a break's crossing sends
    /// all at once: sharing the viewers' two would make each beacon wait for a media request to end.
    static func connectionsPerHost(viewers: Int) -> Int {
        max(8, viewers * 2 + BeaconCourier.Concurrency.viewers(viewers).maximumPerHost)
    }

    /// The file descriptors `viewers` viewers need: their connections, and some for the process itself.
    static func descriptorsNeeded(viewers: Int) -> Int { connectionsPerHost(viewers: viewers) + 64 }

    /// Raises the soft limit of open files up to the hard one if need be; fails, naming the number needed, when even
    /// that is too few.
    static func checkDescriptors(viewers: Int) throws(Failure) {
        let needed = descriptorsNeeded(viewers: viewers)
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        if limit.rlim_cur >= rlim_t(needed) { return }
        if limit.rlim_max >= rlim_t(needed) || limit.rlim_max == rlim_t.max {
            var raised = limit
            raised.rlim_cur = rlim_t(needed)
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { return }
        }
        throw Failure(description: "\(viewers) viewer(s) need about \(needed) file descriptors; this process may open "
            + "\(limit.rlim_cur) (and at most \(limit.rlim_max)): raise the limit (ulimit -n \(needed)) or run fewer "
            + "viewers per process (--shard)")
    }

    /// Asks the stream's URL once: without ads, it must answer with an HLS playlist or an MPD; with ads (an SSAI session URL,
    /// which each viewer sets up its own session from), it must answer at all.
    static func checkStream(_ url: URL, ads: Bool, transport: any HTTPTransport) async throws(Failure) {
        let shown = PlainText.safe(URLRedaction.redacting(url.absoluteString))
        let response: HTTPResponse
        do {
            response = try await transport.send(HTTPRequest(url: url, timeout: .seconds(10), maximumBodySize: 16 << 20))
        } catch {
            throw Failure(description: "\(shown) does not answer: \(PlainText.safe(error.description))")
        }
        if ads { return }
        guard (200..<300).contains(response.status) else {
            throw Failure(description: "\(shown) is not a stream: HTTP \(response.status)")
        }
        let text = response.body.starts(with: [0xEF, 0xBB, 0xBF]) ? response.body.dropFirst(3) : response.body[...]
        guard text.starts(with: Array("#EXTM3U".utf8)) || MPDDetection.isMPD(response.body) else {
            throw Failure(description: "\(shown) is not a stream: its answer is neither an HLS playlist (no #EXTM3U) "
                + "nor an MPEG-DASH MPD")
        }
    }
}
