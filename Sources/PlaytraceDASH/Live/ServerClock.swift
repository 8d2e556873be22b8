public import Foundation
public import PlaytraceCore

/// A live presentation's clock: how to ask the server its time (`UTCTiming`, in the MPD's order of preference), read
/// its answer, and the offset of this machine's clock from it. A live MPD's segments exist by the server's clock: a
/// client whose own clock is minutes off finds none (ExoPlayer #5979), so the MPD says which clock to trust.
///
/// The fetching is the caller's (the engine's or the command line's transport); this type says what to fetch and
/// reads what came back.
///
/// ```swift
/// for request in timing.requests {
///     // GET or HEAD request.url; then:
///     if let server = timing.serverTime(body: body, dateHeader: date) {
///         let offset = ServerClock.offset(server: server, sent: sent, received: received)
///     }
/// }
/// ```
public enum ServerClock {
    /// How far the server's clock is ahead of this one (negative: behind), with the request's round trip taken
    /// into account as dash.js does: the server's time is taken to be that of the midpoint between sending and
    /// receiving.
    public static func offset(server: StreamDate, sent: StreamDate, received: StreamDate) -> Duration {
        let midpoint = (sent.secondsSince1970 + received.secondsSince1970) / 2
        return .seconds(server.secondsSince1970 - midpoint)
    }

    /// An `xs:dateTime` or ISO 8601 time; one without a zone is UTC (as the MPD's dates are read).
    static func date(_ text: some StringProtocol) -> StreamDate? {
        let trimmed = String(text.trimmingXMLSpace)
        if let date = try? StreamDate(iso8601: trimmed) { return date }
        if let last = trimmed.last, last.isNumber { return try? StreamDate(iso8601: trimmed + "Z") }
        return nil
    }
}

extension UTCTiming {
    /// A request that asks the server its time.
    public struct Request: Sendable, Hashable {
        /// `GET` (the body is the time) or `HEAD` (the `Date` header is).
        public var method: String
        public var url: URL
    }

    /// The requests this element asks for, in order (`@value` may list several URLs, separated by white space); none
    /// for `direct` (the value is the time) and for the schemes Playtrace does not use (NTP).
    public var requests: [Request] {
        let method: String
        switch scheme {
        case .httpISO, .httpXSDate: method = "GET"
        case .httpHead: method = "HEAD"
        case .direct, .ntp, .other: return []
        }
        // The HTTP-VALUE grammar requires http(s) URLs.
        return value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).compactMap { text in
            guard let url = URL(string: String(text)), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
            else { return nil }
            return Request(method: method, url: url)
        }
    }

    /// The time `direct` gives in its value; `nil` for other schemes.
    public var directTime: StreamDate? {
        guard case .direct = scheme else { return nil }
        return ServerClock.date(value)
    }

    /// The server's time in the answer to one of ``requests``: the body (http-iso, http-xsdate; at most 256 bytes
    /// read) or the `Date` header (http-head). `nil` when it holds no time.
    public func serverTime(body: [UInt8], dateHeader: String?) -> StreamDate? {
        switch scheme {
        case .httpISO, .httpXSDate:
            return ServerClock.date(String(decoding: body.prefix(256), as: UTF8.self))
        case .httpHead:
            return dateHeader.flatMap(HTTPDate.parse).map(StreamDate.init)
        case .direct, .ntp, .other:
            return nil
        }
    }
}
