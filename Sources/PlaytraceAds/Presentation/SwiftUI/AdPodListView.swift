#if canImport(SwiftUI)
import Foundation
import PlaytraceCore
public import SwiftUI

/// The seed's pod list on Apple platforms: each break, its ads and their tracking events with each one's URLs, time
/// and reporting state, drawn from ``AdPodList`` (the layout every Playtrace view shares).
///
/// ```swift
/// AdPodListView(session: session)
/// ```
@MainActor
public struct AdPodListView: View {
    private let list: AdPodList

    /// A view of `list`.
    public init(list: AdPodList) {
        self.list = list
    }

    /// A view of the session's pods, their times as media timecodes or times of day.
    public init(session: AdBeaconingSession) {
        let timeline = session.timeline
        list = AdPodList(pods: session.adPods, fates: session.fates) { milliseconds in
            switch timeline {
            case .mediaTime: MediaTime(seconds: milliseconds / 1000).timecode
            case .programDateTime: StreamDate(millisecondsSince1970: milliseconds).iso8601Milliseconds
            }
        }
    }

    public var body: some View {
        List(list.rows) { row in
            AdPodListRowView(row: row)
                .padding(.leading, CGFloat(row.depth) * 16)
        }
    }
}

/// One row of ``AdPodListView``: a break, an ad, or a tracking event with its state.
@MainActor
struct AdPodListRowView: View {
    let row: AdPodList.Row

    var body: some View {
        switch row.kind {
        case .pod, .ad:
            HStack {
                Text(row.title).font(row.kind == .pod ? .headline : .subheadline)
                Spacer()
                Text(row.time ?? "").monospacedDigit()
                if let seconds = row.durationSeconds { Text(String(format: "%.1f s", seconds)).foregroundStyle(.secondary) }
            }
        case .event:
            VStack(alignment: .leading, spacing: 2) {
                HStack {
                    Text(row.title)
                    Spacer()
                    Text(row.time ?? "(player)").monospacedDigit().foregroundStyle(.secondary)
                    Text(row.state?.rawValue ?? "").foregroundStyle(Self.colour(row.state))
                }
                ForEach(row.urls, id: \.self) { url in
                    Text(url).font(.caption).foregroundStyle(.secondary).lineLimit(1).truncationMode(.middle)
                }
            }
        case .unusedPlayerEvents, .unfiredEvents, .unreachedPods:
            Text(row.sentence ?? "").font(.caption).foregroundStyle(.secondary)
        }
    }

    private static func colour(_ state: ReportingState?) -> Color {
        switch state {
        case .done: .green
        case .failed: .red
        case .connecting: .orange
        case .idle, nil: .secondary
        }
    }
}
#endif
