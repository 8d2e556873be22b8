import Foundation

/// Corrects the trace and span ids of OTLP JSON: the OTLP specification has them as hex strings, where the
/// standard protobuf JSON mapping (which swift-otel's JSON exporter uses) writes bytes as base64 — and the
/// OpenTelemetry Collector refuses base64 ids with a 400.
///
/// The rewrite works on the bytes: it replaces the values of the `traceId`, `spanId` and `parentSpanId` keys that
/// decode from base64 to 16 or 8 bytes. Such a key followed by `":"` cannot occur inside a JSON string (its quotes
/// would be escaped there), so nothing else changes.
enum OTLPJSONIdentifiers {
    private static let keys: [[UInt8]] = ["\"traceId\":\"", "\"spanId\":\"", "\"parentSpanId\":\""].map { Array($0.utf8) }
    private static let hexDigits = Array("0123456789abcdef".utf8)

    static func hexEncoded(_ body: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(body.count + body.count / 8)
        var index = 0
        while index < body.count {
            guard body[index] == UInt8(ascii: "\""), let key = keys.first(where: { matches($0, at: index, in: body) }) else {
                output.append(body[index])
                index += 1
                continue
            }
            let valueStart = index + key.count
            guard let valueEnd = body[valueStart...].firstIndex(of: UInt8(ascii: "\"")),
                  let bytes = Data(base64Encoded: Data(body[valueStart..<valueEnd])),
                  bytes.count == 16 || bytes.count == 8 else {
                output.append(contentsOf: key)
                index = valueStart
                continue
            }
            output.append(contentsOf: key)
            for byte in bytes {
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            }
            index = valueEnd
        }
        return output
    }

    private static func matches(_ key: [UInt8], at index: Int, in body: [UInt8]) -> Bool {
        guard index + key.count <= body.count else { return false }
        for offset in 0..<key.count where body[index + offset] != key[offset] { return false }
        return true
    }
}
