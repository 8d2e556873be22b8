// libFuzzer target for PlaytraceDASH's MPD parser (built by scripts/fuzz): any bytes must parse or give an
// MPDParseError, never crash or hang. What parses is then checked: within the parser's limits, every segment
// timeline resolves to runs whose segments, found by index and by time, agree and move forward, and every URL
// template fills to a bounded URL. Then the presentation is resolved (periods placed, attributes inherited, base
// URLs resolved): periods move forward, each representation's first, middle and last segments are found by index
// and by time and lie in their period, and a live window at a fixed clock is a range of existing segments. Then
// it is presented as HLS playlists (PlaytraceDASHPlayback): the multivariant playlist, and every track's media
// playlist twice at a moving clock, bounded, numbered forward. The same bytes, as text, are read as an xs:duration.
import Foundation
import PlaytraceCore
import PlaytraceDASH
import PlaytraceDASHPlayback
import PlaytraceHLS

// Invariant (what makes this file's pointer use sound): libFuzzer lends `size` bytes at `data` for the call; they are copied at once.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMPD(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    _ = try? XSDuration.parse(String(decoding: bytes.prefix(300), as: UTF8.self))
    let parser = MPDParser()
    guard let presentation = try? parser.parse(bytes) else { return 0 }
    precondition(presentation.periods.count <= parser.limits.maximumPeriods, "more periods than the limit")
    precondition(presentation.problems.count <= parser.limits.maximumProblems + 1, "more problems than the limit")
    for period in presentation.periods.prefix(8) {
        var levels = [period.segmentInformation]
        for set in period.adaptationSets.prefix(8) {
            levels.append(set.segmentInformation)
            levels += set.representations.prefix(8).map(\.segmentInformation)
        }
        for information in levels {
            if let template = information.template {
                for text in [template.media, template.initialization, template.index].compactMap({ $0 }) {
                    let url = SegmentURLTemplate(text).url(representationID: "r", number: Int64.max, bandwidth: Int64.min,
                                                           time: -1, subNumber: 0)
                    precondition(url.utf8.count <= text.utf8.count * (SegmentURLTemplate.maximumWidth + 24) + 64,
                                 "a URL out of proportion to its template")
                }
                if let entries = template.timeline { check(SegmentTimeline(entries: entries, end: 1 << 40)) }
                if let entries = template.timeline { check(SegmentTimeline(entries: entries)) }
            }
            if let entries = information.list?.timeline { check(SegmentTimeline(entries: entries)) }
        }
    }
    resolve(presentation)
    present(presentation)
    return 0
}

private func present(_ presentation: MediaPresentation) {
    let url = URL(string: "https://origin.example/a/manifest.mpd")!
    var playlists = DASHPlaylists(ResolvedPresentation(presentation, url: url), base: url, maximumSegments: 200)
    let multivariant = playlists.multivariantPlaylist()
    var tracks = multivariant.variants.prefix(6).compactMap { URL(string: $0.uri).flatMap(playlists.track(of:)) }
    tracks += multivariant.renditions.prefix(4).compactMap { $0.uri.flatMap(URL.init(string:)).flatMap(playlists.track(of:)) }
    precondition(tracks.count == min(multivariant.variants.count, 6) + min(multivariant.renditions.count, 4),
                 "a listed track that its URL does not name")
    for track in tracks {
        var last: Int?
        for now in [1_800_000_000.0, 1_800_000_030.0] {
            guard let media = playlists.mediaPlaylist(track, at: StreamDate(secondsSince1970: now)) else {
                preconditionFailure("a listed track without a playlist")
            }
            precondition(media.segments.count <= 200, "a playlist past its bound")
            precondition(media.targetDuration >= 1, "a target duration below a second")
            if let first = media.segments.first, let last, media.segments.count > 0 {
                precondition(first.mediaSequence > Int.min + 1_000 && last > Int.min + 1_000, "numbers at their floor")
            }
            last = media.segments.last?.mediaSequence
        }
    }
}

private func resolve(_ presentation: MediaPresentation) {
    let resolved = ResolvedPresentation(presentation, url: URL(string: "https://origin.example/a/manifest.mpd")!)
    let now = StreamDate(secondsSince1970: 1_800_000_000)
    let window = AvailabilityWindow(resolved, at: now, availabilityTimeOffset: 1)
    for period in resolved.periods.prefix(8) {
        if let end = period.end { precondition(end > period.start, "a period of no length kept") }
        for set in period.adaptationSets.prefix(8) {
            for representation in set.representations.prefix(8) {
                precondition(representation.baseURLs.count <= 16, "base URLs past their bound")
                let segments = representation.segments
                let count = segments.count ?? 1_000
                for index in [0, count / 2, count - 1] where index >= 0 {
                    guard let segment = segments.segment(at: index) else { continue }
                    precondition(segment.start >= period.start - .seconds(1 << 40) && segment.duration >= .zero, "a segment out of place")
                    if let end = period.end { precondition(segment.end <= end, "a segment past its period's end") }
                    _ = segment.urls(at: representation.baseURLs)
                    if segment.duration > .zero, let found = segments.index(containing: segment.start) {
                        precondition(found <= index, "the segment at a time after the one that starts there")
                    }
                }
                if let range = window.available(in: segments) {
                    precondition(segments.segment(at: range.lowerBound) != nil && segments.segment(at: range.upperBound) != nil,
                                 "an available range of segments that do not exist")
                }
                _ = segments.segments(overlapping: period.start ..< period.start + .seconds(10), limit: 16)
                _ = segments.initialization?.urls(at: representation.baseURLs)
            }
        }
    }
}

private func check(_ timeline: SegmentTimeline) {
    var previous: SegmentTimeline.Run?
    for run in timeline.runs {
        precondition(run.duration > 0, "a run without duration")
        precondition((run.count ?? 1) > 0, "an empty run")
        if let previous {
            precondition(run.firstIndex == previous.firstIndex + (previous.count ?? 0), "runs not contiguous by index")
        }
        previous = run
    }
    let count = timeline.segmentCount ?? 1_000
    var last: SegmentTimeline.Segment?
    for index in [0, 1, count / 2, count - 2, count - 1, count] where index >= 0 {
        guard let segment = timeline.segment(at: index) else {
            precondition(index >= count || timeline.runs.isEmpty, "no segment at \(index) of \(count)")
            continue
        }
        precondition(segment.index == index && segment.duration > 0, "a segment out of place")
        if let last, last.index < segment.index { precondition(last.start < segment.start, "segments not moving forward") }
        let found = timeline.segment(containing: segment.start)
        precondition(found?.index == index, "the segment at \(segment.start) is not the one at index \(index)")
        last = segment
    }
}
