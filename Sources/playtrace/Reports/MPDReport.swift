import Foundation
import PlaytraceCore
import PlaytraceDASH
import PlaytraceHLS

/// `inspect`'s report of an MPEG-DASH MPD: the presentation's timing and update rules, each period placed on the
/// timeline with its adaptation sets, representations (inherited attributes, addressing, first and last segment
/// with their URLs, and in a live presentation the segments available now), its event streams (SCTE-35 decoded),
/// and every problem with its line.
struct MPDReport: Encodable {
    struct UTCTimingEntry: Encodable {
        var scheme: String
        var value: String
        /// Whether Playtrace can synchronise its clock with it (http-iso, http-xsdate, http-head, direct).
        var usable: Bool
    }

    /// The clock a live MPD's availability was computed at.
    struct ClockEntry: Encodable {
        /// `UTCTiming <method> <url>`, `UTCTiming direct`, or this machine's clock (and why).
        var source: String
        /// How far the server's clock is ahead of this machine's (0 for this machine's clock).
        var offsetSeconds: Double
    }

    struct SegmentEntry: Encodable {
        var number: Int64
        var startSeconds: Double
        var durationSeconds: Double
        /// At the first base URL.
        var url: String
        var byteRange: String?
    }

    /// A live representation's segments that exist at the time of the inspection.
    struct AvailableEntry: Encodable {
        var firstNumber: Int64
        var lastNumber: Int64
        var count: Int64
        /// The newest available segment's end, and the wall clock's live edge (now − availabilityStartTime), on
        /// the MPD's timeline: far apart, the origin's timeline and the clock disagree.
        var newestEndSeconds: Double
        var liveEdgeSeconds: Double
    }

    /// A `ProducerReferenceTime`: when the producer made one presentation time.
    struct ProducerReferenceEntry: Encodable {
        var id: Int64
        /// `encoder`, `captured` or `application`.
        var type: String
        /// Whether the segments carry it as `prft` boxes.
        var inband: Bool
        var presentationTimeTicks: Int64
        /// On the MPD's timeline: the period's start + (presentationTime − presentationTimeOffset) / timescale.
        var presentationSeconds: Double
        /// As written, and read as a date when its clock's format is one.
        var wallClockTime: String
        var wallClock: String?
        /// Live: the wall clock less the time the MPD's timeline gives that presentation time
        /// (availabilityStartTime + presentationSeconds); positive when the producer made it after.
        var timelineOffsetSeconds: Double?
    }

    struct RepresentationEntry: Encodable {
        var id: String
        var bandwidthBitsPerSecond: Int64?
        var codecs: String?
        var mimeType: String?
        var width: Int64?
        var height: Int64?
        var frameRate: String?
        var audioSamplingRate: String?
        /// `template-duration`, `template-timeline`, `list-duration`, `list-timeline`, `single` (a SegmentBase or the
        /// base URL alone).
        var addressing: String
        var timescale: Int64
        var presentationTimeOffsetTicks: Int64
        var startNumber: Int64
        /// Absent when the period has no end (a live period addressed by @duration).
        var segmentCount: Int64?
        var initialization: String?
        /// The period's first and last segments; in a live presentation, the oldest and newest available now (when
        /// none is, the first and last listed).
        var firstSegment: SegmentEntry?
        var lastSegment: SegmentEntry?
        var available: AvailableEntry?
        var baseURLs: [String]
        var producerReferenceTimes: [ProducerReferenceEntry]
    }

    struct AdaptationSetEntry: Encodable {
        var id: String?
        var kind: String
        var lang: String?
        var roles: [String]
        var accessibility: [String]
        var labels: [String]
        var contentProtection: [String]
        var inbandEventStreams: [String]
        var representations: [RepresentationEntry]
    }

    struct EventEntry: Encodable {
        var id: String?
        /// On the MPD's timeline: the period's start + (presentationTime − presentationTimeOffset) / timescale.
        var startSeconds: Double
        var durationSeconds: Double?
        var presentationTimeTicks: Int64
        /// `none`, `text`, `binary` or `scte35-xml`.
        var content: String
        var text: String?
        var scte35: InspectionReport.SCTE35Report?
    }

    struct EventStreamEntry: Encodable {
        var schemeIdUri: String
        var value: String?
        var timescale: Int64
        var events: [EventEntry]
    }

    struct PeriodEntry: Encodable {
        var id: String
        var startSeconds: Double
        var endSeconds: Double?
        var durationSeconds: Double?
        var assetIdentifier: String?
        /// The `Period@id` this period continues (`urn:mpeg:dash:period-continuity:2015`) or connects to
        /// (`…period-connectivity:2015`).
        var continues: String?
        var connects: String?
        var adaptationSets: [AdaptationSetEntry]
        var eventStreams: [EventStreamEntry]
    }

