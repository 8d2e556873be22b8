#if MPV
import Foundation
import PlaytraceCore
import PlaytraceHLSPlayback
import PlaytraceHLS
import PlaytraceNetwork
import PlaytracePlayer

/// What libmpv does not tell of an HLS stream, read from the stream's own media playlist: its program date time,
/// the ad breaks it signals (SCTE-35 date ranges, cue tags, interstitials), its target duration, a live stream's
/// window (kept up to date by the engine's refreshes). FFmpeg's HLS reader, which libmpv plays through, reads these
/// tags and keeps none of them.
struct StreamPlaylist: Sendable {
    /// The media playlist's address.
    let url: URL
    private(set) var playlist: MediaPlaylist
    private(set) var dates: ProgramDateTimeMap
    /// The multivariant playlist's variants, as the headless engine lists them; empty when the stream is a media
    /// playlist.
    var variants: [VariantInfo] = []
    /// The one libmpv plays, in ``variants``.
    var variantIndex: Int?

    /// Why the playlist could not be read.
    enum ReadError: Error, CustomStringConvertible {
        case status(Int, URL)
        case transport(HTTPTransportError, URL)
        case malformed(PlaylistParseError, URL)
        case noVariant(URL)
        case notMedia(URL)
        case file(String, URL)

        var description: String {
            switch self {
            case .status(let status, let url): "HTTP \(status) for \(url.absoluteString)"
            case .transport(let error, let url): "\(error) for \(url.absoluteString)"
            case .malformed(let error, let url): "\(url.absoluteString) is malformed: \(error)"
            case .noVariant(let url): "\(url.absoluteString) lists no variant"
            case .notMedia(let url): "\(url.absoluteString) is not a media playlist"
            case .file(let reason, let url): "\(url.lastPathComponent) could not be read: \(reason)"
            }
        }
    }

    /// The largest playlist read (a playlist is text: 8 MB is a live window of tens of thousands of segments).
    static let maximumSize = 8 << 20

    /// Reads the media playlist libmpv plays: `url` itself, or the variant of a multivariant playlist libmpv picks
    /// (by `hls-bitrate`: the highest bandwidth within `maximumBandwidth`, else the lowest).
    /// - Parameters:
    ///   - url: the playlist the engine loads.
    ///   - maximumBandwidth: the cap on variants, if any.
    ///   - transport: the HTTP client.
    static func read(_ url: URL, maximumBandwidth: Int?, transport: any HTTPTransport) async throws(ReadError) -> StreamPlaylist {
        switch try await fetch(url, transport: transport) {
        case .media(let playlist):
            return StreamPlaylist(url: url, playlist: playlist, dates: ProgramDateTimeMap(playlist))
        case .multivariant(let multivariant):
            let listed = multivariant.variants.enumerated().compactMap { index, variant -> VariantInfo? in
                guard let variantURL = URL(string: variant.uri, relativeTo: url)?.absoluteURL else { return nil }
                return VariantInfo(index: index, bandwidth: variant.bandwidth, averageBandwidth: variant.averageBandwidth,
                                   width: variant.resolution?.width, height: variant.resolution?.height,
                                   codecs: variant.codecs, url: variantURL.absoluteString)
            }
            let ordered = listed.sorted { ($0.bandwidth, $0.index) < ($1.bandwidth, $1.index) }
            let within = ordered.last { variant in maximumBandwidth.map { variant.bandwidth <= $0 } ?? true }
            guard let variant = within ?? ordered.first, let media = URL(string: variant.url) else { throw .noVariant(url) }
            guard case .media(let playlist) = try await fetch(media, transport: transport) else { throw .noVariant(url) }
            var stream = StreamPlaylist(url: media, playlist: playlist, dates: ProgramDateTimeMap(playlist))
            stream.variants = listed
            stream.variantIndex = listed.firstIndex(of: variant)
            return stream
        }
    }

    /// Reads a media playlist again (a live one's refresh).
    static func readMedia(_ url: URL, transport: any HTTPTransport) async throws(ReadError) -> MediaPlaylist {
        guard case .media(let playlist) = try await fetch(url, transport: transport) else { throw .notMedia(url) }
        return playlist
    }

    private static func fetch(_ url: URL, transport: any HTTPTransport) async throws(ReadError) -> Playlist {
        if url.isFileURL { return try read(file: url) }
        let response: HTTPResponse
        do {
            response = try await transport.send(HTTPRequest(url: url, timeout: .seconds(10), maximumBodySize: maximumSize))
        } catch {
            throw .transport(error, url)
        }
        guard (200..<300).contains(response.status) else { throw .status(response.status, url) }
        do {
            return try PlaylistParser().parse(bytes: response.body)
        } catch {
            throw .malformed(error, url)
        }
    }

