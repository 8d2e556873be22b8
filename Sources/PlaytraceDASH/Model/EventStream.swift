/// A period's `EventStream`: timed events of one scheme (SCTE-35 ad signals, SVTA ad-ID signalling…).
///
/// An event's time on the presentation timeline is the period's start + (``Event/presentationTime`` −
/// ``presentationTimeOffset``) / ``timescale``.
public struct EventStream: Sendable, Hashable {
    public var schemeIdURI: String
    public var value: String?
    /// Ticks per second (1 when absent or not positive).
    public var timescale: Int64 = 1
    public var presentationTimeOffset: Int64 = 0
    public var events: [Event] = []
    public var line = 0

    public init(schemeIdURI: String) {
        self.schemeIdURI = schemeIdURI
    }

    /// `urn:scte:scte35:2013:xml`, `urn:scte:scte35:2014:xml+bin` or `urn:scte:scte35:2013:bin`.
    public var isSCTE35: Bool { EventScheme.isSCTE35(schemeIdURI) }

    /// SVTA2053 ad creative signaling (``EventScheme/isAdCreativeSignaling(_:)``).
    public var isAdCreativeSignaling: Bool { EventScheme.isAdCreativeSignaling(schemeIdURI) }
}

extension EventStream {
    /// One `Event` of an event stream.
    public struct Event: Sendable, Hashable {
        /// In the stream's timescale (0 when absent).
        public var presentationTime: Int64 = 0
        public var duration: Int64?
        public var id: String?
        /// What the event carries.
        public var content: Content = .none
        public var line = 0

        /// What an event carries.
        public enum Content: Sendable, Hashable {
            case none
            /// `@messageData`, or the element's text (a CDATA JSON document for ad-ID signalling), as written.
            case text(String)
            /// A binary message: `scte35:Signal/scte35:Binary` (a base64 `splice_info_section`, decoded), or
            /// `@messageData` with `@contentEncoding="base64"`.
            case binary([UInt8])
            /// A `scte35:SpliceInfoSection` written as XML: its element and attribute names, kept for `inspect`.
            case scte35XML(String)
        }

        public init() {}
    }
}
