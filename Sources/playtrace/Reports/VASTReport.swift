import Foundation
import PlaytraceAds
import PlaytraceCore
import PlaytraceSession

/// `inspect`'s report of a VAST response: the requests of its wrapper chain, each ad it resolves to with its media
/// files, every tracking URL with its moment, its verifications, companions and non-linear ads, and the errors the
/// resolution would report (with their codes and the `<Error>` URLs they go to).
struct VASTReport: Encodable {
    struct Fetch: Encodable {
        var url: String
        var depth: Int
        var failure: String?
    }

    struct Tracking: Encodable {
        /// The event (`start`, `firstQuartile`, `progress-12`…; with its offset for one that never fires).
        var event: String
        /// `automatic` (fired when the playhead crosses `offsetInAdSeconds`), `playerInitiated` (when the viewer
        /// acts: pause, mute, a click…) or `other`.
        var trigger: String
        /// When it fires, seconds into the ad (0 for the first frame's events); absent for the viewer's actions.
        var offsetInAdSeconds: Double?
        /// False for tracking that never fires: a progress the ad cannot reach, an event Playtrace does not send.
        var fires: Bool
        var urls: [String]

        /// When it fires, as the text report says it.
        var moment: String {
            guard fires else { return "never" }
            if event == "clickTracking" { return "when clicked" }
            if trigger == "playerInitiated" { return "viewer action" }
            let offset = offsetInAdSeconds.map(Format.seconds) ?? "?"
            return switch event {
            case "impression", "creativeView", "loaded", "verificationNotExecuted": "first frame"
            case "complete": "end (\(offset))"
            default: offset
            }
        }
    }

    struct MediaFile: Encodable {
        var url: String
        var type: String?
        var delivery: String?
        var width: Int?
        var height: Int?
        var bitrateBitsPerSecond: Int?
        /// Whether Playtrace can play it (an HLS rendition).
        var playable: Bool
    }

    /// An ad's `Linear` `skipoffset`: seconds or a percentage of its duration (exactly one).
    struct SkipOffset: Encodable {
        var seconds: Double?
        var percent: Double?

        init(_ offset: VASTOffset) {
            switch offset {
            case .seconds(let value): seconds = value
            case .percent(let value): percent = value
            }
        }
    }

    /// An `AdVerifications` `Verification`: listed, never executed (it is reported with `verificationNotExecuted`).
    struct Verification: Encodable {
        var vendor: String?
        var resources: [String]
    }

    /// A companion or a non-linear ad: listed, never shown.
    struct Placement: Encodable {
        var id: String?
        var width: Int?
        var height: Int?
        var resources: [String]

        /// As the text report lists it: `id WxH: resources`.
        var text: String {
            "\(id ?? "-") \(width ?? 0)x\(height ?? 0): " + resources.joined(separator: "; ")
        }
    }

    struct AdEntry: Encodable {
        var id: String?
        var sequence: Int?
        var title: String?
        var adSystem: String?
        var adServingID: String?
        var universalAdID: String?
        var wrappers: [String]
        var durationSeconds: Double?
        var skipOffset: SkipOffset?
        var clickThrough: String?
        var mediaFiles: [MediaFile]
        var tracking: [Tracking]
        var errorURLs: [String]
        var verifications: [Verification]
        var companions: [Placement]
        var nonLinears: [Placement]
    }

    struct ErrorEntry: Encodable {
        var code: Int
        var message: String
        var urls: [String]
    }

    var schemaVersion = InspectJSON.schemaVersion
    var source: String
    var kind = "vast"
    var version: String
    var bytes: Int
    var chain: [Fetch]
    var ads: [AdEntry]
    var errors: [ErrorEntry]
    /// What the documents held that could not be read and was passed over, each at its line (a wrapper's answer's
    /// with its URL); the rest is kept.
    var problems: [String]

    init(_ document: VASTDocument, resolution: VASTResolution, source: String, size: Int) {
        self.source = source
        version = document.version
        bytes = size
        // The response itself, then the wrappers' requests.
        chain = [Fetch(url: source, depth: 0, failure: nil)]
            + resolution.fetches.map { Fetch(url: $0.url, depth: $0.depth, failure: $0.failure) }
        ads = resolution.ads.map(Self.entry)
        errors = resolution.errors.map { ErrorEntry(code: $0.code.rawValue, message: $0.message, urls: $0.urls) }
        problems = document.problems.map(\.description)
            + resolution.fetches.flatMap { fetch in fetch.problems.map { "\(fetch.url) \($0)" } }
    }

