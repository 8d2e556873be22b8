public import PlaytraceCore

/// A `prft` box (ISO/IEC 14496-12 8.16.5): the wall-clock time (NTP) at which the encoder produced a media time of
/// one track, the basis of low-latency latency figures and of Harmonic's `prft` beacon times.
public struct ProducerReferenceTimeBox: Sendable, Hashable {
    public var referenceTrackID: UInt32
    /// NTP: seconds since 1900-01-01 in the high 32 bits, their fraction in the low 32.
    public var ntpTimestamp: UInt64
    /// In the track's timescale.
    public var mediaTime: UInt64

    /// Seconds from 1900-01-01 (NTP's era 0) to 1970-01-01.
    static let ntpToUnix: UInt64 = 2_208_988_800

    /// Reads a `prft` box's payload (version 0: a 32-bit media time; 1: 64-bit); `nil` for anything else.
    public init?(_ payload: ArraySlice<UInt8>) {
        let bytes = Array(payload)
        guard let version = bytes.first, version <= 1, let track = BoxWalk.uint32(bytes, 4),
              let ntp = BoxWalk.uint64(bytes, 8) else { return nil }
        if version == 0 {
            guard let time = BoxWalk.uint32(bytes, 16) else { return nil }
            mediaTime = UInt64(time)
        } else {
            guard let time = BoxWalk.uint64(bytes, 16) else { return nil }
            mediaTime = time
        }
        referenceTrackID = track
        ntpTimestamp = ntp
    }

    /// The NTP time as a date (era 0: until 2036).
    public var date: StreamDate {
        let seconds = Double(ntpTimestamp >> 32) - Double(Self.ntpToUnix)
        let fraction = Double(ntpTimestamp & 0xFFFF_FFFF) / 4_294_967_296
        return StreamDate(secondsSince1970: seconds + fraction)
    }

    /// A date as an NTP time (era 0: 1900 to 2036; 0 before it, the era's last second after), as a producer writes it.
    public static func ntpTimestamp(of date: StreamDate) -> UInt64 {
        let seconds = min(max(date.secondsSince1970 + Double(ntpToUnix), 0), Double(UInt32.max))
        let whole = seconds.rounded(.down)
        return UInt64(whole) << 32 | UInt64(((seconds - whole) * 4_294_967_296).rounded(.down))
    }
}
