public import PlaytraceCore

/// A VAST response (IAB VAST 4.x, read by ``VASTParser``): its ads, and the root `<Error>` URLs (requested with
/// error 303 when it holds no ad).
public struct VASTDocument: Sendable, Hashable {
    /// The `version` attribute of `<VAST>`.
    public var version: String
    public var ads: [VASTAd]
    /// The root `<Error>` URLs.
    public var errorURLs: [String]
    /// What the parser could not read and passed over (a time or number out of its form or range, a tracking
    /// element without its event, an ad without a body), each at its line; the rest of the document is kept.
    public var problems: [VASTProblem]

    public init(version: String, ads: [VASTAd] = [], errorURLs: [String] = [], problems: [VASTProblem] = []) {
        self.version = version
        self.ads = ads
        self.errorURLs = errorURLs
        self.problems = problems
    }

    /// The ads of a pod (those with a `sequence`, in its order), when there is one.
    public var pod: [VASTAd] {
        ads.filter { $0.sequence != nil }.sorted { ($0.sequence ?? 0) < ($1.sequence ?? 0) }
    }

    /// The stand-alone ads (without `sequence`), in document order.
    public var standAloneAds: [VASTAd] { ads.filter { $0.sequence == nil } }
}

/// Something in a VAST document that could not be read and was passed over, at its line: a lenient reading (as
/// players read VAST) that still says what it left out.
///
/// ```swift
/// let document = try VASTParser().parse(Data(xml.utf8))
/// for problem in document.problems { print(problem) }   // line 12: <Duration> "99:99:99" is not HH:MM:SS…
/// ```
public struct VASTProblem: Sendable, Hashable, CustomStringConvertible {
    /// The line of the document (from 1) where the element that holds it starts or ends.
    public var line: Int
    public var message: String

    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { "line \(line): \(message)" }
}

/// One `<Ad>`: an inline ad, or a wrapper that points to another VAST response.
public struct VASTAd: Sendable, Hashable {
    /// `<InLine>` or `<Wrapper>`.
    public enum Kind: Sendable, Hashable {
        case inline(VASTInline)
        case wrapper(VASTWrapper)
    }

    /// The `id` attribute.
    public var id: String?
    /// The `sequence` attribute: its place in a pod.
    public var sequence: Int?
    /// The `adType` attribute (`video`, `audio`, `hybrid`).
    public var adType: String?
    public var kind: Kind
    /// `<AdSystem>`.
    public var adSystem: String?
    /// `<AdServingId>`.
    public var adServingID: String?
    /// `<Impression>` URLs.
    public var impressionURLs: [String]
    /// `<Error>` URLs.
    public var errorURLs: [String]
    /// `<ViewableImpression>` URLs: `Viewable`, `NotViewable` and `ViewUndetermined`.
    public var viewableURLs: [String]
    public var notViewableURLs: [String]
    public var viewUndeterminedURLs: [String]
    public var creatives: [VASTCreative]
    /// `<AdVerifications>`.
    public var verifications: [VASTVerification]

    public init(id: String? = nil, sequence: Int? = nil, adType: String? = nil, kind: Kind, adSystem: String? = nil,
                adServingID: String? = nil, impressionURLs: [String] = [], errorURLs: [String] = [],
                viewableURLs: [String] = [], notViewableURLs: [String] = [], viewUndeterminedURLs: [String] = [],
                creatives: [VASTCreative] = [], verifications: [VASTVerification] = []) {
        self.id = id
        self.sequence = sequence
        self.adType = adType
        self.kind = kind
        self.adSystem = adSystem
        self.adServingID = adServingID
        self.impressionURLs = impressionURLs
        self.errorURLs = errorURLs
        self.viewableURLs = viewableURLs
        self.notViewableURLs = notViewableURLs
        self.viewUndeterminedURLs = viewUndeterminedURLs
        self.creatives = creatives
        self.verifications = verifications
    }

