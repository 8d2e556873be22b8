import PlaytraceAds
import PlaytraceCore

/// The report's ads: the session, the counts, the pod list (``AdPodList``, as every view lays it out) with each
/// tracking event's URLs, state, attempts and times, the VAST chains (each request of a wrapper chain, the ads it
/// resolved to, its errors), and the VAST error reports.
struct AdsSection {
    private let ads: SessionSummary.Ads
    /// Each beacon URL's entry, by its event's key.
    private let beaconsByKey: [String: [SessionSummary.Beacon]]
    /// Whether the breaks are placed on the media timeline (else on stream dates).
    private let onMediaTimeline: Bool

    init(_ ads: SessionSummary.Ads) {
        self.ads = ads
        beaconsByKey = Dictionary(grouping: ads.beacons, by: \.key)
        onMediaTimeline = ads.pods.allSatisfy { $0.startSeconds != nil }
    }

    func html() -> String {
        var html = ""
        if let session = ads.session {
            html += "<table class=\"session\"><tbody>"
                + [("Session", session.id + " (\(session.obtainedBy))"), ("Media", session.mediaURL),
                   ("Manifest", session.manifestURL), ("Metadata", session.metadataURL)].map {
                    "<tr><th scope=\"row\">\($0.0)</th><td><code class=\"url\">" + HTMLText.escape($0.1) + "</code></td></tr>"
                }.joined() + "</tbody></table>"
        }
        let counts = ads.counts
        html += HTMLText.element("p", "\(ads.format): \(counts.expected) beacon(s) expected, \(counts.fired) fired, "
            + "\(counts.delivered) delivered, \(counts.failed) failed, \(counts.waiting) waiting, \(counts.late) late, "
            + "\(counts.missed) missed, \(counts.unexpected) not called for, \(counts.duplicated) duplicated"
            + (counts.playerInitiated > 0 ? ", \(counts.playerInitiated) player-initiated" : "")
            + (counts.vastErrorReports > 0 ? ", \(counts.vastErrorReports) VAST error report(s)" : "")
            + (counts.worstDeliveryLatenessMilliseconds.map { delivery in
                String(format: "; worst delivery %.1f ms, worst firing %.1f ms after the crossing", delivery,
                       counts.worstFiringLatenessMilliseconds ?? 0)
            } ?? "")
            + "; \(ads.metadataRequests) metadata request(s), \(ads.metadataFailures) failed", class: "counts")
        if let error = ads.latestError { html += HTMLText.element("p", "Latest error: " + error, class: "warning") }
        html += podList()
        html += vastChains()
        let errors = ads.beacons.filter { $0.cause == "error" }
        if !errors.isEmpty {
            html += "<h3>VAST error reports</h3>" + beaconTable(errors)
        }
        if ads.beaconsOmitted > 0 {
            html += HTMLText.element("p", "\(ads.beaconsOmitted) beacon URL(s) past the first \(SessionSummary.Ads.beaconLimit) "
                + "are counted, not listed.", class: "note")
        }
        return html
    }

    private func podList() -> String {
        guard !ads.pods.isEmpty else { return "<p>No ad break was listed.</p>" }
        let list = AdPodList(pods: ads.pods.map(Self.pod), fates: Self.fates(ads.pods), time: time)
        var rows = ""
        for row in list.rows.prefix(HTMLReport.podRowLimit) {
            rows += "<tr class=\"\(row.kind.rawValue) depth-\(row.depth)\">"
            switch row.kind {
            case .pod, .ad:
                rows += cell(row.title + (row.kind == .ad ? row.detail.map { " — " + $0 } ?? "" : ""))
                    + cell(row.time ?? "") + cell(Format.seconds(row.durationSeconds ?? 0))
                    + cell(row.kind == .pod ? row.detail ?? "" : "") + "<td></td>"
            case .event:
                let beacons = beaconsByKey[row.id] ?? []
                let state = row.state?.rawValue ?? ""
                rows += cell(row.title) + cell(row.time ?? "(player)")
                    + "<td class=\"state state-\(state)\">" + HTMLText.escape(state) + "</td>"
                    + cell(delivery(beacons)) + "<td>" + urls(row.urls, beacons: beacons) + "</td>"
            case .unusedPlayerEvents, .unfiredEvents, .unreachedPods:
                rows += "<td colspan=\"5\">" + HTMLText.escape(row.sentence ?? "") + "</td>"
            }
            rows += "</tr>\n"
        }
        if list.rows.count > HTMLReport.podRowLimit {
            rows += "<tr><td colspan=\"5\">" + HTMLText.escape("\(list.rows.count - HTMLReport.podRowLimit) more row(s): "
                + "see the summary JSON") + "</td></tr>\n"
        }
        return "<div class=\"scroll\"><table class=\"pods\"><thead><tr><th>Break, ad, event</th><th>At</th><th>State</th>"
            + "<th>Delivery</th><th>URLs</th></tr></thead><tbody>\n" + rows + "</tbody></table></div>"
    }

