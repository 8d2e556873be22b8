public import PlaytraceCore

/// `EXT-X-DATERANGE`: a range of stream dates with attributes, used for ad breaks (SCTE-35), interstitials and
/// any timed metadata.
///
/// ```swift
/// if let interstitial = dateRange.interstitial { print(interstitial.assetList ?? "single asset") }
/// if let out = dateRange.scte35Out { print(try SpliceInfoSection(hex: out)) }
/// ```
public struct DateRange: Sendable, Hashable, Codable {
    /// `CUE`: when an interstitial is triggered relative to the primary content.
    public struct Cue: OptionSet, Sendable, Hashable, Codable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// `PRE`: before the primary content starts.
        public static let pre = Cue(rawValue: 1)
        /// `POST`: after the primary content ends.
        public static let post = Cue(rawValue: 2)
        /// `ONCE`: only the first time it is reached.
        public static let once = Cue(rawValue: 4)
    }

    /// `ID`: unique within the playlist; SCTE35-OUT and SCTE35-IN of one break share it.
    public var id: String
    /// `CLASS`: the semantics of the range's attributes (`com.apple.hls.interstitial` for interstitials).
    public var classIdentifier: String?
    /// `START-DATE`.
    public var startDate: StreamDate
    /// `CUE`.
    public var cue: Cue
    /// `END-DATE`.
    public var endDate: StreamDate?
    /// `DURATION`, in seconds.
    public var duration: MediaTime?
    /// `PLANNED-DURATION`, in seconds: the expected duration when the real one is not yet known.
    public var plannedDuration: MediaTime?
    /// `END-ON-NEXT=YES`: the range ends where the next one of the same class starts.
    public var endOnNext: Bool
    /// `SCTE35-CMD`, as written (`0x…`).
    public var scte35Command: String?
    /// `SCTE35-OUT`, as written (`0x…`).
    public var scte35Out: String?
    /// `SCTE35-IN`, as written (`0x…`).
    public var scte35In: String?
    /// The client-defined `X-…` attributes, in order (including the interstitial ones, typed in ``interstitial``).
    public var clientAttributes: AttributeList

    public init(
        id: String, classIdentifier: String? = nil, startDate: StreamDate, cue: Cue = [],
        endDate: StreamDate? = nil, duration: MediaTime? = nil, plannedDuration: MediaTime? = nil,
        endOnNext: Bool = false, scte35Command: String? = nil, scte35Out: String? = nil, scte35In: String? = nil,
        clientAttributes: AttributeList = AttributeList()
    ) {
        self.id = id
        self.classIdentifier = classIdentifier
        self.startDate = startDate
        self.cue = cue
        self.endDate = endDate
        self.duration = duration
        self.plannedDuration = plannedDuration
        self.endOnNext = endOnNext
        self.scte35Command = scte35Command
        self.scte35Out = scte35Out
        self.scte35In = scte35In
        self.clientAttributes = clientAttributes
    }

    /// The `CLASS` of HLS interstitials.
    public static let interstitialClass = "com.apple.hls.interstitial"

    /// The end date, from `END-DATE`, or `START-DATE` + `DURATION`, or + `PLANNED-DURATION`.
    public var effectiveEndDate: StreamDate? {
        if let endDate { return endDate }
        if let duration { return startDate + duration }
        if let plannedDuration { return startDate + plannedDuration }
        return nil
    }

    /// The typed interstitial attributes, when this range is an interstitial.
    public var interstitial: Interstitial? {
        classIdentifier == Self.interstitialClass ? Interstitial(clientAttributes) : nil
    }

    /// Whether this range signals an ad break: SCTE-35 out/in/command, or an interstitial.
    public var signalsAdBreak: Bool {
        scte35Out != nil || scte35In != nil || scte35Command != nil || classIdentifier == Self.interstitialClass
    }
}

