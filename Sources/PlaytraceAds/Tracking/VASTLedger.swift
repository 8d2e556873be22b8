/// What a session keeps of its VAST ads: each ad's macro values and error URLs, the chains resolved (bounded), and
/// the error reports fired, so that none is sent twice.
struct VASTLedger {
    /// The macro values and error URLs of VAST ads, by break and ad ID.
    private var contexts: [String: [String: VASTAdContext]] = [:]
    /// The VAST responses resolved, the latest of each break, oldest first; at most ``chainLimit``.
    private(set) var chains: [VASTChainRecord] = []
    /// How many were resolved past ``chainLimit`` (the oldest records were dropped for them).
    private(set) var chainsDropped = 0
    /// How many resolutions are kept.
    let chainLimit: Int
    /// The error reports fired.
    private var firedErrors: Set<TrackingEventKey> = []

    init(chainLimit: Int) {
        self.chainLimit = chainLimit
    }

    /// Keeps the macro values and error URLs of a break's ads.
    mutating func track(_ adBreak: VASTAdBreak) {
        contexts[adBreak.pod.id] = adBreak.contexts
    }

    /// The macro values and error URLs of an ad, when it came from VAST.
    func context(pod: String, ad: String) -> VASTAdContext? {
        contexts[pod]?[ad]
    }

    /// Keeps a resolution: a break's latest replaces its earlier one; past ``chainLimit`` the oldest is dropped.
    mutating func record(_ chain: VASTChainRecord) {
        chains.removeAll { $0.podID == chain.podID }
        chains.append(chain)
        if chains.count > chainLimit {
            chainsDropped += chains.count - chainLimit
            chains.removeFirst(chains.count - chainLimit)
        }
    }

    /// The error codes of a break's latest resolution.
    func errorCodes(ofPod id: String) -> [VASTErrorCode] {
        chains.last { $0.podID == id }?.errors.map(\.code) ?? []
    }

    /// Whether an error report is fired for the first time (it is then remembered).
    mutating func firesFirst(_ key: TrackingEventKey) -> Bool {
        firedErrors.insert(key).inserted
    }
}