    /// The VAST responses of the interstitials: for each, its requests by depth (a failure named), the ads with the
    /// wrappers they came through, and the errors reported with their codes.
    private func vastChains() -> String {
        guard let chains = ads.vastChains, !chains.isEmpty else { return "" }
        var rows: [String] = []
        for chain in chains {
            rows.append("<tr class=\"pod\">" + HTMLText.element("td", "Break \(chain.podID), interstitial \(chain.interstitialID)")
                + "<td colspan=\"2\"></td></tr>\n")
            for request in chain.requests {
                rows.append("<tr class=\"depth-\(min(request.depth, 2))\">"
                    + cell(request.depth == 0 ? "asset list" : "ad tag of wrapper \(request.depth)")
                    + "<td><code class=\"url\">" + HTMLText.escape(request.url) + "</code></td>"
                    + (request.failure.map { "<td class=\"state state-failed\">" + HTMLText.escape("failed: " + $0) + "</td>" }
                        ?? cell("fetched")) + "</tr>\n")
            }
            for ad in chain.ads {
                let wrappers = ad.chainURLs.count - 1
                rows.append("<tr class=\"ad depth-1\">" + cell("ad \(ad.id)")
                    + cell(wrappers > 0 ? "through \(wrappers) wrapper(s)" : "inline in the asset list's response")
                    + (ad.leftOut ? "<td class=\"state state-failed\">left out (no HLS media file)</td>" : cell("an asset"))
                    + "</tr>\n")
            }
            for error in chain.errors {
                rows.append("<tr class=\"depth-1\">" + cell("error \(error.code)") + cell(error.message)
                    + cell(error.urls.isEmpty ? "no error URL" : "\(error.urls.count) error URL(s)") + "</tr>\n")
            }
        }
        var html = rows.prefix(HTMLReport.vastRowLimit).joined()
        if rows.count > HTMLReport.vastRowLimit {
            html += "<tr><td colspan=\"3\">" + HTMLText.escape("\(rows.count - HTMLReport.vastRowLimit) more row(s): "
                + "see the summary JSON") + "</td></tr>\n"
        }
        if let omitted = ads.vastChainsOmitted {
            html += "<tr><td colspan=\"3\">" + HTMLText.escape("\(omitted) earlier VAST resolution(s) not kept") + "</td></tr>\n"
        }
        return "<h3>VAST chains</h3><div class=\"scroll\"><table class=\"vast\"><thead><tr><th>Request, ad, error</th>"
            + "<th>URL or detail</th><th>Outcome</th></tr></thead><tbody>\n" + html + "</tbody></table></div>"
    }

    /// Attempts and lateness of an event's beacons.
    private func delivery(_ beacons: [SessionSummary.Beacon]) -> String {
        guard !beacons.isEmpty else { return "" }
        let attempts = beacons.map(\.attempts).reduce(0, +)
        let worst = beacons.compactMap(\.deliveryLatenessMilliseconds).max()
        return "\(attempts) attempt(s)" + (worst.map { String(format: ", %.0f ms after the crossing", $0) } ?? "")
            + (beacons.contains(where: \.late) ? " (late)" : "")
    }

