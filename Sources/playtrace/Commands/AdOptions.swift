import ArgumentParser
import PlaytraceCore
import PlaytraceSession

/// The client-side ad tracking options of `play`.
struct AdOptions: ParsableArguments {
    @Option(help: """
        Track ads: harmonic or mediatailor (an SSAI session: the URL is then the session URL), signaling (the \
        manifest's SVTA2053 signaling: X-AD-CREATIVE-SIGNALING date ranges, an MPD's signaling events; no tracking API), or vast (only the interstitials \
        whose asset lists an ad server answers in VAST, which every mode tracks).
        """)
    var ads: String?

    @Option(name: .customLong("ads-param"), help: "A MediaTailor adsParams entry, key=value (repeatable).")
    var adsParams: [String] = []

    @Option(name: .customLong("ads-interval"), help: "Seconds between two Harmonic metadata polls.")
    var metadataInterval: Double = 4

    @Flag(name: .customLong("no-init-session"),
          help: "Harmonic: read the session from the playlist instead of asking the server to initialise one.")
    var noInitSession = false

    @Option(name: .customLong("beacon-attempts"), help: "Attempts at each beacon URL before it counts as failed.")
    var beaconAttempts = 8

    @Option(name: .customLong("beacon-wait"), help: "At the end, the most seconds spent waiting for queued beacons.")
    var beaconWait: Double = 10

    func validate() throws {
        if let ads, SessionAds.AdFormat(rawValue: ads) == nil { throw ValidationError("--ads is harmonic, mediatailor, signaling or vast") }
        if !adsParams.isEmpty, ads != SessionAds.AdFormat.mediaTailor.rawValue {
            throw ValidationError("--ads-param is for --ads mediatailor")
        }
        if let bad = adsParams.first(where: { !$0.contains("=") || $0.hasPrefix("=") }) {
            throw ValidationError(PlainText.safe("--ads-param \(bad): expected key=value"))
        }
        guard metadataInterval >= 0.1, metadataInterval <= 3_600 else {
            throw ValidationError("--ads-interval must be between 0.1 and 3600 seconds")
        }
        guard (1...100).contains(beaconAttempts) else { throw ValidationError("--beacon-attempts must be between 1 and 100") }
        guard beaconWait >= 0, beaconWait <= 3_600 else { throw ValidationError("--beacon-wait must be between 0 and 3600 seconds") }
    }

    /// The settings, when ad tracking is asked for.
    func settings(outboxPath: String?) -> SessionAds.Settings? {
        guard let format = ads.flatMap(SessionAds.AdFormat.init(rawValue:)) else { return nil }
        var params: [String: String] = [:]
        for entry in adsParams {
            let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            params[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return SessionAds.Settings(format: format, adsParams: params, metadataInterval: .saturating(milliseconds: metadataInterval * 1000),
                                isInitRequest: !noInitSession,
                                beaconWait: .saturating(milliseconds: beaconWait * 1000), outboxPath: outboxPath)
    }
}
