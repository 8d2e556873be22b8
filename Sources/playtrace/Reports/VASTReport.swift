import Foundation
import PlaytraceAds
import PlaytraceCore

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
        var event: String
        /// When it fires: `first frame`, a time into the ad, `end`, or `viewer action` / `when clicked`.
        var moment: String
        var urls: [String]
    }

    struct MediaFile: Encodable {
        var url: String
        var type: String?
        var delivery: String?
        var size: String?
        var bitrateKbps: Int?
        var playable: Bool
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
        var skipOffset: String?
        var clickThrough: String?
        var mediaFiles: [MediaFile]
        var tracking: [Tracking]
        var errorURLs: [String]
        var verifications: [String]
        var companions: [String]
        var nonLinears: [String]
    }

    struct ErrorEntry: Encodable {
        var code: Int
        var message: String
        var urls: [String]
    }

    var source: String
    var version: String
    var size: Int
    var chain: [Fetch]
    var ads: [AdEntry]
    var errors: [ErrorEntry]

    init(_ document: VASTDocument, resolution: VASTResolution, source: String, size: Int) {
        self.source = source
        version = document.version
        self.size = size
        // The response itself, then the wrappers' requests.
        chain = [Fetch(url: source, depth: 0, failure: nil)]
            + resolution.fetches.map { Fetch(url: $0.url, depth: $0.depth, failure: $0.failure) }
        ads = resolution.ads.map(Self.entry)
        errors = resolution.errors.map { ErrorEntry(code: $0.code.rawValue, message: $0.message, urls: $0.urls) }
    }

    private static func entry(_ resolved: ResolvedVASTAd) -> AdEntry {
        let linear = resolved.linear
        let duration = linear?.duration
        let adBreak = VASTAdBreak(id: "inspect", start: 0, ads: [(resolved, duration ?? 0, resolved.hlsMediaFile?.url)])
        var tracking = (adBreak.pod.ads.first?.trackingEvents ?? []).map { event -> Tracking in
            let moment: String
            switch event.event {
            case .impression, .creativeView, .loaded, .verificationNotExecuted: moment = "first frame"
            case .complete: moment = "end (" + Format.seconds(event.startTime / 1000) + ")"
            default:
                moment = event.event.kind == .playerInitiated ? "viewer action" : Format.seconds(event.startTime / 1000)
            }
            return Tracking(event: event.event.rawValue, moment: moment, urls: event.signalingUrls)
        }
        if !resolved.clickTrackingURLs.isEmpty {
            tracking.append(Tracking(event: "clickTracking", moment: "when clicked", urls: resolved.clickTrackingURLs))
        }
        // Tracking that never fires: a progress the ad cannot reach, an event Playtrace does not send.
        let placed = Set(tracking.flatMap(\.urls))
        for event in resolved.trackingEvents where !placed.contains(event.url) {
            tracking.append(Tracking(event: event.event + (event.offset.map { " \($0)" } ?? ""), moment: "never", urls: [event.url]))
        }
        let creatives = resolved.ad.creatives
        return AdEntry(
            id: resolved.ad.id, sequence: resolved.ad.sequence, title: resolved.ad.inline?.title,
            adSystem: resolved.ad.adSystem, adServingID: resolved.ad.adServingID, universalAdID: resolved.universalAdID,
            wrappers: resolved.chainURLs.dropLast().map { $0 }, durationSeconds: duration,
            skipOffset: linear?.skipOffset?.description, clickThrough: linear?.clickThrough,
            mediaFiles: (linear?.mediaFiles ?? []).map { file in
                MediaFile(url: file.url, type: file.mimeType, delivery: file.delivery,
                          size: file.width.flatMap { width in file.height.map { "\(width)x\($0)" } }, bitrateKbps: file.bitrate,
                          playable: file.isHLS)
            },
            tracking: tracking, errorURLs: resolved.errorURLs,
            verifications: resolved.verifications.map { verification in
                (verification.vendor ?? "unknown vendor") + ": " + (verification.resources.isEmpty ? "no resource"
                    : verification.resources.joined(separator: ", ")) + " (not executed: verificationNotExecuted, [REASON] 2)"
            },
            companions: creatives.flatMap(\.companions).map { companion in
                "\(companion.id ?? "-") \(companion.width ?? 0)x\(companion.height ?? 0): " + companion.resources.joined(separator: "; ")
            },
            nonLinears: creatives.flatMap(\.nonLinears).map { ad in
                "\(ad.id ?? "-") \(ad.width ?? 0)x\(ad.height ?? 0): " + ad.resources.joined(separator: "; ")
            })
    }

    var lines: [String] {
        var out = ["\(source): VAST \(version), \(size) bytes"]
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
            if let skip = ad.skipOffset { head += "  skippable after \(skip)" }
            out.append(head)
            if !ad.wrappers.isEmpty { out.append("    through \(ad.wrappers.count) wrapper(s): " + ad.wrappers.joined(separator: " → ")) }
            if let id = ad.universalAdID { out.append("    universal ad ID: \(id)") }
            out.append("    media files (\(ad.mediaFiles.count)):")
            for file in ad.mediaFiles {
                out.append("      \(file.playable ? "HLS " : "    ") \(file.type ?? "?")  \(file.size ?? "")  "
                    + (file.bitrateKbps.map { "\($0) kbit/s  " } ?? "") + file.url)
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
            for verification in ad.verifications { out.append("    verification: \(verification)") }
            for companion in ad.companions { out.append("    companion (listed, not shown): \(companion)") }
            for nonLinear in ad.nonLinears { out.append("    non-linear (listed, not shown): \(nonLinear)") }
            if let click = ad.clickThrough { out.append("    click-through (opened, never requested): \(click)") }
        }
        if !errors.isEmpty {
            out.append("errors (\(errors.count)):")
            for error in errors {
                out.append("  \(error.code) \(error.message)" + (error.urls.isEmpty ? "" : " → \(error.urls.count) URL(s)"))
                for url in error.urls { out.append("      \(url)") }
            }
        }
        return out
    }
}
