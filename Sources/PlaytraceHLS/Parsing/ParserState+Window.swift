import PlaytraceCore

/// What the segments a windowed parse left out (``PlaylistParser/Options/keepingLastSegments``) carried forward to
/// the ones after them.
struct WindowCarry {
    var leftOut = 0
    var discontinuities = 0
    var map: MediaInitializationSection?
    var keys: [EncryptionKey] = []
    var bitrate: Int?
    /// The program date-time at the end of the last segment left out, when known (a discontinuity without a date
    /// loses it).
    var date: StreamDate?
    /// Where the next byte range of each resource starts.
    var nextOffsets: [SegmentURI: Int] = [:]
}

extension ParserState {
    /// Leaves out the `count` oldest segments read so far, writing what they carried forward on the first one kept.
    /// Called once twice the window is read, so that each segment is moved at most once: linear in the input.
    mutating func leaveOutOldestSegments(_ count: Int) {
        guard count > 0, count < segments.count else { return }
        for segment in segments[..<count] {
            let tags = segment.tags
            if tags.isDiscontinuity { windowCarry.discontinuities += 1 }
            if let map = tags.map { windowCarry.map = map }
            if !tags.keys.isEmpty { windowCarry.keys = tags.keys }
            if let bitrate = tags.bitrate { windowCarry.bitrate = bitrate }
            if let date = tags.programDateTime {
                windowCarry.date = date
            } else if tags.isDiscontinuity {
                windowCarry.date = nil
            }
            windowCarry.date = windowCarry.date.map { $0 + MediaTime(seconds: segment.duration) }
            if let range = segment.byteRange {
                let offset = range.offset ?? windowCarry.nextOffsets[segment.uriText] ?? 0
                windowCarry.nextOffsets[segment.uriText] = offset.addingSaturating(range.length)
            }
        }
        windowCarry.leftOut += count
        segments.removeFirst(count)
        segmentLines.removeFirst(count)
        var first = segments[0].tags
        if first.map == nil, let map = windowCarry.map { first.map = map }
        if first.keys.isEmpty, !windowCarry.keys.isEmpty { first.keys = windowCarry.keys }
        if first.bitrate == nil { first.bitrate = windowCarry.bitrate }
        if first.programDateTime == nil, !first.isDiscontinuity { first.programDateTime = windowCarry.date }
        segments[0].tags = first
        // A byte range without an offset continues its resource's previous one, which may have been left out.
        var continued: Set<SegmentURI> = []
        for index in segments.indices {
            guard let range = segments[index].byteRange, continued.insert(segments[index].uriText).inserted else { continue }
            if range.offset == nil, let offset = windowCarry.nextOffsets[segments[index].uriText] {
                segments[index].byteRange = ByteRange(length: range.length, offset: offset)
            }
        }
    }

    /// Copies the kept segments' URIs into a block of their own, so that the input-sized block of the whole parse
    /// is let go: the playlist then holds memory in proportion to the segments it kept.
    mutating func compactURIs() {
        var total = 0
        for segment in segments { total += segment.uriText.withBytes { $0.count } }
        let block = TextBlock.make(capacity: total)
        for index in segments.indices {
            if let uri = segments[index].uriText.withBytes({ block.appendURI($0) }) { segments[index].uriText = uri }
        }
    }
}
