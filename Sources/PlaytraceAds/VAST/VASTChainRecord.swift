/// What resolving one VAST response took, as a session keeps it for its report: the requests of the wrapper chain,
/// the ads it resolved to with the wrappers each came through, and the errors found.
public struct VASTChainRecord: Sendable, Hashable {
    /// An ad the chain resolved to.
    public struct Ad: Sendable, Hashable {
        /// The ad's ID as the session tracks it (the `Ad` element's `id`, else its place in the pod).
        public var id: String
        /// The URLs of the documents its wrappers were in, outermost first; the last gave the inline ad.
        public var chainURLs: [String]
        /// Whether it was left out of the interstitial (it has no HLS media file); the others became its assets.
        public var leftOut: Bool

        public init(id: String, chainURLs: [String], leftOut: Bool) {
            self.id = id
            self.chainURLs = chainURLs
            self.leftOut = leftOut
        }
    }

    /// The break the ads are tracked under.
    public var podID: String
    /// The interstitial whose asset list the response was.
    public var interstitialID: String
    /// The requests, the response's own first (depth 0), then each wrapper's.
    public var requests: [VASTResolution.Fetch]
    public var ads: [Ad]
    /// The errors found, each with its code (sent to the chain's `<Error>` URLs).
    public var errors: [VASTErrorReport]

    public init(podID: String, interstitialID: String, requests: [VASTResolution.Fetch], ads: [Ad], errors: [VASTErrorReport]) {
        self.podID = podID
        self.interstitialID = interstitialID
        self.requests = requests
        self.ads = ads
        self.errors = errors
    }
}
