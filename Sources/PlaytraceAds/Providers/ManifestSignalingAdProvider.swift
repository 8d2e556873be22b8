public import Foundation
public import PlaytraceCore
public import PlaytraceNetwork
import PlaytraceDASH
import PlaytraceHLS
public import PlaytracePlayer

/// Ad tracking from the stream's own manifest: SVTA2053 ad creative signaling (`X-AD-CREATIVE-SIGNALING` on
/// `EXT-X-DATERANGE`, as MediaTailor's ad-ID signaling writes it; on DASH, the JSON of an MPD's ad-ID or
/// ad-creative signaling `EventStream` events), with no tracking API.
///
/// The session plays the URL it is given; its "metadata" is the media playlist (a multivariant playlist's first
/// variant), fetched at once and, for a live stream, again every target duration. Each date range with the
/// attribute becomes breaks on the program-date-time timeline (``AdCreativeSignalingDecoder``); what a response
/// covers is the playlist's dated span.
@MainActor
public final class ManifestSignalingAdProvider: AdMetadataProvider {
    private let transport: any HTTPTransport
    private let stopwatch: Stopwatch
    private let limits: AdMetadataLimits
    /// The deadline of each request.
    public var requestTimeout: Duration = .seconds(5)
    /// The longest wait between two attempts after failures (the wait doubles from one second).
    public var maximumRetryDelay: Duration = .seconds(30)

    public init(transport: any HTTPTransport, clock: any Clock<Duration> = ContinuousClock(),
                limits: AdMetadataLimits = AdMetadataLimits()) {
        self.transport = transport
        stopwatch = Stopwatch(clock: clock)
        self.limits = limits
    }

    /// Why the manifest could not be read.
    enum Failure: Error, CustomStringConvertible {
        case request(String)
        case status(Int)
        case playlist(String)

        var description: String {
            switch self {
            case .request(let reason): "the manifest request failed: \(reason)"
            case .status(let status): "the manifest request failed with HTTP \(status)"
            case .playlist(let reason): "the manifest is not a usable playlist: \(reason)"
            }
        }
    }

    /// A manifest: an HLS playlist, or an MPD.
    enum Manifest {
        case playlist(Playlist)
        case mpd(ResolvedPresentation)
    }

    private func manifest(at url: URL) async -> Result<(Manifest, URL), Failure> {
        let response: HTTPResponse
        do {
            response = try await transport.send(HTTPRequest(url: url, timeout: requestTimeout, maximumBodySize: limits.maximumBodyBytes * 4))
        } catch {
            return .failure(.request(error.description))
        }
        guard response.isSuccess else { return .failure(.status(response.status)) }
        if MPDDetection.isMPD(response.body) {
            do {
                return .success((.mpd(ResolvedPresentation(try MPDParser().parse(Data(response.body)), url: response.url)), response.url))
            } catch {
                return .failure(.playlist("\(error)"))
            }
        }
        do {
            return .success((.playlist(try PlaylistParser().parse(bytes: response.body)), response.url))
        } catch {
            return .failure(.playlist("\(error)"))
        }
    }

    /// The manifest the set-up fetched when it is the metadata itself (an MPD, a media playlist): the first delivery
    /// reads it instead of fetching it again at once.
    private var fetchedAtSetUp: (manifest: Manifest, url: URL)?

    public func setUp(mediaUrl: URL, isInitRequest: Bool, now: StreamDate) async -> (info: SessionInfo?, failures: [AdSessionError]) {
        let step = "manifest GET"
        let fetched = await manifest(at: mediaUrl)
        fetchedAtSetUp = nil
        if case .success(let answer) = fetched {
            switch answer.0 {
            case .mpd, .playlist(.media): fetchedAtSetUp = (answer.0, answer.1)
            case .playlist(.multivariant): break
            }
        }
        switch fetched {
        case .success((.mpd, let url)):
            // The MPD is the metadata itself.
            return (SessionInfo(localSessionId: now.iso8601Milliseconds, mediaUrl: mediaUrl, manifestUrl: mediaUrl,
                                adTrackingMetadataUrl: url, obtainedBy: step), [])
        case .success((.playlist(.multivariant(let multivariant)), let url)):
            guard let first = multivariant.variants.first, let variant = URL(string: first.uri, relativeTo: url)?.absoluteURL else {
                return (nil, [.transport(step: step, reason: "the multivariant playlist has no variant")])
            }
            return (SessionInfo(localSessionId: now.iso8601Milliseconds, mediaUrl: mediaUrl, manifestUrl: mediaUrl,
                                adTrackingMetadataUrl: variant, obtainedBy: step), [])
        case .success((.playlist(.media), let url)):
            return (SessionInfo(localSessionId: now.iso8601Milliseconds, mediaUrl: mediaUrl, manifestUrl: mediaUrl,
                                adTrackingMetadataUrl: url, obtainedBy: step), [])
        case .failure(let failure):
            return (nil, [.transport(step: step, reason: failure.description)])
        }
    }

