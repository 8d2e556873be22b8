import PlaytraceAds
import PlaytraceCore
import PlaytracePlayer

/// The live terminal view of `play` and the demo: what plays, where (a progress bar of the playhead and the buffer
/// ahead against the duration or the live edge), the variant, the break and ad under the playhead with each of its
/// tracking events' state as it changes (``AdPodList``, ``AdSessionPanel``), and the last warnings. Drawn by
/// ``ConsoleOutput/panel(_:)`` every tick, on a terminal only.
@MainActor
final class LiveView {
    /// The current break's rows last drawn, to mark what changed since.
    private var previousRows: AdPodList?

    /// The width of the progress bar, in characters.
    static let barWidth = 40
    /// How many warnings the panel keeps.
    static let warningCount = 3

    /// The panel's lines.
    func lines(_ player: Player, title: String, item: Int, of count: Int, ads: SessionAds?, warnings: [String]) -> [String] {
        let snapshot = player.engineSnapshot
        var state = player.playbackState.rawValue
        if player.isBuffering { state += ", buffering" }
        if snapshot.rate != 1, player.playbackState == .playing { state += ", rate \(snapshot.rate)" }
        var lines = ["▶ \(title) (\(item + 1)/\(count)) · \(state)"
            + (player.currentChapter?.title.map { " · chapter " + $0 } ?? "")]
        lines.append(progress(player, snapshot))
        if let variant = snapshot.currentVariant {
            var line = "variant \(variant.index + 1)/\(max(snapshot.variants.count, 1)) · " + Format.bitrate(Double(variant.bandwidth))
            if let throughput = snapshot.estimatedThroughput { line += " · throughput " + Format.bitrate(throughput) }
            lines.append(line)
        }
        if let interstitial = player.currentInterstitial {
            let asset = interstitial.assetIndex.map { " asset \($0 + 1)/\(interstitial.assets.count)" } ?? " (asset list)"
            lines.append("interstitial \(interstitial.event.id)\(asset) \(interstitial.elapsed.timecode)")
        }
        if let ads { lines += adLines(ads) }
        for warning in warnings.suffix(Self.warningCount) { lines.append("! " + warning) }
        return lines
    }

    /// `[████▓▓▓░░░░] 00:00:21.300 / 00:01:20.000 · buffer +12.3 s`, or against the live edge.
    private func progress(_ player: Player, _ snapshot: EngineSnapshot) -> String {
        let live = snapshot.streamType == .live || snapshot.streamType == .dvr
        let start = live ? snapshot.seekableRange.start.seconds : 0
        let end = live ? snapshot.seekableRange.end.seconds : (snapshot.duration?.seconds ?? 0)
        let span = max(end - start, 0.001)
        let played = Self.cells((player.time.seconds - start) / span)
        let buffered = max(Self.cells((snapshot.loadedRange.end.seconds - start) / span) - played, 0)
        let rest = max(Self.barWidth - played - buffered, 0)
        let bar = "[" + String(repeating: "█", count: played) + String(repeating: "▓", count: buffered)
            + String(repeating: "░", count: rest) + "]"
        let buffer = String(format: " · buffer +%.1f s", snapshot.bufferedAhead.seconds)
        guard live else {
            return bar + " " + player.time.timecode + (snapshot.duration.map { " / " + $0.timecode } ?? "") + buffer
        }
        // Latency as hls.js reports it: from the playhead to the playlist's end, beside the hold-back aimed at.
        guard let (latency, target) = snapshot.liveLatency else {
            return bar + " " + player.time.timecode + " · live" + buffer
        }
        return bar + " " + player.time.timecode + String(format: " · latency %.1f s to the live edge (target %.1f s)",
                                                         latency.seconds, target.seconds) + buffer
    }

    private static func cells(_ fraction: Double) -> Int {
        guard fraction.isFinite else { return 0 }
        return Int((min(max(fraction, 0), 1) * Double(barWidth)).rounded())
    }

    /// The break and ad under the playhead, with its events; the time to the next break otherwise.
    private func adLines(_ ads: SessionAds) -> [String] {
        let panel = AdSessionPanel(session: ads.session)
        guard let (pod, ad, _) = ads.session.adAtPlayhead else {
            previousRows = nil
            return [panel.secondsToNextBreak.map { String(format: "ads: next break in %.1f s", $0) } ?? "ads: no break ahead"]
        }
        let rows = AdPodList(pods: [pod], time: ads.time)
        let changed = previousRows.map { rows.changes(since: $0) } ?? []
        previousRows = rows
        var lines = ["ad break \(panel.currentBreak ?? pod.id) · ad \(panel.currentAd ?? ad.id)"]
        let events = rows.rows.filter { $0.kind == .event && ($0.adID == ad.id || $0.adID == nil) }
        var line = " "
        var width = 1
        for event in events {
            let mark = switch event.state {
            case .done: "✓"
            case .failed: "✗"
            case .connecting: "…"
            case .idle, nil: "·"
            }
            let piece = " \(event.title) \(mark)"
            if width + piece.count > 100, lines.count < 4 {
                lines.append(line)
                (line, width) = (" ", 1)
            }
            line += changed.contains(event.id) ? TerminalText.bold + piece + TerminalText.normal : piece
            width += piece.count
        }
        lines.append(line)
        return lines
    }
}
