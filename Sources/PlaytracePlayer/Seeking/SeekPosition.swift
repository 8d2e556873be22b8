public import PlaytraceCore

/// Where to seek, with how far from it the engine may land (Pillarbox's positions).
///
/// ```swift
/// player.seek(.near(MediaTime(seconds: 30)))   // fast: any nearby position will do
/// player.seek(.at(MediaTime(seconds: 30)))     // exact
/// ```
public struct SeekPosition: Sendable, Hashable {
    /// The target.
    public var time: MediaTime
    /// How far before the target the engine may land.
    public var toleranceBefore: MediaTime
    /// How far after the target the engine may land.
    public var toleranceAfter: MediaTime

    /// A position with explicit tolerances (negative ones count as zero).
    public static func to(_ time: MediaTime, toleranceBefore: MediaTime, toleranceAfter: MediaTime) -> SeekPosition {
        SeekPosition(time: time, toleranceBefore: max(.zero, toleranceBefore), toleranceAfter: max(.zero, toleranceAfter))
    }

    /// Exactly at a time.
    public static func at(_ time: MediaTime) -> SeekPosition { .to(time, toleranceBefore: .zero, toleranceAfter: .zero) }

    /// Anywhere near a time (the fastest seek).
    public static func near(_ time: MediaTime) -> SeekPosition {
        .to(time, toleranceBefore: MediaTime(seconds: .infinity), toleranceAfter: MediaTime(seconds: .infinity))
    }

    /// At a time or before it, never after.
    public static func before(_ time: MediaTime) -> SeekPosition {
        .to(time, toleranceBefore: MediaTime(seconds: .infinity), toleranceAfter: .zero)
    }

    /// At a time or after it, never before.
    public static func after(_ time: MediaTime) -> SeekPosition {
        .to(time, toleranceBefore: .zero, toleranceAfter: MediaTime(seconds: .infinity))
    }

    /// The range the engine may land in.
    public var acceptableRange: ClosedRange<Double> {
        (time - toleranceBefore).seconds...(time + toleranceAfter).seconds
    }

    /// The position with its target clamped to the seekable range and moved out of blocked ranges, seen from the
    /// current playhead (a backward seek into a blocked range lands before it).
    public func resolved(seekable: MediaTimeRange, blocked: BlockedRanges, from current: MediaTime) -> SeekPosition {
        var position = self
        position.time = blocked.seekTarget(from: current, to: seekable.clamp(time))
        position.time = seekable.clamp(position.time)
        return position
    }
}
