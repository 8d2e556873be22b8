#if canImport(SwiftUI)
import Foundation
import PlaytraceCore
public import SwiftUI

/// The seed's session view on Apple platforms: the playhead, the time to the next break, the last interstitial's
/// date, start and end, and the session's URLs, drawn from ``AdSessionPanel``.
///
/// ```swift
/// SessionView(panel: AdSessionPanel(session: session))
/// ```
@MainActor
public struct SessionView: View {
    private let panel: AdSessionPanel

    public init(panel: AdSessionPanel) {
        self.panel = panel
    }

    public var body: some View {
        Form {
            Section("Playback") {
                LabeledContent("Playhead", value: panel.playhead)
                LabeledContent("Next break", value: panel.secondsToNextBreak.map { String(format: "in %.1f s", $0) } ?? "none ahead")
                if let currentBreak = panel.currentBreak {
                    LabeledContent("Break", value: currentBreak + (panel.currentAd.map { ", ad " + $0 } ?? ""))
                }
                if let interstitial = panel.interstitial {
                    LabeledContent("Last interstitial", value: interstitial.date ?? "—")
                    LabeledContent("Started at", value: interstitial.start ?? "—")
                    LabeledContent("Stopped at", value: interstitial.end ?? "—")
                }
            }
            Section("Session") {
                LabeledContent("Media URL", value: panel.mediaURL ?? "—")
                LabeledContent("Manifest URL", value: panel.manifestURL ?? "—")
                LabeledContent("Metadata URL", value: panel.metadataURL ?? "—")
            }
        }
    }
}
#endif
