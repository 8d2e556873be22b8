/// The ad pod list as a person reads it, built once for every view of it: the terminal's summary and live view,
/// the HTML report, and the SwiftUI `AdPodListView` on Apple platforms.
///
/// Each break is a row, followed by its own tracking events and its ads, each ad followed by its events. The
/// player-initiated events of a break or an ad that never happened (mute, pause, skip… the viewer did not do) share
/// one row; so do the events that never fired of an ad with a fate (skipped, media failed), the fate said with them.
/// The breaks none of whose events fired share one row per fate at the end: skipped by the viewer, reached with no
/// ad, could not play, and not reached. Times are formatted by the caller's function, so that every view tells them
/// on one timeline.
///
/// ```swift
/// let list = AdPodList(pods: session.adPods, fates: session.fates) { milliseconds in
///     String(format: "%.1f s", milliseconds / 1000)
/// }
/// for row in list.rows where row.kind == .event {
///     print(row.title, row.time ?? "", row.state?.rawValue ?? "")
/// }
/// ```
public struct AdPodList: Sendable, Hashable {
    /// One row of the list.
    public struct Row: Sendable, Hashable, Identifiable {
        public enum Kind: String, Sendable, Hashable {
            /// A break: its start, duration and number of ads.
            case pod
            /// An ad of a break.
            case ad
            /// A tracking event, with its reporting state.
            case event
            /// The player-initiated events of a break or an ad that never happened: their names in ``Row/title``.
            case unusedPlayerEvents
            /// The events of a break or an ad with a fate (``AdFate``) that never fired: their names in ``Row/title``,
            /// the fate in a few words in ``Row/detail`` (the ad's row says it whole).
            case unfiredEvents
            /// Breaks none of whose events fired, of one fate (none: not reached): how many and why in
            /// ``Row/title``, the first few named in ``Row/detail``.
            case unreachedPods
        }

        /// Stable across frames: a break's ID, `break/ad`, or an event's delivery key.
        public var id: String
        public var kind: Kind
        /// 0 for a break, 1 for its events and ads, 2 for an ad's events.
        public var depth: Int
        /// The break's or ad's ID, the event's type, or the collapsed rows' text.
        public var title: String
        /// When it happens, formatted; `nil` for a player-initiated event (it happens when the viewer acts).
        public var time: String?
        /// A break's or ad's duration in seconds.
        public var durationSeconds: Double?
        /// A tracking event's reporting state.
        public var state: ReportingState?
        /// A tracking event's beacon URLs.
        public var urls: [String]
        /// A break's number of ads and its fate, an ad's title and its fate, the fate of unfired events, the breaks not
        /// reached.
        public var detail: String?
        /// The break or ad the row belongs to, and the tracking event's key.
        public var podID: String
        public var adID: String?
        public var key: TrackingEventKey?

        public init(id: String, kind: Kind, depth: Int, title: String, time: String? = nil, durationSeconds: Double? = nil,
                    state: ReportingState? = nil, urls: [String] = [], detail: String? = nil, podID: String,
                    adID: String? = nil, key: TrackingEventKey? = nil) {
            self.id = id
            self.kind = kind
            self.depth = depth
            self.title = title
            self.time = time
            self.durationSeconds = durationSeconds
            self.state = state
            self.urls = urls
            self.detail = detail
            self.podID = podID
            self.adID = adID
            self.key = key
        }

        /// What a row that stands for several (unused player events, unfired events, breaks of one fate) says, in
        /// every view; `nil` for a break, an ad or an event.
        public var sentence: String? {
            switch kind {
            case .pod, .ad, .event: nil
            case .unusedPlayerEvents: "(player) not used: " + title
            case .unfiredEvents: "not fired (\(detail ?? "")): " + title
            case .unreachedPods: title + ": " + (detail ?? "")
            }
        }
    }

    /// The rows, in order.
    public var rows: [Row]

    /// How many breaks not reached the collapsed row names.
    public static let unreachedNamed = 5