/// The typed attributes of an HLS interstitial (`CLASS="com.apple.hls.interstitial"`).
public struct Interstitial: Sendable, Hashable, Codable {
    /// What the interstitial may restrict while it plays (`X-RESTRICT`).
    public struct Restrictions: OptionSet, Sendable, Hashable, Codable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// `SKIP`: the user may not skip the interstitial.
        public static let skip = Restrictions(rawValue: 1)
        /// `JUMP`: the user may not seek past the interstitial without playing it.
        public static let jump = Restrictions(rawValue: 2)
    }

    /// How the interstitial is positioned after a seek (`X-SNAP`).
    public struct Snap: OptionSet, Sendable, Hashable, Codable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let out = Snap(rawValue: 1)
        public static let `in` = Snap(rawValue: 2)
    }

    /// `X-ASSET-URI`: a single asset to play.
    public var assetURI: String?
    /// `X-ASSET-LIST`: a JSON asset list to fetch (see ``InterstitialAssetList``).
    public var assetList: String?
    /// `X-RESUME-OFFSET`: where primary playback resumes, relative to the interstitial's start date.
    public var resumeOffset: MediaTime?
    /// `X-PLAYOUT-LIMIT`: the longest the interstitial may play.
    public var playoutLimit: MediaTime?
    /// `X-SNAP`.
    public var snap: Snap
    /// `X-RESTRICT`.
    public var restrictions: Restrictions
    /// `X-SKIP-CONTROL-OFFSET`: when a skip button may appear.
    public var skipControlOffset: MediaTime?
    /// `X-SKIP-CONTROL-DURATION`: how long the skip button stays.
    public var skipControlDuration: MediaTime?
    /// `X-SKIP-CONTROL-LABEL-ID`.
    public var skipControlLabelID: String?
    /// `X-TIMELINE-OCCUPIES`: `POINT` or `RANGE`.
    public var timelineOccupies: String?
    /// `X-TIMELINE-STYLE`: `HIGHLIGHT` or `PRIMARY`.
    public var timelineStyle: String?
    /// `X-CONTENT-MAY-VARY`: `YES` or `NO`.
    public var contentMayVary: Bool?

    /// Whether exactly one of `X-ASSET-URI` and `X-ASSET-LIST` is present, as the specification requires.
    public var isValid: Bool { (assetURI != nil) != (assetList != nil) }

    public init(
        assetURI: String? = nil, assetList: String? = nil, resumeOffset: MediaTime? = nil,
        playoutLimit: MediaTime? = nil, snap: Snap = [], restrictions: Restrictions = [],
        skipControlOffset: MediaTime? = nil, skipControlDuration: MediaTime? = nil,
        skipControlLabelID: String? = nil, timelineOccupies: String? = nil, timelineStyle: String? = nil,
        contentMayVary: Bool? = nil
    ) {
        self.assetURI = assetURI
        self.assetList = assetList
        self.resumeOffset = resumeOffset
        self.playoutLimit = playoutLimit
        self.snap = snap
        self.restrictions = restrictions
        self.skipControlOffset = skipControlOffset
        self.skipControlDuration = skipControlDuration
        self.skipControlLabelID = skipControlLabelID
        self.timelineOccupies = timelineOccupies
        self.timelineStyle = timelineStyle
        self.contentMayVary = contentMayVary
    }

    /// Reads the typed attributes from a date range's client attributes.
    public init(_ attributes: AttributeList) {
        func time(_ name: String) -> MediaTime? {
            attributes[name].flatMap { Double($0.text) }.flatMap { MediaTime(documentSeconds: $0, allowsNegative: true) }
        }
        func words(_ name: String) -> [Substring] {
            attributes[name].map { $0.text.split(separator: ",").map { $0.drop { $0 == " " } } } ?? []
        }
        assetURI = attributes["X-ASSET-URI"]?.text
        assetList = attributes["X-ASSET-LIST"]?.text
        resumeOffset = time("X-RESUME-OFFSET")
        playoutLimit = time("X-PLAYOUT-LIMIT")
        skipControlOffset = time("X-SKIP-CONTROL-OFFSET")
        skipControlDuration = time("X-SKIP-CONTROL-DURATION")
        skipControlLabelID = attributes["X-SKIP-CONTROL-LABEL-ID"]?.text
        timelineOccupies = attributes["X-TIMELINE-OCCUPIES"]?.text
        timelineStyle = attributes["X-TIMELINE-STYLE"]?.text
        contentMayVary = attributes["X-CONTENT-MAY-VARY"].map { $0.text == "YES" }
        snap = []
        for word in words("X-SNAP") {
            if word == "OUT" { snap.insert(.out) } else if word == "IN" { snap.insert(.in) }
        }
        restrictions = []
        for word in words("X-RESTRICT") {
            if word == "SKIP" { restrictions.insert(.skip) } else if word == "JUMP" { restrictions.insert(.jump) }
        }
    }

    /// The interstitial as client attributes of a date range.
    public var attributes: AttributeList {
        var list = AttributeList()
        if let assetURI { list.append("X-ASSET-URI", .quoted(assetURI)) }
        if let assetList { list.append("X-ASSET-LIST", .quoted(assetList)) }
        if let resumeOffset { list.append("X-RESUME-OFFSET", .unquoted(formatDecimal(resumeOffset.seconds))) }
        if let playoutLimit { list.append("X-PLAYOUT-LIMIT", .unquoted(formatDecimal(playoutLimit.seconds))) }
        if !snap.isEmpty {
            list.append("X-SNAP", .quoted([snap.contains(.out) ? "OUT" : nil, snap.contains(.in) ? "IN" : nil]
                .compactMap { $0 }.joined(separator: ",")))
        }
        if !restrictions.isEmpty {
            list.append("X-RESTRICT", .quoted([
                restrictions.contains(.skip) ? "SKIP" : nil, restrictions.contains(.jump) ? "JUMP" : nil,
            ].compactMap { $0 }.joined(separator: ",")))
        }
        if let skipControlOffset {
            list.append("X-SKIP-CONTROL-OFFSET", .unquoted(formatDecimal(skipControlOffset.seconds)))
        }
        if let skipControlDuration {
            list.append("X-SKIP-CONTROL-DURATION", .unquoted(formatDecimal(skipControlDuration.seconds)))
        }
        if let skipControlLabelID { list.append("X-SKIP-CONTROL-LABEL-ID", .quoted(skipControlLabelID)) }
        if let timelineOccupies { list.append("X-TIMELINE-OCCUPIES", .quoted(timelineOccupies)) }
        if let timelineStyle { list.append("X-TIMELINE-STYLE", .quoted(timelineStyle)) }
        if let contentMayVary { list.append("X-CONTENT-MAY-VARY", .quoted(contentMayVary ? "YES" : "NO")) }
        return list
    }

    /// The attribute names that this type interprets.
    public static let attributeNames: Set<String> = [
        "X-ASSET-URI", "X-ASSET-LIST", "X-RESUME-OFFSET", "X-PLAYOUT-LIMIT", "X-SNAP", "X-RESTRICT",
        "X-SKIP-CONTROL-OFFSET", "X-SKIP-CONTROL-DURATION", "X-SKIP-CONTROL-LABEL-ID", "X-TIMELINE-OCCUPIES",
        "X-TIMELINE-STYLE", "X-CONTENT-MAY-VARY",
    ]
}

/// Formats a decimal number as HLS writes it: the shortest text that reads back as the same number.
func formatDecimal(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
}