    /// The wrapper, when the ad is one.
    public var wrapper: VASTWrapper? { if case .wrapper(let wrapper) = kind { wrapper } else { nil } }
    /// The inline ad, when the ad is one.
    public var inline: VASTInline? { if case .inline(let inline) = kind { inline } else { nil } }
    /// The first linear creative.
    public var linear: VASTLinear? { creatives.lazy.compactMap(\.linear).first }
}

/// What only an `<InLine>` ad has.
public struct VASTInline: Sendable, Hashable {
    /// `<AdTitle>`.
    public var title: String?
    /// `<Description>`.
    public var description: String?
    /// `<Category>` values.
    public var categories: [String]

    public init(title: String? = nil, description: String? = nil, categories: [String] = []) {
        self.title = title
        self.description = description
        self.categories = categories
    }
}

/// What only a `<Wrapper>` has: where the next VAST response is, and how to follow it.
public struct VASTWrapper: Sendable, Hashable {
    /// `<VASTAdTagURI>`.
    public var adTagURI: String
    /// `followAdditionalWrappers` (default `true`): whether the next response may be a wrapper again.
    public var followAdditionalWrappers: Bool
    /// `allowMultipleAds` (default `false`): whether the next response may give several ads (a pod).
    public var allowMultipleAds: Bool
    /// `fallbackOnNoAd`: whether a stand-alone ad may be taken when the next response has no ad.
    public var fallbackOnNoAd: Bool?

    public init(adTagURI: String, followAdditionalWrappers: Bool = true, allowMultipleAds: Bool = false,
                fallbackOnNoAd: Bool? = nil) {
        self.adTagURI = adTagURI
        self.followAdditionalWrappers = followAdditionalWrappers
        self.allowMultipleAds = allowMultipleAds
        self.fallbackOnNoAd = fallbackOnNoAd
    }
}

/// One `<Creative>`: a linear ad, companions or non-linear ads.
public struct VASTCreative: Sendable, Hashable {
    public var id: String?
    /// The `adId` attribute.
    public var adID: String?
    public var sequence: Int?
    /// `<UniversalAdId>`s, as `registry value` (the `[UNIVERSALADID]` macro's form).
    public var universalAdIDs: [String]
    public var linear: VASTLinear?
    public var companions: [VASTCompanion]
    /// `<NonLinearAds>`: the non-linear ads and their tracking.
    public var nonLinears: [VASTNonLinear]
    public var nonLinearTracking: [VASTTracking]

    public init(id: String? = nil, adID: String? = nil, sequence: Int? = nil, universalAdIDs: [String] = [],
                linear: VASTLinear? = nil, companions: [VASTCompanion] = [], nonLinears: [VASTNonLinear] = [],
                nonLinearTracking: [VASTTracking] = []) {
        self.id = id
        self.adID = adID
        self.sequence = sequence
        self.universalAdIDs = universalAdIDs
        self.linear = linear
        self.companions = companions
        self.nonLinears = nonLinears
        self.nonLinearTracking = nonLinearTracking
    }
}

/// A `<Linear>` creative: its duration, media files, tracking and clicks (a wrapper's carries tracking only).
public struct VASTLinear: Sendable, Hashable {
    /// `<Duration>`.
    public var duration: MediaTime?
    /// The `skipoffset` attribute.
    public var skipOffset: VASTOffset?
    public var mediaFiles: [VASTMediaFile]
    public var trackingEvents: [VASTTracking]
    /// `<ClickThrough>`: a page to open, never requested as a beacon.
    public var clickThrough: String?
    /// `<ClickTracking>` URLs.
    public var clickTrackingURLs: [String]

    public init(duration: MediaTime? = nil, skipOffset: VASTOffset? = nil, mediaFiles: [VASTMediaFile] = [],
                trackingEvents: [VASTTracking] = [], clickThrough: String? = nil, clickTrackingURLs: [String] = []) {
        self.duration = duration
        self.skipOffset = skipOffset
        self.mediaFiles = mediaFiles
        self.trackingEvents = trackingEvents
        self.clickThrough = clickThrough
        self.clickTrackingURLs = clickTrackingURLs
    }
}

