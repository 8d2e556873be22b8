import Foundation
import PlaytraceNetwork

/// Answers `file://` requests from the disk as an origin would, and passes the others on: `play` of a local playlist
/// reads it, its segments and keys beside it, and anything it names over HTTP. A missing file is a 404, one that
/// cannot be read a 403; a `Range` (`bytes=FIRST-LAST` or `bytes=FIRST-`) is a 206 of those bytes only.
struct LocalFileTransport: HTTPTransport {
    private let inner: any HTTPTransport

    init(_ inner: any HTTPTransport) { self.inner = inner }

    func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        guard request.url.isFileURL else { return try await inner.send(request) }
        let clock = ContinuousClock()
        let began = clock.now
        let path = request.url.path
        func answer(_ status: Int, _ body: [UInt8] = []) -> HTTPResponse {
            let elapsed = clock.now - began
            return HTTPResponse(status: status, headers: [("Content-Length", "\(body.count)")], body: body, url: request.url,
                                timing: RequestTiming(timeToFirstByte: elapsed, duration: elapsed))
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return answer(404)
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { return answer(403) }
        defer { try? handle.close() }
        let rangeHeader = request.headers.first { $0.name.caseInsensitiveCompare("Range") == .orderedSame }?.value
        do {
            if let rangeHeader {
                guard let (first, last) = Self.byteRange(rangeHeader) else { return answer(416) }
                let wanted = last.map { $0 - first + 1 } ?? request.maximumBodySize + 1
                guard wanted <= request.maximumBodySize else { throw HTTPTransportError.bodyTooLarge(limit: request.maximumBodySize) }
                try handle.seek(toOffset: UInt64(first))
                let bytes = try handle.read(upToCount: wanted).map(Array.init) ?? []
                if last == nil, bytes.count > request.maximumBodySize {
                    throw HTTPTransportError.bodyTooLarge(limit: request.maximumBodySize)
                }
                return answer(bytes.isEmpty ? 416 : 206, bytes)
            }
            let bytes = try handle.read(upToCount: request.maximumBodySize + 1).map(Array.init) ?? []
            guard bytes.count <= request.maximumBodySize else {
                throw HTTPTransportError.bodyTooLarge(limit: request.maximumBodySize)
            }
            return answer(200, bytes)
        } catch let error as HTTPTransportError {
            throw error
        } catch {
            return answer(403)
        }
    }

    /// `bytes=FIRST-LAST` or `bytes=FIRST-` (a single range, as players ask for); `nil` for anything else.
    static func byteRange(_ header: String) -> (first: Int, last: Int?)? {
        guard header.lowercased().hasPrefix("bytes=") else { return nil }
        let parts = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let first = Int(parts[0]), first >= 0 else { return nil }
        if parts[1].isEmpty { return (first, nil) }
        guard let last = Int(parts[1]), last >= first else { return nil }
        return (first, last)
    }
}
