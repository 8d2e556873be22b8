import Foundation
import PlaytraceNetwork

/// The answer of an SSAI server to a session initialisation, Harmonic's and MediaTailor's alike:
/// `{"manifestUrl": …, "trackingUrl": …}`, accepted only with status 200, each URL resolved against the final URL
/// of the request (after redirects).
enum SessionAnswer {
    static func request(_ request: HTTPRequest, step: String,
                        transport: any HTTPTransport) async -> Result<(manifest: URL, tracking: URL), AdSessionError> {
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch {
            return .failure(.transport(step: step, reason: error.description))
        }
        guard response.status == 200 else { return .failure(.httpStatus(step: step, status: response.status)) }
        guard let root = try? JSONReader.root(of: response.body, limits: AdMetadataLimits()),
              let manifest = root.object["manifestUrl"] as? String, let tracking = root.object["trackingUrl"] as? String else {
            return .failure(.malformedResponse(step: step, reason: "no manifestUrl and trackingUrl strings in the answer"))
        }
        guard let manifestURL = URL(string: manifest, relativeTo: response.url)?.absoluteURL,
              let trackingURL = URL(string: tracking, relativeTo: response.url)?.absoluteURL else {
            return .failure(.malformedResponse(step: step, reason: "manifestUrl or trackingUrl is not a URL"))
        }
        return .success((manifestURL, trackingURL))
    }
}
