#if MPV
import Foundation
import PlaytraceCore
import PlaytraceHeadless
import PlaytraceHLS
import PlaytraceNetwork
import PlaytracePlayer

/// What libmpv does not tell of an HLS stream, read from the stream's own media playlist: its program date time,
/// the ad breaks it signals (SCTE-35 date ranges, cue tags, interstitials), its target duration. FFmpeg's HLS reader,
/// which libmpv plays through, reads these tags and keeps none of them.
struct StreamPlaylist: Sendable {
    /// The media playlist's address.
    let url: URL
    let playlist: MediaPlaylist
    let dates: ProgramDateTimeMap
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

        var description: String {
            switch self {
            case .status(let status, let url): "HTTP \(status) for \(url.absoluteString)"
            case .transport(let error, let url): "\(error) for \(url.absoluteString)"
            case .malformed(let error, let url): "\(url.absoluteString) is malformed: \(error)"
            case .noVariant(let url): "\(url.absoluteString) lists no variant"
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

    private static func fetch(_ url: URL, transport: any HTTPTransport) async throws(ReadError) -> Playlist {
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

    /// The ad breaks the playlist signals, as the engine reports them (worked out once, when the playlist is read).
    let adBreaks: [SignalledAdBreak]

    /// Where each segment starts on the playlist's timeline (libmpv's, which starts at the first segment), and the
    /// end of the last: `starts[i]` for the `i`th segment.
    let starts: [Double]

    init(url: URL, playlist: MediaPlaylist, dates: ProgramDateTimeMap) {
        self.url = url
        self.playlist = playlist
        self.dates = dates
        var starts = [0.0]
        starts.reserveCapacity(playlist.segments.count + 1)
        for segment in playlist.segments { starts.append(starts[starts.count - 1] + segment.duration) }
        self.starts = starts
        adBreaks = playlist.adBreaks(dates: dates).map { signal in
            SignalledAdBreak(id: signal.id, source: signal.source.rawValue, start: signal.startTime,
                             startDate: signal.startDate, duration: signal.duration, isClosed: signal.isClosed)
        }
    }

    /// Where a segment, by its media sequence number, lies on the timeline, and its date.
    func placement(sequence: Int) -> InterstitialSchedule.SegmentPlacement? {
        guard let first = playlist.segments.first else { return nil }
        let index = sequence - first.mediaSequence
        guard playlist.segments.indices.contains(index) else { return nil }
        return .init(start: starts[index], date: dates.date(at: MediaTime(seconds: starts[index])))
    }

    /// The segment boundary nearest a position (`X-SNAP=IN`); the position itself outside the playlist.
    func nearestSegmentBoundary(to position: Double) -> Double {
        // The first start after the position: the boundary before it is the one just before that.
        var low = 0, high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= position { low = middle + 1 } else { high = middle }
        }
        guard low > 0, low < starts.count else { return position }
        let before = starts[low - 1], after = starts[low]
        return position - before <= after - position ? before : after
    }

    /// The stream date at a time of libmpv's timeline (which, like the playlist's, starts at the first segment).
    func date(at time: MediaTime) -> StreamDate? { dates.date(at: time) }

    /// The playlist's target duration.
    var targetDuration: MediaTime { MediaTime(seconds: Double(playlist.targetDuration)) }
}
#endif
