/// What every `inspect --json` document shares: its schema version and the values more than one kind of document
/// holds. The documents follow `schemas/inspect.schema.json`: numbers carry their unit in their key, dates are
/// ISO 8601, and `kind` names the document (`multivariant`, `media`, `vast`, `harmonic-ad-metadata`,
/// `mediatailor-tracking`, `hls-asset-list`).
enum InspectJSON {
    /// The version of `schemas/inspect.schema.json` the documents follow; raised when a field changes meaning or
    /// goes away (a new optional field does not raise it).
    static let schemaVersion = 1

    /// The skip control of an interstitial or an asset list: when the skip button shows, for how long, its label.
    struct SkipControl: Codable {
        /// When the control appears, seconds into the interstitial.
        var offsetSeconds: Double
        /// How long it shows; absent when it stays until the interstitial ends.
        var durationSeconds: Double?
        /// The label's identifier, for a localised label the app provides.
        var labelID: String?

        /// The control as the text report prints it: `from 5.000 s for 10.000 s, label SKIP`.
        var text: String {
            "from " + InspectionReport.fixed(offsetSeconds, 3) + " s"
                + (durationSeconds.map { " for " + InspectionReport.fixed($0, 3) + " s" } ?? "")
                + (labelID.map { ", label \($0)" } ?? "")
        }
    }
}