    /// A playlist written to a file (a DASH presentation's, ``DASHBridge``): read whole, up to ``maximumSize``.
    private static func read(file url: URL) throws(ReadError) -> Playlist {
        let bytes: [UInt8]
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            bytes = Array(try handle.read(upToCount: maximumSize + 1) ?? Data())
        } catch {
            throw .file("\(error)", url)
        }
        guard bytes.count <= maximumSize else { throw .file("larger than \(maximumSize) bytes", url) }
        do {
            return try PlaylistParser().parse(bytes: bytes)
        } catch {
            throw .malformed(error, url)
        }
    }

    /// Where the playlist's first segment lies on the engine's timeline: 0 for on-demand and for the first playlist
    /// of a live stream; each live refresh moves it on by the segments that left the window.
    private(set) var origin = MediaTime.zero

    /// Where each segment starts on the playlist's own timeline (which starts at its first segment), and the end
    /// of the last: `starts[i]` for the `i`th segment.
    private(set) var starts: [MediaTime]

    init(url: URL, playlist: MediaPlaylist, dates: ProgramDateTimeMap) {
        self.url = url
        self.playlist = playlist
        self.dates = dates
        starts = Self.starts(of: playlist)
    }

    private static func starts(of playlist: MediaPlaylist) -> [MediaTime] {
        var starts = [MediaTime.zero]
        starts.reserveCapacity(playlist.segments.count + 1)
        for segment in playlist.segments { starts.append(starts[starts.count - 1] + MediaTime(seconds: segment.duration)) }
        return starts
    }

    /// Whether the stream is live (its playlist may still grow): no `EXT-X-ENDLIST`, not a VOD playlist.
    var isLive: Bool { !playlist.isFinished }

    /// The segments the playlist lists, on the engine's timeline: the window a live viewer may seek in.
    var window: MediaTimeRange {
        MediaTimeRange(start: origin, end: origin + (starts.last ?? .zero))
    }

    /// Takes a newer version of a live playlist: its first segment is placed by its media sequence number, where
    /// the same segment lay in this one, or after this one's end (segments missed between two reads are counted at
    /// the target duration each).
    mutating func refresh(with newer: MediaPlaylist) {
        let oldFirst = playlist.segments.first?.mediaSequence ?? playlist.mediaSequence
        let newFirst = newer.segments.first?.mediaSequence ?? newer.mediaSequence
        let index = newFirst - oldFirst
        if playlist.segments.indices.contains(index) {
            origin += starts[index]
        } else {
            origin += (starts.last ?? .zero) + targetDuration * Double(index - playlist.segments.count)
        }
        playlist = newer
        dates = ProgramDateTimeMap(newer)
        starts = Self.starts(of: newer)
    }

    /// Where a segment, by its media sequence number, lies on the timeline, and its date.
    func placement(sequence: Int) -> InterstitialSchedule.SegmentPlacement? {
        guard let index = index(ofSequence: sequence) else { return nil }
        return .init(start: origin + starts[index], date: dates.date(at: starts[index]))
    }

    private func index(ofSequence sequence: Int) -> Int? {
        guard let first = playlist.segments.first else { return nil }
        let index = sequence - first.mediaSequence
        return playlist.segments.indices.contains(index) ? index : nil
    }

    /// The segment whose resolved address is `url`, by its media sequence number.
    func sequence(of url: String) -> Int? {
        playlist.segments.first { URL(string: $0.uri, relativeTo: self.url)?.absoluteString == url }?.mediaSequence
    }

    /// The media sequence number of the segment covering a position (the first or the last one outside the window).
    func sequence(at position: MediaTime) -> Int? {
        guard let first = playlist.segments.first else { return nil }
        let own = position - origin
        var low = 0, high = playlist.segments.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= own { low = middle } else { high = middle - 1 }
        }
        return first.mediaSequence + low
    }

    /// How many segments the playlist lists from the one numbered `sequence` to its end, that one included.
    func segmentsFromEnd(sequence: Int) -> Int? {
        index(ofSequence: sequence).map { playlist.segments.count - $0 }
    }

    /// The segment boundary nearest a position (`X-SNAP=IN`); the position itself outside the playlist.
    func nearestSegmentBoundary(to position: MediaTime) -> MediaTime {
        let own = position - origin
        // The first start after the position: the boundary before it is the one just before that.
        var low = 0, high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= own { low = middle + 1 } else { high = middle }
        }
        guard low > 0, low < starts.count else { return position }
        let before = starts[low - 1], after = starts[low]
        return origin + (own - before <= after - own ? before : after)
    }

    /// The stream date at a time of the engine's timeline.
    func date(at time: MediaTime) -> StreamDate? { dates.date(at: time - origin) }

    /// The time of the engine's timeline at a stream date.
    func time(at date: StreamDate) -> MediaTime? { dates.time(at: date).map { $0 + origin } }

    /// The playlist's target duration.
    var targetDuration: MediaTime { MediaTime(seconds: Double(playlist.targetDuration)) }
}
#endif
