public import Foundation
public import PlaytraceCore

/// An MPD resolved for playback: each period placed on the timeline (ISO/IEC 23009-1 5.3.2.1), each
/// representation with its inherited attributes, its base URLs resolved against the MPD's URL and its segments
/// indexed lazily. What a player keys on is an id, never a position: a period or representation without one is
/// given `index-<n>`, listed.
///
/// ```swift
/// let presentation = try ResolvedPresentation(MPDParser().parse(data), url: mpdURL)
/// for period in presentation.periods {
///     let video = period.adaptationSets.first { $0.kind == .video }
///     let first = video?.representations.first?.segments.segment(at: 0)
///     print(period.id, period.start, first?.path ?? "-")
/// }
/// ```
public struct ResolvedPresentation: Sendable, Hashable {
    public var type: MediaPresentation.PresentationType
    /// The URL the MPD was fetched from (after redirects): the base of every relative `BaseURL`.
    public var url: URL
    public var availabilityStartTime: StreamDate?
    /// `mediaPresentationDuration`, else the last period's end, when known.
    public var duration: Duration?
    public var periods: [ResolvedPeriod]
    /// The parser's problems, then the resolution's, each once.
    public var problems: [MPDProblem]
    /// The MPD as written, for what resolution does not change (`UTCTiming`, `Location`, refresh and delays).
    public var written: MediaPresentation

    public init(_ presentation: MediaPresentation, url: URL) {
        var problems = presentation.problems
        let timing = PeriodTiming(presentation)
        problems += timing.problems
        let roots = BaseURLResolution.resolve(presentation.baseURLs, against: [ResolvedBaseURL(url: url)], line: 0,
                                              problems: &problems)
        var seenIDs = Set<String>()
        var periods: [ResolvedPeriod] = []
        for placed in timing.periods {
            let written = presentation.periods[placed.index]
            var id = written.id ?? "index-\(placed.index)"
            if written.id == nil {
                problems.append(MPDProblem(line: written.line, "a period without @id is known as \(id)"))
            }
            if !seenIDs.insert(id).inserted {
                id += "@\(placed.index)"
                problems.append(MPDProblem(line: written.line, "a second period with the same @id is known as \(id)"))
            }
            periods.append(ResolvedPeriod(written, id: id, start: placed.start, end: placed.end, bases: roots,
                                          problems: &problems))
        }
        self.type = presentation.type
        self.url = url
        self.availabilityStartTime = presentation.availabilityStartTime
        self.duration = presentation.mediaPresentationDuration ?? periods.last?.end
        self.periods = periods
        var seen = Set<MPDProblem>()
        self.problems = problems.filter { seen.insert($0).inserted }
        self.written = presentation
    }

    /// The period playing at `time` (MPD time).
    public func period(at time: Duration) -> ResolvedPeriod? {
        periods.last { $0.start <= time && ($0.end.map { time < $0 } ?? true) }
    }
}

/// A period placed on the presentation's timeline.
public struct ResolvedPeriod: Sendable, Hashable {
    /// `@id`, or `index-<n>` when it has none.
    public var id: String
    public var start: Duration
    /// `nil`: open (the last period of a live presentation).
    public var end: Duration?
    public var adaptationSets: [ResolvedAdaptationSet]
    public var eventStreams: [EventStream]
    /// The period-continuity and period-connectivity properties, among its other supplemental properties.
    public var supplementalProperties: [Descriptor]
    public var assetIdentifier: Descriptor?
    public var line: Int

    public var duration: Duration? { end.map { $0 - start } }

    init(_ period: Period, id: String, start: Duration, end: Duration?, bases: [ResolvedBaseURL],
         problems: inout [MPDProblem]) {
        self.id = id
        self.start = start
        self.end = end
        self.eventStreams = period.eventStreams
        self.supplementalProperties = period.supplementalProperties
        self.assetIdentifier = period.assetIdentifier
        self.line = period.line
        let periodBases = BaseURLResolution.resolve(period.baseURLs, against: bases, line: period.line, problems: &problems)
        adaptationSets = period.adaptationSets.enumerated().map { index, set in
            ResolvedAdaptationSet(set, index: index, in: period, start: start, end: end, bases: periodBases,
                                  problems: &problems)
        }
    }
}

/// What an adaptation set carries.
public enum MediaKind: String, Sendable, Hashable, Codable {
    case video, audio, text, image, other
}

/// An adaptation set: one kind of media in one language and role, its representations interchangeable for ABR.
public struct ResolvedAdaptationSet: Sendable, Hashable {
    public var id: String?
    /// `@contentType`, else what `@mimeType` or `@codecs` say.
    public var kind: MediaKind
    public var lang: String?
    public var roles: [Descriptor]
    public var accessibility: [Descriptor]
    public var labels: [String]
    public var representations: [ResolvedRepresentation]
    public var line: Int

