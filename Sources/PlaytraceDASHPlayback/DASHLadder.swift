public import PlaytraceDASH

/// What a DASH presentation offers, read once when it loads, as an HLS multivariant playlist lists it: the rungs of
/// its video ladder (of its audio one when it has no video), how many locations its base URLs give, and its audio
/// and text adaptation sets.
///
/// A presentation's periods each have their own adaptation sets and representations (an SSAI ad period has the ad
/// server's). The ladder is the first period's; in every period a rung plays the representation
/// ``representation(rung:in:)`` finds, and a rendition the set ``adaptationSet(for:in:)`` finds.
public struct DASHLadder: Sendable, Hashable {
    /// One rung: what a variant stream says of it.
    public struct Rung: Sendable, Hashable {
        /// The representation's `@bandwidth`, bits per second.
        public var bandwidth: Int
        public var width: Int?
        public var height: Int?
        public var frameRate: Double?
        public var codecs: String?
        /// The representation's id in the period the ladder was read from.
        public var representationID: String
    }

    /// An audio or text adaptation set, as an `EXT-X-MEDIA` rendition lists it.
    public struct Rendition: Sendable, Hashable {
        /// The kind (audio or text), language and label or role: what finds the set again in another period.
        public var key: String
        public var kind: MediaKind
        public var name: String
        public var language: String?
        /// `Role` `main` (or, without one, the first set of its kind, for audio).
        public var isDefault: Bool
        /// The HLS characteristics its roles and accessibility descriptors mean.
        public var characteristics: [String]
        public var bandwidth: Int?
        public var codecs: String?
    }

    /// What the rungs are: video, or audio for an audio-only presentation.
    public var kind: MediaKind
    /// The rungs, the lowest bandwidth first.
    public var rungs: [Rung]
    /// How many base URL locations each rung's segments have (1 to 16): each beyond the first a redundant variant.
    public var locations: Int
    public var renditions: [Rendition]

    /// The ladder of `presentation`'s first period that has one; empty when no period has video or audio.
    public init(_ presentation: ResolvedPresentation) {
        var kind = MediaKind.video
        var ladderSet: ResolvedAdaptationSet?
        for candidate in [MediaKind.video, .audio] {
            if let set = presentation.periods.lazy.compactMap({ Self.mainSet(of: candidate, in: $0) }).first {
                kind = candidate
                ladderSet = set
                break
            }
        }
        self.kind = kind
        let sorted = ladderSet.map { Self.byBandwidth($0.representations) } ?? []
        rungs = sorted.map { representation in
            Rung(bandwidth: Int(clamping: representation.bandwidth ?? 0),
                 width: representation.attributes.width.map { Int(clamping: $0) },
                 height: representation.attributes.height.map { Int(clamping: $0) },
                 frameRate: representation.attributes.frameRate?.framesPerSecond,
                 codecs: representation.attributes.codecs, representationID: representation.id)
        }
        locations = max(1, sorted.first?.baseURLs.count ?? 1)
        var renditions: [Rendition] = []
        let firstPeriod = presentation.periods.first { Self.mainSet(of: kind, in: $0) != nil }
        for set in firstPeriod?.adaptationSets ?? [] where set.kind == .audio || set.kind == .text {
            // An audio-only presentation's ladder is its audio: the audio sets are not renditions of it.
            guard kind == .video || set.kind == .text else { continue }
            let key = Self.key(of: set)
            guard !renditions.contains(where: { $0.key == key }) else { continue }
            let isMain = set.roles.contains { $0.isDASHRole && $0.value == "main" }
            let first = set.representations.first
            renditions.append(Rendition(
                key: key, kind: set.kind, name: set.labels.first ?? set.lang ?? key, language: set.lang,
                isDefault: isMain, characteristics: Self.characteristics(of: set),
                bandwidth: first?.bandwidth.map { Int(clamping: $0) }, codecs: first?.attributes.codecs))
        }
        // Without a `main` role, the first audio set is the default.
        if !renditions.contains(where: { $0.kind == .audio && $0.isDefault }),
           let first = renditions.firstIndex(where: { $0.kind == .audio }) {
            renditions[first].isDefault = true
        }
        self.renditions = renditions
    }

    /// The representation rung `rung` plays in `period`: the one of the period's main set of the ladder's kind with
    /// the highest bandwidth at or below the rung's, else its lowest (an ad period's ladder may be shorter or
    /// differently spaced).
    public func representation(rung: Int, in period: ResolvedPeriod) -> ResolvedRepresentation? {
        guard rungs.indices.contains(rung), let set = Self.mainSet(of: kind, in: period) else { return nil }
        let sorted = Self.byBandwidth(set.representations)
        let wanted = Int64(rungs[rung].bandwidth)
        return sorted.last { ($0.bandwidth ?? 0) <= wanted } ?? sorted.first
    }

    /// The adaptation set rendition `key` plays in `period`: the one with the same key, else the same kind and
    /// language, else the period's default of the kind.
    public func adaptationSet(for rendition: Rendition, in period: ResolvedPeriod) -> ResolvedAdaptationSet? {
        let sets = period.adaptationSets.filter { $0.kind == rendition.kind && !$0.representations.isEmpty }
        return sets.first { Self.key(of: $0) == rendition.key }
            ?? sets.first { $0.lang != nil && $0.lang == rendition.language }
            ?? sets.first { set in set.roles.contains { $0.isDASHRole && $0.value == "main" } }
            ?? sets.first
    }

    /// The set a period plays for `kind`: the one whose `Role` is `main`, else the first with representations.
    static func mainSet(of kind: MediaKind, in period: ResolvedPeriod) -> ResolvedAdaptationSet? {
        let sets = period.adaptationSets.filter { $0.kind == kind && !$0.representations.isEmpty }
        return sets.first { set in set.roles.contains { $0.isDASHRole && $0.value == "main" } } ?? sets.first
    }

    private static func byBandwidth(_ representations: [ResolvedRepresentation]) -> [ResolvedRepresentation] {
        // Stable: representations of equal bandwidth keep the MPD's order.
        representations.enumerated().sorted { lhs, rhs in
            let (left, right) = (lhs.element.bandwidth ?? 0, rhs.element.bandwidth ?? 0)
            return left == right ? lhs.offset < rhs.offset : left < right
        }.map(\.element)
    }

    /// `kind:language:label` (the label else the roles' values, else the set's id).
    static func key(of set: ResolvedAdaptationSet) -> String {
        let roles = set.roles.filter(\.isDASHRole).compactMap(\.value).sorted().joined(separator: "+")
        let name = set.labels.first ?? (roles.isEmpty ? set.id ?? "" : roles)
        return "\(set.kind.rawValue):\(set.lang ?? "und"):\(name)"
    }

    /// The HLS characteristics (RFC 8216bis `CHARACTERISTICS`) a set's roles and accessibility say.
    static func characteristics(of set: ResolvedAdaptationSet) -> [String] {
        var characteristics: [String] = []
        let roles = set.roles.filter(\.isDASHRole).compactMap(\.value)
        if roles.contains("description") {
            characteristics.append("public.accessibility.describes-video")
        }
        if roles.contains("caption") || set.accessibility.contains(where: { $0.schemeIdURI.contains("cea-608") }) {
            characteristics.append("public.accessibility.transcribes-spoken-dialog")
            characteristics.append("public.accessibility.describes-music-and-sound")
        }
        return characteristics
    }
}

extension Descriptor {
    /// A `Role` of the DASH role scheme (`urn:mpeg:dash:role:2011`).
    var isDASHRole: Bool { schemeIdURI == "urn:mpeg:dash:role:2011" }
}
