import Foundation
import PlaytracePlayer

/// A content-steering manifest (HLS content steering, RFC 8216bis §7.2 and Apple's "HLS Content Steering"
/// specification): the JSON document the steering server answers with.
///
/// ```json
/// {"VERSION": 1, "TTL": 300, "RELOAD-URI": "steering?session=1", "PATHWAY-PRIORITY": ["cdn-b", "cdn-a"]}
/// ```
struct SteeringManifest: Sendable, Equatable {
    /// The pathways in the order the server prefers them.
    var pathwayPriority: [String]
    /// How long the manifest holds before it is loaded again (300 s when the server gives none).
    var timeToLive: Duration
    /// Where to load it next (relative to the manifest's URL), when the server moves it.
    var reloadURI: String?
    /// How many `PATHWAY-CLONES` the manifest holds (cloned pathways are not created: see ``HeadlessEngine``).
    var cloneCount: Int

    /// Why a manifest cannot be used.
    enum Problem: Error, Equatable, CustomStringConvertible {
        case notJSON
        case unsupportedVersion(Int?)
        case noPathwayPriority

        var description: String {
            switch self {
            case .notJSON: "the steering manifest is not a JSON object"
            case .unsupportedVersion(let version?): "the steering manifest's VERSION \(version) is not 1"
            case .unsupportedVersion(nil): "the steering manifest has no VERSION"
            case .noPathwayPriority: "the steering manifest has no PATHWAY-PRIORITY list of pathway IDs"
            }
        }
    }

    /// The default time to live (the specification's).
    static let defaultTimeToLive: Duration = .seconds(300)

    /// Reads a manifest; the body has already been bounded in size by the transport.
    init(json bytes: [UInt8]) throws(Problem) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw Problem.notJSON
        }
        let version = object["VERSION"] as? Int
        guard version == 1 else { throw Problem.unsupportedVersion(version) }
        guard let priority = object["PATHWAY-PRIORITY"] as? [Any], !priority.isEmpty else {
            throw Problem.noPathwayPriority
        }
        let pathways = priority.compactMap { $0 as? String }.filter(Self.isPathwayID)
        guard pathways.count == priority.count else { throw Problem.noPathwayPriority }
        pathwayPriority = pathways
        if let seconds = object["TTL"] as? Double, seconds.isFinite, seconds > 0 {
            timeToLive = .seconds(min(seconds, 86_400))
        } else {
            timeToLive = Self.defaultTimeToLive
        }
        reloadURI = object["RELOAD-URI"] as? String
        cloneCount = (object["PATHWAY-CLONES"] as? [Any])?.count ?? 0
    }

    /// A pathway ID: letters, digits, `-`, `.` and `_` (RFC 8216bis §4.4.6.2), at most 256 of them here.
    static func isPathwayID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 256 && text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F
        }
    }
}

/// Which content-steering pathway the engine prefers: the order the steering server gave last (before it has
/// answered: the multivariant playlist's `PATHWAY-ID` first, then the other pathways as they appear).
struct PathwaySteering: Sendable {
    /// The pathways in order of preference; empty when the stream has no content steering.
    private(set) var priority: [String] = []

    /// Whether the engine already said that it does not create the manifest's `PATHWAY-CLONES` (once per load).
    var hasReportedClones = false

    /// Whether the stream offers a choice of pathways.
    var isActive: Bool { priority.count > 1 }

    /// Steering for a stream's variants, starting with `initial` when the playlist names it.
    init(variants: [VariantInfo], initial: String?) {
        var order: [String] = []
        if let initial { order.append(initial) }
        for variant in variants {
            if let pathway = variant.pathwayID, !order.contains(pathway) { order.append(pathway) }
        }
        priority = order
    }

    init() {}

    /// Applies a manifest's priority; pathways the manifest leaves out keep their place after the listed ones.
    /// Returns whether the first pathway changed.
    @discardableResult
    mutating func apply(_ manifest: SteeringManifest) -> Bool {
        let previous = priority.first
        let listed = manifest.pathwayPriority.filter { priority.contains($0) }
        guard !listed.isEmpty else { return false }
        priority = listed + priority.filter { !listed.contains($0) }
        return priority.first != previous
    }

    /// The variants of the most preferred pathway that has any among `candidates`; all of them when the stream
    /// has no steering.
    func preferred(_ candidates: [VariantInfo]) -> [VariantInfo] {
        guard isActive else { return candidates }
        for pathway in priority {
            let onPathway = candidates.filter { $0.pathwayID == pathway }
            if !onPathway.isEmpty { return onPathway }
        }
        return candidates
    }

    /// The pathway the engine would use now among `candidates` (sent to the steering server as `_HLS_pathway`).
    func current(_ candidates: [VariantInfo]) -> String? {
        preferred(candidates).first?.pathwayID ?? priority.first
    }
}