    init(_ set: AdaptationSet, index: Int, in period: Period, start: Duration, end: Duration?,
         bases: [ResolvedBaseURL], problems: inout [MPDProblem]) {
        id = set.id
        lang = set.lang
        roles = set.roles
        accessibility = set.accessibility
        labels = set.labels
        line = set.line
        let setBases = BaseURLResolution.resolve(set.baseURLs, against: bases, line: set.line, problems: &problems)
        var representations: [ResolvedRepresentation] = []
        for (position, representation) in set.representations.enumerated() {
            if let resolved = ResolvedRepresentation(representation, index: position, in: set, period: period,
                                                     start: start, end: end, bases: setBases, problems: &problems) {
                representations.append(resolved)
            }
        }
        self.representations = representations
        kind = Self.kind(contentType: set.contentType,
                         mimeType: set.common.mimeType ?? set.representations.lazy.compactMap(\.common.mimeType).first,
                         codecs: set.common.codecs ?? set.representations.lazy.compactMap(\.common.codecs).first)
    }

    /// `@contentType`, else the `@mimeType`'s type, else the codecs' (`stpp`, `wvtt`: text).
    static func kind(contentType: String?, mimeType: String?, codecs: String?) -> MediaKind {
        if let contentType, let kind = MediaKind(rawValue: contentType.lowercased()) { return kind }
        let codecs = codecs?.lowercased() ?? ""
        if codecs.hasPrefix("stpp") || codecs.hasPrefix("wvtt") { return .text }
        switch mimeType?.lowercased() {
        case let type? where type.hasPrefix("video/"): return .video
        case let type? where type.hasPrefix("audio/"): return .audio
        case let type? where type.hasPrefix("text/") || type == "application/ttml+xml": return .text
        case let type? where type.hasPrefix("image/"): return .image
        default: return .other
        }
    }
}

/// A representation: one encoding, with everything it inherits and its segments.
public struct ResolvedRepresentation: Sendable, Hashable {
    /// `@id`, or `index-<n>` when it has none.
    public var id: String
    /// `@bandwidth`, bits per second.
    public var bandwidth: Int64?
    /// Its own attributes, each else its adaptation set's (ISO/IEC 23009-1 5.3.7); descriptors of both.
    public var attributes: CommonAttributes
    /// Its segments' locations, the first to request, the rest to fail over to.
    public var baseURLs: [ResolvedBaseURL]
    public var segments: SegmentIndex
    public var line: Int

    init?(_ representation: Representation, index: Int, in set: AdaptationSet, period: Period, start: Duration,
          end: Duration?, bases: [ResolvedBaseURL], problems: inout [MPDProblem]) {
        id = representation.id ?? "index-\(index)"
        if representation.id == nil {
            problems.append(MPDProblem(line: representation.line, "a representation without @id is known as \(id)"))
        }
        bandwidth = representation.bandwidth
        attributes = representation.common.inheriting(set.common)
        line = representation.line
        baseURLs = BaseURLResolution.resolve(representation.baseURLs, against: bases, line: representation.line,
                                             problems: &problems)
        guard let addressing = SegmentAddressing.inherited(
            [representation.segmentInformation, set.segmentInformation, period.segmentInformation],
            periodDuration: end.map { $0 - start }, line: representation.line, problems: &problems) else { return nil }
        segments = SegmentIndex(addressing: addressing, periodStart: start, periodEnd: end, representationID: id,
                                bandwidth: bandwidth)
    }
}

extension CommonAttributes {
    /// These attributes, each else `parent`'s; descriptors of both, the parent's first.
    func inheriting(_ parent: CommonAttributes) -> CommonAttributes {
        var merged = self
        merged.mimeType = mimeType ?? parent.mimeType
        merged.codecs = codecs ?? parent.codecs
        merged.width = width ?? parent.width
        merged.height = height ?? parent.height
        merged.frameRate = frameRate ?? parent.frameRate
        merged.sar = sar ?? parent.sar
        merged.audioSamplingRate = audioSamplingRate ?? parent.audioSamplingRate
        merged.startWithSAP = startWithSAP ?? parent.startWithSAP
        merged.maxPlayoutRate = maxPlayoutRate ?? parent.maxPlayoutRate
        func both(_ path: KeyPath<CommonAttributes, [Descriptor]>) -> [Descriptor] {
            var seen = Set<Descriptor>()
            return (parent[keyPath: path] + self[keyPath: path]).filter { seen.insert($0).inserted }
        }
        merged.audioChannelConfiguration = audioChannelConfiguration.isEmpty ? parent.audioChannelConfiguration : audioChannelConfiguration
        merged.contentProtection = both(\.contentProtection)
        merged.essentialProperties = both(\.essentialProperties)
        merged.supplementalProperties = both(\.supplementalProperties)
        merged.inbandEventStreams = both(\.inbandEventStreams)
        var seen = Set<ProducerReferenceTime>()
        merged.producerReferenceTimes = (parent.producerReferenceTimes + producerReferenceTimes).filter { seen.insert($0).inserted }
        return merged
    }
}
