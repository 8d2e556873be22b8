public import PlaytraceCore
public import PlaytraceHLS

/// The shape of the lab's streams.
public struct LabConfiguration: Sendable {
    /// One rung of the bit rate ladder.
    public struct Variant: Sendable, Hashable {
        public var bandwidth: Int
        public var width: Int
        public var height: Int
        public init(bandwidth: Int, width: Int, height: Int) {
            self.bandwidth = bandwidth
            self.width = width
            self.height = height
        }

        /// Its video's RFC 6381 codec: H.264 Main profile at the level x264 picks for its frame size at 25 fps (as
        /// `scripts/generate-media` encodes the real media): 3.0 up to 1,620 macroblocks a frame (360p), 3.1 up to
        /// 3,600 (720p), 3.2 up to 5,120, 4.0 up to 8,192 (1080p), 5.1 beyond.
        public var videoCodec: String {
            let macroblocks = ((width + 15) / 16) * ((height + 15) / 16)
            let level = switch macroblocks {
            case ...1_620: "1e"
            case ...3_600: "1f"
            case ...5_120: "20"
            case ...8_192: "28"
            default: "33"
            }
            return "avc1.4d40" + level
        }
    }

    /// The bit rate ladder, lowest first.
    public var variants: [Variant]

    /// The default ladder: 400 kbit/s to 3 Mbit/s, 360p to 1080p.
    public static let standardLadder = [
        Variant(bandwidth: 400_000, width: 640, height: 360),
        Variant(bandwidth: 1_200_000, width: 1280, height: 720),
        Variant(bandwidth: 3_000_000, width: 1920, height: 1080),
    ]

    /// A ladder for load (`playtrace lab --ladder load`): 32, 64 and 128 kbit/s, so that thousands of viewers on one
    /// machine are bound by what they do rather than by the bytes they move (10,000 viewers at the top rung are
    /// 160 MB/s on loopback; the standard ladder's would be 3.75 GB/s).
    public static let loadLadder = [
        Variant(bandwidth: 32_000, width: 256, height: 144),
        Variant(bandwidth: 64_000, width: 426, height: 240),
        Variant(bandwidth: 128_000, width: 640, height: 360),
    ]
    /// Every segment's duration, in seconds.
    public var segmentDuration: Int
    /// The number of segments of the on-demand stream.
    public var vodSegmentCount: Int
    /// The first segment's program-date-time, for on-demand; the live stream's origin.
    public var startDate: StreamDate
    /// Segments in the live playlist's window.
    public var liveWindowSegments: Int
    /// Segments in the DVR playlist's window.
    public var dvrWindowSegments: Int
    /// Segments that already exist when the lab starts (so that a live window is full at once).
    public var liveHistorySegments: Int
    /// A directory of real media (made by `scripts/generate-media`) served under `/media/`, when set: HLS that a
    /// decoder can play, beside the lab's synthetic streams, with the same faults applying. Its `lab/` part makes
    /// the lab's on-demand streams real (the content and renditions of `/vod/…`, `/interstitials/…` and their SSAI
    /// sessions, and the interstitials' ad): their playlists stay the lab's, their segments become decodable.
    public var mediaDirectory: String?
    /// With real media (``mediaDirectory``), the live and DVR streams loop the lab's content (the stream with
    /// interstitials' segments): their segment `n` is its segment `n` modulo this, its timestamps moved on by the
    /// loops before it, so that they run on as a live encoder's do. `nil` without real media.
    public var liveLoopSegments: Int? { mediaDirectory == nil ? nil : max(1, interstitialStreamSegmentCount) }
    /// Whether the on-demand stream has its interstitial (tests of the primary alone leave it out).
    public var vodHasInterstitial = true
    /// The on-demand interstitial's `X-RESTRICT` (skip restricted by default; the stream with interstitials has the
    /// jump-restricted one).
    public var vodInterstitialRestrictions: Interstitial.Restrictions = [.skip]
    /// On live and DVR streams, an interstitial (`live-int-<n>`: one 4 s ad, `X-ASSET-URI`, resuming after what it
    /// played, as live replacement does) at the first segment of every this many; `nil`: none.
    public var liveInterstitialInterval: Int?
    /// The number of segments of the stream with interstitials (`/interstitials/…`).
    public var interstitialStreamSegmentCount = 20
    /// On live streams, an ad break starts every this many segments…
    public var liveAdBreakInterval: Int
    /// …and lasts this many segments.
    public var liveAdBreakLength: Int
    /// Other ad vendors' beacon servers (base URLs, `http://127.0.0.1:9000`): every SSAI tracking event also lists
    /// a URL to each, `<vendor>/beacons/<format>/<break>/<ad>/<event>`, after the lab's own. Empty: the lab's own
    /// sink only.
    public var beaconVendors: [String] = []
    /// How far the live DASH encoder's wall clock is ahead of the stream's dates, in seconds: the `prft` box of each
    /// live DASH segment, its MPD's `ProducerReferenceTime` and the `prftStartTime`s of a Harmonic DASH session's
    /// metadata count on that clock.
    public var producerClockOffset = 1.5
    /// How much later than its media a Harmonic DASH session's metadata gives its `startTime`s, in seconds: a
    /// packager whose presentation times are off its encoder's clock (its `prftStartTime`s stay right). 0: none.
    public var harmonicDASHStartTimeSkew = 0.0

    public init(
        variants: [Variant] = Self.standardLadder,
        segmentDuration: Int = 4, vodSegmentCount: Int = 10,
        startDate: StreamDate = StreamDate(secondsSince1970: 1_767_225_600),
        liveWindowSegments: Int = 6, dvrWindowSegments: Int = 30, liveHistorySegments: Int = 30,
        liveAdBreakInterval: Int = 10, liveAdBreakLength: Int = 3
    ) {
        self.variants = variants
        self.segmentDuration = segmentDuration
        self.vodSegmentCount = vodSegmentCount
        self.startDate = startDate
        self.liveWindowSegments = liveWindowSegments
        self.dvrWindowSegments = dvrWindowSegments
        self.liveHistorySegments = liveHistorySegments
        self.liveAdBreakInterval = liveAdBreakInterval
        self.liveAdBreakLength = liveAdBreakLength
    }

    /// The on-demand stream's ad layout: a SCTE-35 break (DATERANGE and CUE tags) from segment 2 for 2 segments,
    /// and an interstitial at segment 6.
    public var vodBreakStartSegment: Int { min(2, max(0, vodSegmentCount - 1)) }
    public var vodBreakLengthSegments: Int { 2 }
    public var vodInterstitialSegment: Int { min(6, max(0, vodSegmentCount - 1)) }
    /// The interstitial's ad assets: durations in seconds.
    public var interstitialAssetDurations: [Int] { [segmentDuration * 2, segmentDuration] }
}
