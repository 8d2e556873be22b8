public import Foundation

/// One location of a representation's segments: a `BaseURL` chain resolved against the MPD's URL (RFC 3986), with
/// what it adds to the segments' availability.
public struct ResolvedBaseURL: Sendable, Hashable {
    /// Absolute.
    public var url: URL
    /// `@serviceLocation` of the nearest `BaseURL` in the chain that has one (the CDN, for steering and reports).
    public var serviceLocation: String?
    /// The sum of the chain's `@availabilityTimeOffset`s, seconds (`infinity`: available as soon as listed).
    public var availabilityTimeOffset: Double

    public init(url: URL, serviceLocation: String? = nil, availabilityTimeOffset: Double = 0) {
        self.url = url
        self.serviceLocation = serviceLocation
        self.availabilityTimeOffset = availabilityTimeOffset
    }
}

/// `BaseURL` resolution through the MPD's levels (ISO/IEC 23009-1 5.6.5): several `BaseURL`s at one level are
/// alternatives, an absolute one replaces everything above it, a relative one resolves against each location
/// above it (as Shaka and ExoPlayer do, where dash.js stops at the first): every combination is kept, in the
/// document's order, for failover. A level without `BaseURL`s inherits its parent's locations.
enum BaseURLResolution {
    /// At most this many locations per level (a product of four levels of ten would be 10,000 per representation).
    static let maximumLocations = 16

    static func resolve(_ children: [BaseURL], against parents: [ResolvedBaseURL], line: Int,
                        problems: inout [MPDProblem]) -> [ResolvedBaseURL] {
        guard !children.isEmpty else { return parents }
        var resolved: [ResolvedBaseURL] = []
        var seen = Set<URL>()
        for child in children {
            let text = String(child.url.trimmingXMLSpace)
            let isAbsolute = URL(string: text)?.scheme != nil
            for parent in isAbsolute ? [parents.first ?? ResolvedBaseURL(url: URL(fileURLWithPath: "/"))] : parents {
                guard let url = (isAbsolute ? URL(string: text) : URL(string: text, relativeTo: parent.url))?.absoluteURL else {
                    problems.append(MPDProblem(line: line, "BaseURL \"\(text.prefix(64))\" is not a URL: ignored"))
                    break
                }
                guard seen.insert(url).inserted else { continue }
                guard resolved.count < maximumLocations else {
                    problems.append(MPDProblem(line: line, "more than \(maximumLocations) BaseURL locations: the rest are left out"))
                    return resolved
                }
                let offset = child.availabilityTimeOffset ?? 0
                resolved.append(ResolvedBaseURL(
                    url: url, serviceLocation: child.serviceLocation ?? (isAbsolute ? nil : parent.serviceLocation),
                    availabilityTimeOffset: isAbsolute ? offset : parent.availabilityTimeOffset + offset))
            }
        }
        return resolved.isEmpty ? parents : resolved
    }
}
