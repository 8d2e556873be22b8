import PlaytraceDASH

/// Moves a fragmented MP4 media segment's times later: each track fragment's decode time (`tfdt`) and each segment
/// index's earliest presentation time (`sidx`), by the same number of seconds, each in its own box's timescale.
///
/// The lab's live DASH presentations loop its real content as its live HLS streams do (``TransportStreamRetimer``):
/// retimed, loop k's segment n starts where the MPD's timeline puts segment `k × loop + n`, and a decoder plays across
/// loops as across any two segments of a live encoder.
///
/// The boxes are walked with ``BoxWalk``; a box too short for what its version announces is left as it is. Times
/// wrap as their fields do (a version 0 `tfdt` or `sidx` holds 32 bits).
enum FragmentRetimer {
    /// `bytes` with its times `seconds` later: the `tfdt` of every `traf` of every `moof` in `trackTimescale`, and
    /// every top-level `sidx` in the timescale it gives itself.
    static func retimed(_ bytes: [UInt8], bySeconds seconds: UInt64, trackTimescale: UInt32) -> [UInt8] {
        guard seconds > 0 else { return bytes }
        var bytes = bytes
        for top in BoxWalk(bytes).boxes {
            switch top.type {
            case "sidx":
                // Version and flags, reference_ID, timescale, then the earliest presentation time.
                let start = top.payloadRange.lowerBound
                guard let timescale = read(bytes, start + 8, width: 4) else { continue }
                shiftTime(&bytes, in: top, at: start + 12, by: seconds &* timescale)
            case "moof":
                for traf in BoxWalk(bytes, range: top.payloadRange).boxes where traf.type == "traf" {
                    for tfdt in BoxWalk(bytes, range: traf.payloadRange).boxes where tfdt.type == "tfdt" {
                        shiftTime(&bytes, in: tfdt, at: tfdt.payloadRange.lowerBound + 4, by: seconds &* UInt64(trackTimescale))
                    }
                }
            default:
                continue
            }
        }
        return bytes
    }

    /// Adds `ticks` to the time at `offset` in a full box, 64 bits wide in version 1, 32 otherwise (wrapping).
    private static func shiftTime(_ bytes: inout [UInt8], in box: BoxWalk.Box, at offset: Int, by ticks: UInt64) {
        guard let version = byte(bytes, box.payloadRange.lowerBound) else { return }
        let width = version == 1 ? 8 : 4
        guard offset + width <= box.payloadRange.upperBound, let time = read(bytes, offset, width: width) else { return }
        let shifted = width == 8 ? time &+ ticks : (time &+ ticks) & 0xFFFF_FFFF
        for index in 0..<width { bytes[offset + index] = UInt8(truncatingIfNeeded: shifted >> (8 * (width - 1 - index))) }
    }

    private static func byte(_ bytes: [UInt8], _ offset: Int) -> UInt8? {
        bytes.indices.contains(offset) ? bytes[offset] : nil
    }

    /// A big-endian number of `width` bytes at `offset`, `nil` past the end.
    private static func read(_ bytes: [UInt8], _ offset: Int, width: Int) -> UInt64? {
        guard offset >= 0, offset + width <= bytes.count else { return nil }
        return bytes[offset..<(offset + width)].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
