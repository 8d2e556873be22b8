/// The event schemes Playtrace reads, in an MPD's `EventStream` or a segment's `emsg` (declared by
/// `InbandEventStream`).
public enum EventScheme {
    /// SCTE-35: `urn:scte:scte35:2013:xml`, `urn:scte:scte35:2014:xml+bin` or `urn:scte:scte35:2013:bin`.
    public static func isSCTE35(_ uri: String) -> Bool { uri.hasPrefix("urn:scte:scte35:") }

    /// SVTA2053 ad creative signaling: SVTA's ad-ID and ad-creative signaling schemes
    /// (`urn:svta:advertising-wg:ad-id-signaling`, `…:ad-creative-signaling`) and the `urn:sva:` spelling MediaTailor
    /// writes. An event of these carries the signaling's JSON envelope as its text (not base64, as HLS carries it).
    public static func isAdCreativeSignaling(_ uri: String) -> Bool { adCreativeSignaling.contains(uri) }

    static let adCreativeSignaling: Set<String> = [
        "urn:svta:advertising-wg:ad-id-signaling", "urn:svta:advertising-wg:ad-creative-signaling",
        "urn:sva:advertising-wg:ad-id-signaling", "urn:sva:advertising-wg:ad-creative-signaling",
    ]
}
