// What people read: the player's enumerations in the words of the field, never their Swift case names
// (`onDemand`, `throughputUp`, `httpStatus`). Their raw values stay what machines read (JSON, telemetry).

extension StreamType: CustomStringConvertible {
    /// "on demand", "live", "DVR" or "unknown".
    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .onDemand: "on demand"
        case .live: "live"
        case .dvr: "DVR"
        }
    }
}

extension MediaType: CustomStringConvertible {
    /// "audio", "video" or "unknown media".
    public var description: String {
        switch self {
        case .unknown: "unknown media"
        case .audio: "audio"
        case .video: "video"
        }
    }
}

extension VariantSwitchReason: CustomStringConvertible {
    /// Why the variant changed, as a phrase: "throughput up", "failover"…
    public var description: String {
        switch self {
        case .throughputUp: "throughput up"
        case .throughputDown: "throughput down"
        case .limits: "variant limits"
        case .initial: "initial choice"
        case .failover: "failover"
        case .contentSteering: "content steering"
        }
    }
}

extension RequestRecord.Kind: CustomStringConvertible {
    /// What was fetched: "media playlist", "segment", "initialization section"…
    public var description: String {
        switch self {
        case .multivariantPlaylist: "multivariant playlist"
        case .mediaPlaylist: "media playlist"
        case .segment: "segment"
        case .initializationSection: "initialization section"
        case .key: "key"
        case .steeringManifest: "steering manifest"
        case .manifest: "MPD"
        case .clock: "clock"
        case .segmentIndex: "segment index"
        case .other: "resource"
        }
    }
}

extension EngineError.Kind: CustomStringConvertible {
    /// Where the error came from: "network", "HTTP", "playlist"…
    public var description: String {
        switch self {
        case .network: "network"
        case .httpStatus: "HTTP"
        case .playlist: "playlist"
        case .unsupported: "unsupported media"
        case .decoding: "decoding"
        case .asset: "asset"
        }
    }
}
