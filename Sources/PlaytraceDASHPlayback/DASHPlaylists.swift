public import Foundation
import PlaytraceCore
public import PlaytraceDASH
public import PlaytraceHLS

/// A DASH presentation as the HLS playlists an engine plays: its ladder as a multivariant playlist, and each
/// track (``DASHTrack``) as a media playlist of the segments available now, across periods, numbered as HLS
/// numbers them (kept across refreshes by time). A live MPD refreshed replaces the presentation; the numbers stay.
///
/// ```swift
/// var playlists = DASHPlaylists(try ResolvedPresentation(MPDParser().parse(data), url: url), base: url)
/// let multivariant = playlists.multivariantPlaylist()
/// let lowest = playlists.mediaPlaylist(.rung(0, location: 0), at: serverNow)
/// ```
///
/// What the media playlists say, in HLS's words:
/// - each period's first segment is a discontinuity and puts its initialization segment in effect (`EXT-X-MAP`);
/// - segments carry their dates when the MPD has an `availabilityStartTime` (a live one always; an on-demand one when
///   it anchors itself to the wall clock): `EXT-X-PROGRAM-DATE-TIME` is it plus the segment's MPD time;
/// - a live presentation's `suggestedPresentationDelay` is where playback starts (`EXT-X-START`, from the end);
/// - a SCTE-35 event of an `EventStream`, or of a segment's `emsg` (``noteInbandEvents(_:segmentStart:)``), is an ad
///   break (`EXT-X-CUE-OUT` with its duration on the segment it starts in, `EXT-X-CUE-IN` on the first after it);
/// - a rung's segments are timed by the lowest rung's, so that every variant numbers and times them alike, as HLS
///   variants do; a rung with no representation in a period has gaps there (`EXT-X-GAP`).
public struct DASHPlaylists: Sendable {
    /// The presentation last loaded.
    public internal(set) var presentation: ResolvedPresentation
    /// What the presentation offered when it loaded.
    public let ladder: DASHLadder
    /// The MPD's URL when it loaded: the base of every track's URL.
    public let base: URL
    /// The most segments a media playlist lists: a live one, the newest; an on-demand one, the first (with a
    /// problem saying where it stops).
    public var maximumSegments: Int
    /// What building the media playlists found wrong, each once.
    public private(set) var problems: [MPDProblem] = []

    /// The breaks the presentation's events signal (``signalledBreaks(of:)``).
    private(set) var breaks: [SignalledBreak]
    /// The breaks signalled in segments (``noteInbandEvents(_:segmentStart:)``), the newest last.
    var inbandBreaks: [SignalledBreak] = []
    /// Whether the segments carry events to read, SCTE-35 or SVTA2053 (an `InbandEventStream` declares them).
    public private(set) var readsInbandEvents: Bool
    /// Each track's numbering (rungs share one: they are numbered by the lowest), by ``DASHTrack/key``.
    var anchors: [String: SequenceAnchor] = [:]
    /// The `SegmentBase` indexes that could not be fetched or read (their files play whole).
    var unreadableIndexes: Set<IndexKey> = []

    public init(_ presentation: ResolvedPresentation, base: URL, maximumSegments: Int = 500_000) {
        self.presentation = presentation
        self.breaks = Self.signalledBreaks(of: presentation)
        self.readsInbandEvents = Self.declaresInbandEvents(presentation)
        self.ladder = DASHLadder(presentation)
        self.base = base
        self.maximumSegments = max(1, maximumSegments)
    }

    /// Takes a refreshed MPD: its periods keep their numbers.
    public mutating func update(_ presentation: ResolvedPresentation) {
        self.presentation = presentation
        breaks = Self.signalledBreaks(of: presentation)
        readsInbandEvents = Self.declaresInbandEvents(presentation)
    }

    /// The track a URL names (one this presentation's playlists list).
    public func track(of url: URL) -> DASHTrack? { DASHTrack(url: url, base: base) }

    /// The ladder as an HLS multivariant playlist: a variant per rung and location (the locations beyond the first
    /// are redundant variants of the same bandwidth), its bandwidth the rung's plus the default audio's, and a
    /// rendition per audio and text adaptation set (groups `audio` and `text`).
    public func multivariantPlaylist() -> MultivariantPlaylist {
        let audio = ladder.renditions.filter { $0.kind == .audio }
        let text = ladder.renditions.filter { $0.kind == .text }
        let defaultAudio = audio.first(where: \.isDefault) ?? audio.first
        var variants: [VariantStream] = []
        for (index, rung) in ladder.rungs.enumerated() {
            let codecs = [rung.codecs, defaultAudio?.codecs].compactMap { $0 }
            let resolution = rung.width.flatMap { width in rung.height.map { Resolution(width: width, height: $0) } }
            let stream = StreamAttributes(bandwidth: rung.bandwidth.addingSaturating(defaultAudio?.bandwidth ?? 0),
                                          codecs: codecs, resolution: resolution,
                                          stableVariantID: rung.representationID)
            for location in 0..<ladder.locations {
                variants.append(VariantStream(
                    uri: DASHTrack.rung(index, location: location).url(base: base).absoluteString, stream: stream,
                    frameRate: rung.frameRate, audio: audio.isEmpty ? nil : "audio",
                    subtitles: text.isEmpty ? nil : "text"))
            }
        }
        let renditions = ladder.renditions.map { rendition in
            Rendition(type: rendition.kind == .audio ? .audio : .subtitles,
                      uri: DASHTrack.rendition(rendition.kind, key: rendition.key).url(base: base).absoluteString,
                      groupID: rendition.kind == .audio ? "audio" : "text", language: rendition.language,
                      name: rendition.name, isDefault: rendition.isDefault, isAutoselect: true,
                      characteristics: rendition.characteristics)
        }
        return MultivariantPlaylist(hasIndependentSegments: true, variants: variants, renditions: renditions)
    }

    mutating func note(_ problem: MPDProblem) {
        if !problems.contains(problem) { problems.append(problem) }
    }
}
