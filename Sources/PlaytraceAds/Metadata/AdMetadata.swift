/// Ad metadata as one response gave it: the breaks, what the response covers, and what was wrong in it.
public struct AdMetadata: Sendable, Hashable {
    /// The breaks, in order of their start.
    public var pods: [AdPod]
    /// What the response covers (Harmonic's `dataRange`; `nil` for MediaTailor, which has none).
    public var dataRange: DataRange?
    /// What the times count from, as the values tell (see ``AdTimeline``).
    public var timeline: AdTimeline
    /// MediaTailor's paging token, when the response has one.
    public var nextToken: String?
    /// Non-linear avails listed by MediaTailor (overlays): counted and shown, never beaconed.
    public var nonLinearAvailCount: Int
    /// What was skipped or doubtful, each with where in the document it is. The other breaks, ads and events
    /// were kept.
    public var problems: [AdMetadataProblem]

    public init(pods: [AdPod], dataRange: DataRange? = nil, timeline: AdTimeline, nextToken: String? = nil,
                nonLinearAvailCount: Int = 0, problems: [AdMetadataProblem] = []) {
        self.pods = pods
        self.dataRange = dataRange
        self.timeline = timeline
        self.nextToken = nextToken
        self.nonLinearAvailCount = nonLinearAvailCount
        self.problems = problems
    }
}

/// Something wrong in one element of ad metadata; the element was skipped (or a default used) and the rest kept.
public struct AdMetadataProblem: Sendable, Hashable, CustomStringConvertible {
    /// Where: a JSON path such as `adBreaks[2].ads[0].trackingEvents[3]`.
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}

/// Why a metadata response could not be used at all.
public enum AdMetadataError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The body is larger than the limit (bytes).
    case bodyTooLarge(size: Int, limit: Int)
    /// The body is not JSON (the parser's message).
    case invalidJSON(String)
    /// The JSON is not an object at its root.
    case notAnObject
    /// A Harmonic response without a usable `dataRange`.
    case missingDataRange
    /// The metadata request failed with this HTTP status.
    case httpStatus(Int)

    public var description: String {
        switch self {
        case .bodyTooLarge(let size, let limit): "ad metadata of \(size) bytes is over the limit of \(limit) bytes"
        case .invalidJSON(let message): "ad metadata is not valid JSON: \(message)"
        case .notAnObject: "ad metadata is not a JSON object"
        case .missingDataRange: "ad metadata has no dataRange with a start and an end"
        case .httpStatus(let status): "the ad metadata request failed with HTTP \(status)"
        }
    }
}

/// Bounds on what one metadata response may hold. Beyond a count, the rest of the list is skipped and said once.
public struct AdMetadataLimits: Sendable, Hashable {
    public var maximumBodyBytes = 4 << 20
    public var maximumPods = 1_000
    public var maximumAdsPerPod = 200
    public var maximumEventsPerAd = 500
    public var maximumURLsPerEvent = 50
    public var maximumURLLength = 8_192

    public init() {}
}

/// The two ad metadata formats, told apart by their content.
public enum AdMetadataFormat: String, Sendable, Hashable, CaseIterable {
    /// Harmonic's `{"adBreaks": [...], "dataRange": {...}}`.
    case harmonic
    /// MediaTailor's `{"avails": [...], "nextToken": ...}`.
    case mediaTailor

    /// The format of a body, from the keys of its root object; `nil` when it is neither (or not JSON).
    public static func detect(_ body: some Collection<UInt8>) -> AdMetadataFormat? {
        parsed(body)?.format
    }

    /// A body's format and its decoding, from one parse; `nil` when the body is not ad metadata of either format
    /// (not a JSON object, or an object with neither format's keys).
    /// - Throws: ``AdMetadataError`` when it is ad metadata that cannot be used (a Harmonic response without a
    ///   `dataRange`).
    public static func detectAndDecode(_ body: some Collection<UInt8>, limits: AdMetadataLimits = AdMetadataLimits())
        throws(AdMetadataError) -> (format: AdMetadataFormat, metadata: AdMetadata)? {
        guard let (format, root) = parsed(body, limits: limits) else { return nil }
        switch format {
        case .harmonic: return (format, try HarmonicMetadataDecoder(limits: limits).decode(root: root))
        case .mediaTailor: return (format, try MediaTailorTrackingDecoder(limits: limits).decode(root: root))
        }
    }

    private static func parsed(_ body: some Collection<UInt8>,
                               limits: AdMetadataLimits = AdMetadataLimits()) -> (format: AdMetadataFormat, root: JSONReader)? {
        guard let first = body.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }),
              first == UInt8(ascii: "{"),
              let root = try? JSONReader.root(of: body, limits: limits) else { return nil }
        if root.object["adBreaks"] != nil || root.object["dataRange"] != nil { return (.harmonic, root) }
        if root.object["avails"] != nil || root.object["nonLinearAvails"] != nil { return (.mediaTailor, root) }
        return nil
    }

    /// Decodes a body of this format.
    public func decode(_ body: some Collection<UInt8>, limits: AdMetadataLimits = AdMetadataLimits()) throws(AdMetadataError) -> AdMetadata {
        switch self {
        case .harmonic: try HarmonicMetadataDecoder(limits: limits).decode(body)
        case .mediaTailor: try MediaTailorTrackingDecoder(limits: limits).decode(body)
        }
    }
}
