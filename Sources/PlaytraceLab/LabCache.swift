import DequeModule
import NIOCore
import PlaytraceCore

/// What the lab makes once and serves to every viewer that asks: a live playlist per variant per update, a Harmonic
/// metadata document per window, a segment's bytes, a file of the real media. Each is an immutable `ByteBuffer`
/// shared by every response (a response only reads it; a buffer is copied on write alone), so a thousand viewers
/// asking for one segment cost one segment's memory and one rendering. Bounded by bytes: past ``byteLimit`` the
/// oldest entries go.
final class LabCache: Sendable {
    /// What an entry is made from: equal keys, equal content.
    enum Key: Hashable, Sendable {
        /// A live or DVR media playlist at its newest segment.
        case livePlaylist(LabStreams.Kind, variant: Int, latest: Int)
        /// A Harmonic session's metadata for a window ending at its newest segment (every session's is the same).
        case harmonicMetadata(LabSSAI.Stream, latest: Int, dash: Bool)
        /// Synthetic segment bytes (they name their path).
        case synthetic(path: String, size: Int)
        /// A file of the real media directory.
        case file(path: String)
        /// A looped live segment, its timestamps moved to its place.
        case loopedSegment(variant: Int, number: Int)
        /// A looped live DASH segment of a representation, its times moved to its place (an emsg presentation's
        /// with its event message first: `event`, the message's bytes).
        case loopedFragment(representation: String, number: Int, event: [UInt8]?)
    }

    private struct Contents {
        var values: [Key: LabContent] = [:]
        var order = Deque<Key>()
        var bytes = 0
    }

    private let contents = Locked(Contents())
    /// The most bytes kept.
    let byteLimit: Int

    init(byteLimit: Int = 64 << 20) {
        self.byteLimit = byteLimit
    }

    /// The content for `key`: kept, or made by `make` now and kept (nothing is kept when `make` finds nothing).
    func content(for key: Key, make: () -> LabContent?) -> LabContent? {
        if let kept = contents.withLock({ $0.values[key] }) { return kept }
        guard let made = make() else { return nil }
        let size = made.0.readableBytes
        guard size <= byteLimit / 4 else { return made }  // too large to be worth keeping
        contents.withLock { contents in
            guard contents.values.updateValue(made, forKey: key) == nil else { return }
            contents.order.append(key)
            contents.bytes += size
            while contents.bytes > byteLimit, let oldest = contents.order.popFirst() {
                contents.bytes -= contents.values.removeValue(forKey: oldest)?.0.readableBytes ?? 0
            }
        }
        return made
    }

    /// How many entries are kept now.
    var count: Int { contents.withLock { $0.values.count } }
}
