import Foundation
import PlaytraceCore

/// The lab's content-steering server: the order of preference it answers with, and for how long the answer holds.
///
/// The steering stream (`/steering/master.m3u8`) offers the on-demand stream on two pathways, `cdn-a` (named
/// first by the playlist) and `cdn-b`, served under `/cdn-a/vod/…` and `/cdn-b/vod/…`; its manifest is
/// `/steering/manifest.json`. A fault on `/cdn-a/` takes a whole pathway down.
public struct LabSteering: Sendable, Hashable, Codable {
    /// The pathways in the order the server prefers them (`PATHWAY-PRIORITY`).
    public var priority: [String]
    /// The manifest's `TTL`, in seconds.
    public var timeToLive: Int

    /// The lab's pathways, in the order of the multivariant playlist.
    public static let pathways = ["cdn-a", "cdn-b"]

    public init(priority: [String] = LabSteering.pathways, timeToLive: Int = 300) {
        self.priority = priority
        self.timeToLive = timeToLive
    }

    /// The manifest as the server sends it.
    var manifest: String {
        let list = priority.map { "\"\($0)\"" }.joined(separator: ",")
        return "{\"VERSION\":1,\"TTL\":\(timeToLive),\"RELOAD-URI\":\"manifest.json?reload=1\",\"PATHWAY-PRIORITY\":[\(list)]}"
    }
}

/// The steering server's current answer; tests and `POST /lab/steering` change it.
final class SteeringState: Sendable {
    private let value = Locked(LabSteering())

    var current: LabSteering {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
