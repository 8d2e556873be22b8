public import Foundation
import PlaytraceCore
public import PlaytraceNetwork

/// Why a metadata request failed.
public enum AdMetadataPollError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request failed (no response, a timeout…).
    case transport(String)
    /// The response could not be used.
    case metadata(AdMetadataError)

    public var description: String {
        switch self {
        case .transport(let reason): "the ad metadata request failed: \(reason)"
        case .metadata(let error): error.description
        }
    }
}

/// One metadata request: the HTTP status checked, the body bounded while it is received, then decoded in its
/// format. Providers make one per poll.
public struct AdMetadataFetcher: Sendable {
    public var url: URL
    public var format: AdMetadataFormat
    public var transport: any HTTPTransport
    /// The deadline of each request.
    public var timeout: Duration
    public var limits: AdMetadataLimits

    public init(url: URL, format: AdMetadataFormat, transport: any HTTPTransport, timeout: Duration = .seconds(5),
                limits: AdMetadataLimits = AdMetadataLimits()) {
        self.url = url
        self.format = format
        self.transport = transport
        self.timeout = timeout
        self.limits = limits
    }

    /// Fetches and decodes the metadata.
    public func fetch() async -> Result<AdMetadata, AdMetadataPollError> {
        let response: HTTPResponse
        do {
            response = try await transport.send(HTTPRequest(url: url, timeout: timeout, maximumBodySize: limits.maximumBodyBytes))
        } catch .bodyTooLarge(let limit) {
            return .failure(.metadata(.bodyTooLarge(size: limit + 1, limit: limit)))
        } catch {
            return .failure(.transport(error.description))
        }
        guard response.isSuccess else { return .failure(.metadata(.httpStatus(response.status))) }
        do {
            return .success(try format.decode(response.body, limits: limits))
        } catch {
            return .failure(.metadata(error))
        }
    }
}
