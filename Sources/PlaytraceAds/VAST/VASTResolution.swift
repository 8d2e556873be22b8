/// An inline ad reached through its wrappers: what the player plays and tracks, with every URL of the chain.
public struct ResolvedVASTAd: Sendable, Hashable {
    /// The inline ad.
    public var ad: VASTAd
    /// The wrappers that led to it, outermost first.
    public var wrappers: [VASTAd]
    /// The VAST URLs fetched along the chain, outermost first (the inline ad's last).
    public var chainURLs: [String]

    public init(ad: VASTAd, wrappers: [VASTAd] = [], chainURLs: [String] = []) {
        self.ad = ad
        self.wrappers = wrappers
        self.chainURLs = chainURLs
    }

    /// The inline ad and its wrappers, innermost first.
    private var chain: [VASTAd] { [ad] + wrappers.reversed() }

    /// The impression URLs of the inline ad and every wrapper: all fire together at the ad's first frame.
    public var impressionURLs: [String] { chain.flatMap(\.impressionURLs) }
    /// The error URLs of the inline ad and every wrapper: an error is reported to each.
    public var errorURLs: [String] { chain.flatMap(\.errorURLs) }
    /// The linear tracking of the inline ad and of every wrapper's linear creative.
    public var trackingEvents: [VASTTracking] { chain.flatMap { $0.creatives.compactMap(\.linear).flatMap(\.trackingEvents) } }
    /// The click-tracking URLs of the chain.
    public var clickTrackingURLs: [String] { chain.flatMap { $0.creatives.compactMap(\.linear).flatMap(\.clickTrackingURLs) } }
    /// The verifications of the chain.
    public var verifications: [VASTVerification] { chain.flatMap(\.verifications) }
    /// The inline ad's linear creative.
    public var linear: VASTLinear? { ad.linear }
    /// The first HLS media file of the inline ad, the kind the engines play.
    public var hlsMediaFile: VASTMediaFile? { linear?.mediaFiles.first { $0.isHLS } }
    /// The `[UNIVERSALADID]` value: every universal ad ID of the linear creative, comma-separated.
    public var universalAdID: String? {
        let ids = ad.creatives.first { $0.linear != nil }?.universalAdIDs ?? []
        return ids.isEmpty ? nil : ids.joined(separator: ",")
    }
}

/// An error to report: the `[ERRORCODE]` and the `<Error>` URLs it goes to.
public struct VASTErrorReport: Sendable, Hashable {
    public var code: VASTErrorCode
    public var urls: [String]
    /// What happened, for logs.
    public var message: String

    /// - Parameters:
    ///   - code: the VAST error code (`[ERRORCODE]`).
    ///   - urls: the error URLs to call; one given twice (a wrapper met twice in a chain) is kept once.
    ///   - message: what happened, for logs.
    public init(code: VASTErrorCode, urls: [String], message: String) {
        self.code = code
        var seen = Set<String>()
        self.urls = urls.filter { seen.insert($0).inserted }
        self.message = message
    }
}

/// What resolving a VAST request gave: the ads to play in order, the errors to report, and each request made.
public struct VASTResolution: Sendable, Hashable {
    /// One VAST request of the resolution.
    public struct Fetch: Sendable, Hashable {
        public var url: String
        /// How many wrappers deep (0: the first request).
        public var depth: Int
        /// `nil` when it gave a VAST document, otherwise why not.
        public var failure: String?
        /// What its document held that could not be read (``VASTDocument/problems``).
        public var problems: [VASTProblem] = []
    }

    public var ads: [ResolvedVASTAd] = []
    public var errors: [VASTErrorReport] = []
    public var fetches: [Fetch] = []

    public init() {}
}