    var schemaVersion = InspectJSON.schemaVersion
    var source: String
    var bytes: Int
    var kind = "mpd"
    var type: String
    var profiles: [String]
    var availabilityStartTime: String?
    var publishTime: String?
    var mediaPresentationDurationSeconds: Double?
    var minimumUpdatePeriodSeconds: Double?
    var timeShiftBufferDepthSeconds: Double?
    var suggestedPresentationDelaySeconds: Double?
    var minBufferTimeSeconds: Double?
    var maxSegmentDurationSeconds: Double?
    var locations: [String]
    var utcTimings: [UTCTimingEntry]
    /// The wall clock the live availability was computed at (absent for an on-demand MPD), and whose it is.
    var inspectedAt: String?
    var clock: ClockEntry?
    var periods: [PeriodEntry]
    var problems: [String]
    /// Why nothing can be played (no period, or no representation whose segments can be named).
    var unusable: String?

    init(_ presentation: ResolvedPresentation, source: String, size: Int, now: StreamDate) {
        let written = presentation.written
        self.source = source
        bytes = size
        type = written.type.rawValue
        profiles = written.profiles
        availabilityStartTime = written.availabilityStartTime?.iso8601Milliseconds
        publishTime = written.publishTime?.iso8601Milliseconds
        mediaPresentationDurationSeconds = written.mediaPresentationDuration.map(Self.seconds)
        minimumUpdatePeriodSeconds = written.minimumUpdatePeriod.map(Self.seconds)
        timeShiftBufferDepthSeconds = written.timeShiftBufferDepth.map(Self.seconds)
        suggestedPresentationDelaySeconds = written.suggestedPresentationDelay.map(Self.seconds)
        minBufferTimeSeconds = written.minBufferTime.map(Self.seconds)
        maxSegmentDurationSeconds = written.maxSegmentDuration.map(Self.seconds)
        locations = written.locations
        utcTimings = written.utcTimings.map { timing in
            switch timing.scheme {
            case .httpISO: UTCTimingEntry(scheme: "http-iso", value: timing.value, usable: true)
            case .httpXSDate: UTCTimingEntry(scheme: "http-xsdate", value: timing.value, usable: true)
            case .httpHead: UTCTimingEntry(scheme: "http-head", value: timing.value, usable: true)
            case .direct: UTCTimingEntry(scheme: "direct", value: timing.value, usable: true)
            case .ntp(let uri), .other(let uri): UTCTimingEntry(scheme: uri, value: timing.value, usable: false)
            }
        }
        let live = presentation.type == .dynamic && presentation.availabilityStartTime != nil
        inspectedAt = live ? now.iso8601Milliseconds : nil
        let liveEdge = presentation.availabilityStartTime.map { now.secondsSince1970 - $0.secondsSince1970 }
        periods = presentation.periods.map { period in
            PeriodEntry(period, live: live ? (presentation, now, liveEdge ?? 0) : nil)
        }
        problems = presentation.problems.map(\.description)
        if presentation.periods.isEmpty {
            unusable = "no period is part of the presentation"
        } else if presentation.periods.allSatisfy({ $0.adaptationSets.allSatisfy(\.representations.isEmpty) }) {
            unusable = "no representation's segments can be named"
        }
    }

    static func seconds(_ duration: Duration) -> Double { MediaTime(duration).seconds }
}

extension MPDReport.PeriodEntry {
    init(_ period: ResolvedPeriod, live: (ResolvedPresentation, StreamDate, Double)?) {
        id = period.id
        startSeconds = MPDReport.seconds(period.start)
        endSeconds = period.end.map(MPDReport.seconds)
        durationSeconds = period.duration.map(MPDReport.seconds)
        assetIdentifier = period.assetIdentifier.map { $0.text }
        // Written on the period, or (as ISO/IEC 23009-1 5.3.2.4 places them) on its adaptation sets.
        let properties = period.supplementalProperties
            + period.adaptationSets.flatMap { $0.representations.flatMap(\.attributes.supplementalProperties) }
        continues = properties.first { $0.schemeIdURI == "urn:mpeg:dash:period-continuity:2015" }?.value
        connects = properties.first { $0.schemeIdURI == "urn:mpeg:dash:period-connectivity:2015" }?.value
        adaptationSets = period.adaptationSets.map { set in
            let protection = set.representations.flatMap(\.attributes.contentProtection)
            let inband = set.representations.flatMap(\.attributes.inbandEventStreams)
            return MPDReport.AdaptationSetEntry(
                id: set.id, kind: set.kind.rawValue, lang: set.lang,
                roles: set.roles.compactMap(\.value), accessibility: set.accessibility.map { $0.text },
                labels: set.labels,
                contentProtection: Self.unique(protection.map { $0.text }),
                inbandEventStreams: Self.unique(inband.map { $0.text }),
                representations: set.representations.map { MPDReport.RepresentationEntry($0, periodStart: period.start, live: live) })
        }
        eventStreams = period.eventStreams.map { stream in
            let timescale = Timescale(stream.timescale)
            return MPDReport.EventStreamEntry(
                schemeIdUri: stream.schemeIdURI, value: stream.value, timescale: timescale.ticksPerSecond,
                events: stream.events.map { event in
                    let offset = timescale.duration(ofTicks: event.presentationTime) - timescale.duration(ofTicks: stream.presentationTimeOffset)
                    var entry = MPDReport.EventEntry(
                        id: event.id, startSeconds: MPDReport.seconds(period.start + offset),
                        durationSeconds: event.duration.map { MPDReport.seconds(timescale.duration(ofTicks: $0)) },
                        presentationTimeTicks: event.presentationTime, content: "none")
                    switch event.content {
                    case .none: break
                    case .text(let text):
                        entry.content = "text"
                        entry.text = text
                    case .binary(let bytes):
                        entry.content = "binary"
                        let encoded = Data(bytes).base64EncodedString()
                        if stream.isSCTE35 { entry.scte35 = InspectionReport.SCTE35Report(encoded: encoded) } else { entry.text = encoded }
                    case .scte35XML(let text):
                        entry.content = "scte35-xml"
                        entry.text = text
                    }
                    return entry
                })
        }
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }
}