    /// - Parameters:
    ///   - pods: the breaks, in order (``AdBeaconingSession/adPods``).
    ///   - fates: why breaks and ads did not play out (``AdBeaconingSession/fates``).
    ///   - time: formats a time of the ad timeline.
    public init(pods: [AdPod], fates: AdFates = AdFates(), time: (AdTime) -> String) {
        var rows: [Row] = []
        // The breaks none of whose events fired, by fate (nil: not reached), in the order their first appears.
        var unreached: [(fate: AdFate?, pods: [AdPod])] = []
        for pod in pods {
            let podFate = fates.pods[pod.id]
            guard pod.allTrackingEvents.contains(where: { $0.reportingState.hasFired }) else {
                if let index = unreached.firstIndex(where: { $0.fate == podFate }) {
                    unreached[index].pods.append(pod)
                } else {
                    unreached.append((podFate, [pod]))
                }
                continue
            }
            let podDetail = ["\(pod.ads.count) ad(s)", podFate?.description].compactMap { $0 }.joined(separator: ", ")
            rows.append(Row(id: pod.id, kind: .pod, depth: 0, title: pod.id, time: time(pod.startTime),
                            durationSeconds: pod.duration.seconds, detail: podDetail, podID: pod.id))
            rows += Self.eventRows(pod.trackingEvents, depth: 1, podID: pod.id, adID: nil, fate: nil, time: time)
            for ad in pod.ads {
                let adFate = fates.ad(ad.id, in: pod.id)
                let adDetail = [ad.title, adFate?.description].compactMap { $0 }.joined(separator: " — ")
                rows.append(Row(id: pod.id + "/" + ad.id, kind: .ad, depth: 1, title: ad.id, time: time(ad.startTime),
                                durationSeconds: ad.duration.seconds, detail: adDetail.isEmpty ? nil : adDetail,
                                podID: pod.id, adID: ad.id))
                rows += Self.eventRows(ad.trackingEvents, depth: 2, podID: pod.id, adID: ad.id, fate: adFate, time: time)
            }
        }
        for group in unreached {
            let named = group.pods.prefix(Self.unreachedNamed).map { "\($0.id) at \(time($0.startTime))" }
            let more = group.pods.count > Self.unreachedNamed ? " and \(group.pods.count - Self.unreachedNamed) more" : ""
            let why = group.fate?.description ?? "not reached (no event fired)"
            rows.append(Row(id: "(unreached)" + (group.fate.map { ":" + $0.description } ?? ""), kind: .unreachedPods,
                            depth: 0, title: "\(group.pods.count) break(s) \(why)",
                            detail: named.joined(separator: ", ") + more, podID: ""))
        }
        self.rows = rows
    }

    private static func eventRows(_ events: [TrackingEvent], depth: Int, podID: String, adID: String?, fate: AdFate?,
                                  time: (AdTime) -> String) -> [Row] {
        var rows: [Row] = []
        var unused: [String] = []
        var unfired: [String] = []
        for event in events {
            if event.event.kind == .playerInitiated, !event.reportingState.hasFired {
                if !unused.contains(event.event.rawValue) { unused.append(event.event.rawValue) }
                continue
            }
            // What never fired of an ad that did not play out is its fate's, said once.
            if fate != nil, !event.reportingState.hasFired {
                if !unfired.contains(event.event.rawValue) { unfired.append(event.event.rawValue) }
                continue
            }
            rows.append(Row(id: event.id.description, kind: .event, depth: depth, title: event.event.rawValue,
                            time: event.event.kind == .automatic ? time(event.startTime) : nil,
                            state: event.reportingState, urls: event.signalingUrls, podID: podID, adID: adID, key: event.id))
        }
        if let fate, !unfired.isEmpty {
            rows.append(Row(id: podID + "/" + (adID ?? "-") + "/(unfired)", kind: .unfiredEvents, depth: depth,
                            title: unfired.joined(separator: ", "), detail: fate.label, podID: podID, adID: adID))
        }
        if !unused.isEmpty {
            rows.append(Row(id: podID + "/" + (adID ?? "-") + "/(unused)", kind: .unusedPlayerEvents, depth: depth,
                            title: unused.joined(separator: ", "), podID: podID, adID: adID))
        }
        return rows
    }

    /// The rows that are new or differ from `previous`'s: what a live view redraws or highlights.
    public func changes(since previous: AdPodList) -> Set<Row.ID> {
        let before = Dictionary(previous.rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return Set(rows.filter { before[$0.id] != $0 }.map(\.id))
    }

    /// The longest event name listed, for views that align the names.
    public var eventNameWidth: Int { rows.lazy.filter { $0.kind == .event }.map(\.title.count).max() ?? 0 }
}