/// A `<MediaFile>`.
public struct VASTMediaFile: Sendable, Hashable {
    public var url: String
    /// `delivery`: `progressive` or `streaming`.
    public var delivery: String?
    /// `type`: the MIME type (`application/x-mpegURL` for HLS).
    public var mimeType: String?
    public var width: Int?
    public var height: Int?
    /// `bitrate`, in kbit/s.
    public var bitrate: Int?
    public var codec: String?

    public init(url: String, delivery: String? = nil, mimeType: String? = nil, width: Int? = nil, height: Int? = nil,
                bitrate: Int? = nil, codec: String? = nil) {
        self.url = url
        self.delivery = delivery
        self.mimeType = mimeType
        self.width = width
        self.height = height
        self.bitrate = bitrate
        self.codec = codec
    }

    /// Whether it is an HLS stream (by its MIME type, or a `.m3u8` path when it has none).
    public var isHLS: Bool {
        if let type = mimeType?.lowercased() {
            return type == "application/x-mpegurl" || type == "application/vnd.apple.mpegurl" || type == "audio/mpegurl"
        }
        return url.lowercased().split(separator: "?").first?.hasSuffix(".m3u8") ?? false
    }
}

/// A `<Tracking>` URL: its event and, for `progress`, its offset.
public struct VASTTracking: Sendable, Hashable {
    /// The `event` attribute, as written.
    public var event: String
    /// The `offset` attribute (`progress` only).
    public var offset: VASTOffset?
    public var url: String

    public init(event: String, offset: VASTOffset? = nil, url: String) {
        self.event = event
        self.offset = offset
        self.url = url
    }
}

/// A `<Companion>`: listed, never displayed.
public struct VASTCompanion: Sendable, Hashable {
    public var id: String?
    public var width: Int?
    public var height: Int?
    /// Its resources: `static <creativeType> <url>`, `iframe <url>`, `html`.
    public var resources: [String]
    public var clickThrough: String?
    public var trackingEvents: [VASTTracking]

    public init(id: String? = nil, width: Int? = nil, height: Int? = nil, resources: [String] = [],
                clickThrough: String? = nil, trackingEvents: [VASTTracking] = []) {
        self.id = id
        self.width = width
        self.height = height
        self.resources = resources
        self.clickThrough = clickThrough
        self.trackingEvents = trackingEvents
    }
}

/// A `<NonLinear>` ad (an overlay): listed, never displayed.
public struct VASTNonLinear: Sendable, Hashable {
    public var id: String?
    public var width: Int?
    public var height: Int?
    /// `minSuggestedDuration`.
    public var minSuggestedDuration: MediaTime?
    public var resources: [String]
    public var clickThrough: String?

    public init(id: String? = nil, width: Int? = nil, height: Int? = nil, minSuggestedDuration: MediaTime? = nil,
                resources: [String] = [], clickThrough: String? = nil) {
        self.id = id
        self.width = width
        self.height = height
        self.minSuggestedDuration = minSuggestedDuration
        self.resources = resources
        self.clickThrough = clickThrough
    }
}

/// A `<Verification>`: a measurement script Playtrace does not run (its `verificationNotExecuted` tracking is sent
/// with `[REASON]` 2, not supported).
public struct VASTVerification: Sendable, Hashable {
    /// The `vendor` attribute.
    public var vendor: String?
    /// `<JavaScriptResource>` and `<ExecutableResource>` URLs.
    public var resources: [String]
    /// `<VerificationParameters>`, verbatim.
    public var parameters: String?
    public var trackingEvents: [VASTTracking]

    public init(vendor: String? = nil, resources: [String] = [], parameters: String? = nil,
                trackingEvents: [VASTTracking] = []) {
        self.vendor = vendor
        self.resources = resources
        self.parameters = parameters
        self.trackingEvents = trackingEvents
    }
}