    private func urls(_ urls: [String], beacons: [SessionSummary.Beacon]) -> String {
        // The URLs requested (macros filled) when it fired; the metadata's otherwise.
        let shown = beacons.isEmpty ? urls.map { ($0, nil as SessionSummary.Beacon?) } : beacons.map { ($0.url, $0) }
        return shown.map { url, beacon in
            "<code class=\"url\">" + HTMLText.escape(url) + "</code>"
                + (beacon.map { " <span class=\"state state-\(TimelineChart.markState($0))\">" + TimelineChart.markState($0)
                    + "</span>" + ($0.reason.map { " " + HTMLText.escape($0) } ?? "") } ?? "")
        }.joined(separator: "<br>")
    }

    private func beaconTable(_ beacons: [SessionSummary.Beacon]) -> String {
        let rows = beacons.map { beacon in
            "<tr>" + cell(Format.beaconName(beacon.key)) + cell(TimelineChart.markState(beacon)) + cell(Format.seconds(beacon.sentSeconds))
                + "<td><code class=\"url\">" + HTMLText.escape(beacon.url) + "</code></td></tr>\n"
        }.joined()
        return "<div class=\"scroll\"><table><thead><tr><th>Ad</th><th>State</th><th>Sent</th><th>URL</th></tr></thead><tbody>"
            + rows + "</tbody></table></div>"
    }

    private func cell(_ text: String) -> String { HTMLText.element("td", text) }

    // MARK: The pods back as the ad model, for the pod list


    /// A time of the rebuilt pods (milliseconds: media time, or since 1970), as the status line tells it.
    private func time(_ time: AdTime) -> String {
        if onMediaTimeline { return time.mediaTime.timecode }
        return Format.timeOfDay(millisecondsSince1970: time.milliseconds)
    }

    /// A time the summary gives (media seconds, or a date) on the ad timeline.
    private static func adTime(_ seconds: Double?, date: String?) -> AdTime {
        if let seconds { return AdTime(milliseconds: seconds * 1000) }
        return AdTime(milliseconds: ((date.flatMap { try? StreamDate(iso8601: $0) })?.secondsSince1970 ?? 0) * 1000)
    }

    /// The fates the summary records, as the pod list takes them.
    private static func fates(_ pods: [SessionSummary.Pod]) -> AdFates {
        var fates = AdFates()
        for pod in pods {
            fates.pods[pod.id] = pod.fate?.adFate
            for ad in pod.ads {
                if let fate = ad.fate?.adFate { fates.ads[pod.id, default: [:]][ad.id] = fate }
            }
        }
        return fates
    }

    private static func pod(_ pod: SessionSummary.Pod) -> AdPod {
        let onMedia = pod.startSeconds != nil
        func start(_ seconds: Double?, _ date: String?) -> AdTime {
            adTime(onMedia ? seconds : nil, date: onMedia ? nil : date)
        }
        func events(_ events: [SessionSummary.TrackingEvent], adID: String?) -> [TrackingEvent] {
            events.map { event in
                let keyTime = event.key.split(separator: "@").last.flatMap { Int64($0) } ?? 0
                return TrackingEvent(
                    id: TrackingEventKey(podID: pod.id, adID: adID, event: TrackingEventType(rawValue: event.type), time: keyTime),
                    event: TrackingEventType(rawValue: event.type), startTime: start(event.timeSeconds, event.date),
                    signalingUrls: event.urls, reportingState: ReportingState(rawValue: event.state) ?? .idle)
            }
        }
        return AdPod(id: pod.id, startTime: start(pod.startSeconds, pod.startDate), duration: AdTime(milliseconds: pod.durationSeconds * 1000),
                     ads: pod.ads.map { ad in
                         Ad(id: ad.id, startTime: start(ad.startSeconds, ad.startDate), duration: AdTime(milliseconds: ad.durationSeconds * 1000),
                            trackingEvents: events(ad.events, adID: ad.id), title: ad.title)
                     },
                     trackingEvents: events(pod.events, adID: nil))
    }
}