    private static func entry(_ resolved: ResolvedVASTAd) -> AdEntry {
        let linear = resolved.linear
        let duration = linear?.duration
        let adBreak = VASTAdBreak(id: "inspect", start: 0, ads: [(resolved, duration ?? 0, resolved.hlsMediaFile?.url)])
        var tracking = (adBreak.pod.ads.first?.trackingEvents ?? []).map { event -> Tracking in
            Tracking(event: event.event.rawValue, trigger: event.event.kind.rawValue,
                     offsetInAdSeconds: event.event.kind == .playerInitiated ? nil : event.startTime.seconds,
                     fires: true, urls: event.signalingUrls)
        }
        if !resolved.clickTrackingURLs.isEmpty {
            tracking.append(Tracking(event: "clickTracking", trigger: "playerInitiated", fires: true,
                                     urls: resolved.clickTrackingURLs))
        }
        // Tracking that never fires: a progress the ad cannot reach, an event Playtrace does not send.
        let placed = Set(tracking.flatMap(\.urls))
        for event in resolved.trackingEvents where !placed.contains(event.url) {
            tracking.append(Tracking(event: event.event + (event.offset.map { " \($0)" } ?? ""), trigger: "other",
                                     fires: false, urls: [event.url]))
        }
        let creatives = resolved.ad.creatives
        return AdEntry(
            id: resolved.ad.id, sequence: resolved.ad.sequence, title: resolved.ad.inline?.title,
            adSystem: resolved.ad.adSystem, adServingID: resolved.ad.adServingID, universalAdID: resolved.universalAdID,
            wrappers: resolved.chainURLs.dropLast().map { $0 }, durationSeconds: duration?.seconds,
            skipOffset: linear?.skipOffset.map(SkipOffset.init), clickThrough: linear?.clickThrough,
            mediaFiles: (linear?.mediaFiles ?? []).map { file in
                // VAST's bitrate is in kbit/s.
                MediaFile(url: file.url, type: file.mimeType, delivery: file.delivery, width: file.width, height: file.height,
                          bitrateBitsPerSecond: file.bitrate.flatMap { kilobits in
                                              let (bits, overflow) = kilobits.multipliedReportingOverflow(by: 1000)
                                              return overflow ? nil : bits
                                          }, playable: file.isHLS)
            },
            tracking: tracking, errorURLs: resolved.errorURLs,
            verifications: resolved.verifications.map { Verification(vendor: $0.vendor, resources: $0.resources) },
            companions: creatives.flatMap(\.companions).map {
                Placement(id: $0.id, width: $0.width, height: $0.height, resources: $0.resources)
            },
            nonLinears: creatives.flatMap(\.nonLinears).map {
                Placement(id: $0.id, width: $0.width, height: $0.height, resources: $0.resources)
            })
    }

    var lines: [String] {
        var out = ["\(source): VAST \(version), \(bytes) bytes"]
        out.append("chain (\(chain.count) request(s)):")
        for fetch in chain {
            out.append("  " + String(repeating: "  ", count: fetch.depth) + fetch.url + (fetch.failure.map { "  FAILED: \($0)" } ?? ""))
        }
        out.append("ads (\(ads.count)):")
        if ads.isEmpty { out.append("  none") }
        for ad in ads {
            var head = "  \(ad.id ?? "-")"
            if let sequence = ad.sequence { head += "  #\(sequence)" }
            if let title = ad.title { head += "  \(title)" }
            if let duration = ad.durationSeconds { head += "  " + Format.seconds(duration) }
            if let skip = ad.skipOffset {
                let offset = skip.percent.map(VASTOffset.percent) ?? skip.seconds.map(VASTOffset.seconds)
                head += "  skippable after " + (offset?.description ?? "?")
            }
            out.append(head)
            if !ad.wrappers.isEmpty { out.append("    through \(ad.wrappers.count) wrapper(s): " + ad.wrappers.joined(separator: " → ")) }
            if let id = ad.universalAdID { out.append("    universal ad ID: \(id)") }
            out.append("    media files (\(ad.mediaFiles.count)):")
            for file in ad.mediaFiles {
                let size = file.width.flatMap { width in file.height.map { "\(width)x\($0)" } } ?? ""
                out.append("      \(file.playable ? "HLS " : "    ") \(file.type ?? "?")  \(size)  "
                    + (file.bitrateBitsPerSecond.map { "\($0 / 1000) kbit/s  " } ?? "") + file.url)
            }
            if !ad.mediaFiles.contains(where: \.playable) { out.append("      no HLS media file: this ad cannot be played (error 403)") }
            out.append("    tracking:")
            for event in ad.tracking {
                for url in event.urls {
                    out.append("      " + event.event.padding(toLength: 24, withPad: " ", startingAt: 0) + " "
                        + event.moment.padding(toLength: 14, withPad: " ", startingAt: 0) + " " + url)
                }
            }
            for url in ad.errorURLs { out.append("      error (on failure)          \(url)") }
            for verification in ad.verifications {
                out.append("    verification: " + (verification.vendor ?? "unknown vendor") + ": "
                    + (verification.resources.isEmpty ? "no resource" : verification.resources.joined(separator: ", "))
                    + " (not executed: verificationNotExecuted, [REASON] 2)")
            }
            for companion in ad.companions { out.append("    companion (listed, not shown): \(companion.text)") }
            for nonLinear in ad.nonLinears { out.append("    non-linear (listed, not shown): \(nonLinear.text)") }
            if let click = ad.clickThrough { out.append("    click-through (opened, never requested): \(click)") }
        }
        if !errors.isEmpty {
            out.append("errors (\(errors.count)):")
            for error in errors {
                out.append("  \(error.code) \(error.message)" + (error.urls.isEmpty ? "" : " → \(error.urls.count) URL(s)"))
                for url in error.urls { out.append("      \(url)") }
            }
        }
        if !problems.isEmpty {
            out.append("problems (\(problems.count); each was passed over, the rest is kept):")
            out += problems.map { "  \($0)" }
        }
        return out
    }
}