extension MPDReport.RepresentationEntry {
    init(_ representation: ResolvedRepresentation, periodStart: Duration, live: (ResolvedPresentation, StreamDate, Double)?) {
        let attributes = representation.attributes
        let segments = representation.segments
        let addressing = segments.addressing
        id = representation.id
        bandwidthBitsPerSecond = representation.bandwidth
        codecs = attributes.codecs
        mimeType = attributes.mimeType
        width = attributes.width
        height = attributes.height
        frameRate = attributes.frameRate?.description
        audioSamplingRate = attributes.audioSamplingRate
        self.addressing = switch addressing.scheme {
        case .template(_, .timeline): "template-timeline"
        case .template: "template-duration"
        case .list(_, .timeline): "list-timeline"
        case .list: "list-duration"
        case .single: "single"
        }
        timescale = addressing.timescale.ticksPerSecond
        presentationTimeOffsetTicks = addressing.presentationTimeOffset
        startNumber = addressing.startNumber
        segmentCount = segments.count
        baseURLs = representation.baseURLs.map(\.url.absoluteString)
        let bases = representation.baseURLs
        func entry(_ reference: SegmentReference?) -> MPDReport.SegmentEntry? {
            reference.map {
                MPDReport.SegmentEntry(number: $0.number, startSeconds: MPDReport.seconds($0.start),
                                       durationSeconds: MPDReport.seconds($0.duration),
                                       url: $0.urls(at: bases).first?.absoluteString ?? $0.path ?? "",
                                       byteRange: $0.byteRange?.description)
            }
        }
        initialization = segments.initialization.flatMap { $0.urls(at: bases).first?.absoluteString }
        producerReferenceTimes = attributes.producerReferenceTimes.map { reference in
            let start = periodStart + addressing.periodOffset(ofPresentationTime: reference.presentationTime)
            var offset: Double?
            if let wallClock = reference.wallClock, let availabilityStart = live?.0.availabilityStartTime {
                offset = wallClock.secondsSince1970 - (availabilityStart.secondsSince1970 + MPDReport.seconds(start))
            }
            return MPDReport.ProducerReferenceEntry(
                id: reference.id, type: reference.kind.rawValue, inband: reference.inband,
                presentationTimeTicks: reference.presentationTime, presentationSeconds: MPDReport.seconds(start),
                wallClockTime: reference.wallClockTime, wallClock: reference.wallClock?.iso8601Milliseconds,
                timelineOffsetSeconds: offset)
        }
        firstSegment = entry(segments.segment(at: 0))
        lastSegment = segments.count.flatMap { $0 > 1 ? entry(segments.segment(at: $0 - 1)) : nil }
        if let (presentation, now, edge) = live {
            // Live: the window's oldest and newest segments, not the period's first (long gone), when any is
            // available; else the segments as listed, for the reader to compare with the clock.
            let offset = bases.first?.availabilityTimeOffset ?? 0
            let window = AvailabilityWindow(presentation, at: now, availabilityTimeOffset: offset + addressing.availabilityTimeOffset)
            if let range = window.available(in: segments), let first = segments.segment(at: range.lowerBound),
               let last = segments.segment(at: range.upperBound) {
                let (count, overflow) = (range.upperBound - range.lowerBound).addingReportingOverflow(1)
                available = MPDReport.AvailableEntry(firstNumber: first.number, lastNumber: last.number,
                                                     count: overflow ? Int64.max : count,
                                                     newestEndSeconds: MPDReport.seconds(last.end), liveEdgeSeconds: edge)
                (firstSegment, lastSegment) = (entry(first), entry(last))
            }
        }
    }
}

extension Descriptor {
    /// The scheme and value, as the report lists a descriptor.
    var text: String { [schemeIdURI, value].compactMap { $0 }.joined(separator: " ") }
}
