import Foundation
import PlaytraceCore
import PlaytraceHLS
import PlaytracePlayer

/// HLS content steering: variants grouped in pathways (one per CDN, say), the steering server's order of
/// preference loaded at start and again each time its time to live runs out, and a pathway that fails left for
/// the next one, as hls.js and AVPlayer do.
///
/// Before the first variant is chosen, the engine asks the steering server (with `_HLS_pathway` and
/// `_HLS_throughput`), for at most a playlist's deadline; without an answer it starts on the multivariant
/// playlist's `PATHWAY-ID` (the first pathway when it names none). A manifest that cannot be loaded or read is
/// reported as a warning and the order stays as it was; the next attempt is one time to live later (300 s).
/// `PATHWAY-CLONES` are reported, not created.
extension HeadlessEngine {
    /// Sets up steering for a multivariant playlist's variants and, when the playlist names a steering server,
    /// loads its manifest before the first variant is chosen (a server that does not answer within a playlist's
    /// deadline is given up until the next attempt: startup does not wait longer) and again at each time to live.
    func startSteering(_ steeringTag: ContentSteering?, playlistURL: URL) async {
        guard let steeringTag else { return }
        steering = PathwaySteering(variants: variants, initial: steeringTag.pathwayID)
        guard let serverURL = URL(string: steeringTag.serverURI, relativeTo: playlistURL)?.absoluteURL else {
            warn(EngineError(kind: .playlist, message: "the content-steering SERVER-URI \(steeringTag.serverURI) is not a URL",
                             isFatal: false, url: playlistURL.absoluteString), "; the pathways keep their order")
            return
        }
        let expected = generation
        guard var (url, delay) = await loadSteeringManifest(serverURL, generation: expected) else { return }
        tasks.steering = Task {
            while true {
                do { try await self.stopwatch.sleep(for: delay) } catch { return }
                guard let next = await self.loadSteeringManifest(url, generation: expected) else { return }
                (url, delay) = next
            }
        }
    }

    /// Loads and applies one manifest; returns where to load the next one and when, or `nil` when the engine
    /// moved on (a new load, a stop).
    private func loadSteeringManifest(_ manifestURL: URL, generation expected: Int) async -> (URL, Duration)? {
        do {
            let response = try await fetch(steeringRequestURL(manifestURL), kind: .steeringManifest, variant: nil,
                                           policy: .failFast)
            guard generation == expected, !Task.isCancelled else { return nil }
            do {
                let manifest = try SteeringManifest(json: response.body)
                if manifest.cloneCount > 0, !steering.hasReportedClones {
                    steering.hasReportedClones = true
                    warn(EngineError(kind: .playlist, message: "the steering manifest defines \(manifest.cloneCount) "
                                     + "PATHWAY-CLONES, which this engine does not create", isFatal: false,
                                     url: response.url.absoluteString), "")
                }
                applySteering(manifest)
                let next = manifest.reloadURI.flatMap { URL(string: $0, relativeTo: response.url)?.absoluteURL }
                return (next ?? manifestURL, manifest.timeToLive)
            } catch {
                warn(EngineError(kind: .playlist, message: error.description, isFatal: false,
                                 url: response.url.absoluteString), "; the pathways keep their order")
            }
        } catch let error as EngineError {
            guard generation == expected, !Task.isCancelled else { return nil }
            warn(error, "; the pathways keep their order")
        } catch {
            return nil
        }
        return (manifestURL, SteeringManifest.defaultTimeToLive)
    }

    /// Applies a manifest's order; the download moves to the new first pathway at its next segment.
    private func applySteering(_ manifest: SteeringManifest) {
        let before = downloadVariant.flatMap(variant(at:))?.pathwayID
        steering.apply(manifest)
        let after = steering.current(candidateVariants())
        if let before, let after, before != after, pendingSwitchReason == nil {
            pendingSwitchReason = .contentSteering
        }
    }

    /// The manifest's URL with the query parameters the server may steer by: the pathway in use and the
    /// measured throughput, in bits per second.
    private func steeringRequestURL(_ url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url }
        var items = (components.queryItems ?? []).filter { $0.name != "_HLS_pathway" && $0.name != "_HLS_throughput" }
        if let pathway = steering.current(candidateVariants()) { items.append(URLQueryItem(name: "_HLS_pathway", value: pathway)) }
        if let estimate = throughput.estimate {
            items.append(URLQueryItem(name: "_HLS_throughput", value: String(Int(estimate))))
        }
        components.queryItems = items
        return components.url ?? url
    }

    /// Penalizes a variant that failed; with content steering, its whole pathway (a CDN that fails one request
    /// is likely to fail the next, and the other pathway serves the same segments).
    func penalize(_ index: Int) {
        let now = stopwatch.elapsed
        guard steering.isActive, let pathway = variant(at: index)?.pathwayID else {
            health.penalize(index, now: now, for: configuration.variantPenalty)
            return
        }
        for variant in variants where variant.pathwayID == pathway {
            health.penalize(variant.index, now: now, for: configuration.variantPenalty)
        }
    }
}