    public func deliverMetadata(of info: SessionInfo, to session: AdBeaconingSession) async {
        var failures = 0
        while !Task.isCancelled {
            let result: Result<(Manifest, URL), Failure>
            if let fetched = fetchedAtSetUp.take(), fetched.url == info.adTrackingMetadataUrl {
                result = .success((fetched.manifest, fetched.url))
            } else {
                session.metadataRequestsInFlight += 1
                result = await manifest(at: info.adTrackingMetadataUrl)
                session.metadataRequestsInFlight -= 1
            }
            let wait: Duration
            switch result {
            case .success((.playlist(.media(let media)), _)):
                failures = 0
                session.apply(metadata(of: media))
                session.metadataAttemptFinished()
                if media.isFinished || Task.isCancelled { return }
                wait = .seconds(max(media.targetDuration, 1))
            case .success((.mpd(let presentation), _)):
                failures = 0
                session.apply(DASHSignalingReader(decoder: AdCreativeSignalingDecoder(limits: limits)).metadata(of: presentation))
                session.metadataAttemptFinished()
                // An on-demand MPD does not change; a live one is read again when it says it may have.
                guard presentation.type == .dynamic, !Task.isCancelled else { return }
                wait = max(.seconds(1), presentation.written.minimumUpdatePeriod ?? .seconds(2))
            case .success((.playlist(.multivariant), _)):
                session.metadataFailures += 1
                session.note(Failure.playlist("a media playlist was expected"))
                session.metadataAttemptFinished()
                return
            case .failure(let failure):
                failures += 1
                session.metadataFailures += 1
                session.note(failure)
                session.metadataAttemptFinished()
                wait = min(.seconds(1) * (1 << min(failures - 1, 16)), maximumRetryDelay)
            }
            do { try await stopwatch.sleep(for: wait) } catch { return }
        }
    }

    /// The ads of a break the media signals in-band (SVTA2053 in a DASH segment's `emsg`), dated where the player
    /// placed the break: the same reading as an MPD event's.
    public func inbandMetadata(of adBreak: SignalledAdBreak) -> AdMetadata? {
        guard let json = adBreak.creativeSignaling else { return nil }
        guard let date = adBreak.startDate else {
            let problem = AdMetadataProblem(path: adBreak.id, message: "the break has no date: its signaling cannot be "
                                                + "placed on the program-date-time timeline")
            return AdMetadata(pods: [], timeline: .programDateTime, problems: [problem])
        }
        let decoded = AdCreativeSignalingDecoder(limits: limits).decode(json: Data(json.utf8), id: adBreak.id, date: date,
                                                                        carrier: "the emsg")
        return AdMetadata(pods: Array(decoded.pods.prefix(limits.maximumPods)), timeline: .programDateTime,
                          problems: decoded.problems)
    }

    /// The breaks a media playlist signals.
    func metadata(of media: MediaPlaylist) -> AdMetadata {
        let decoder = AdCreativeSignalingDecoder(limits: limits)
        var pods: [AdPod] = []
        var problems: [AdMetadataProblem] = []
        var firstDate: StreamDate?
        var lastEnd: StreamDate?
        for segment in media.segments {
            if let date = segment.tags.programDateTime {
                firstDate = firstDate ?? date
                lastEnd = date + MediaTime(seconds: segment.duration)
            } else if let end = lastEnd {
                lastEnd = end + MediaTime(seconds: segment.duration)
            }
        }
        // Tags with one ID are one range (RFC 8216bis §4.4.5.1): the signaling may come in any of them.
        for range in DateRange.merged(media.dateRanges) {
            guard let value = range.clientAttributes[AdCreativeSignalingDecoder.attribute]?.text else { continue }
            let decoded = decoder.decode(base64: value, id: range.id, date: range.startDate)
            pods += decoded.pods
            problems += decoded.problems
            if pods.count > limits.maximumPods { break }
        }
        let range = firstDate.flatMap { first in
            lastEnd.map { DataRange(start: AdTime(first), end: AdTime($0)) }
        }
        return AdMetadata(pods: Array(pods.sorted { $0.startTime < $1.startTime }.prefix(limits.maximumPods)),
                          dataRange: range, timeline: .programDateTime, problems: problems)
    }
}
