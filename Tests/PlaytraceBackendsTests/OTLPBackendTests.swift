import Foundation
import PlaytraceBackends
import PlaytraceCore
import PlaytraceLab
import PlaytraceNetwork
import PlaytraceTelemetry
import PlaytraceTestSupport
import Testing

/// Decodes what reached the lab's sink as OTLP/HTTP JSON (opentelemetry-proto's JSON mapping).
private struct OTLPReceiver {
    let lab: LabServer

    func documents(_ signal: String) throws -> [[String: Any]] {
        try lab.sink.accepted(under: "/sink/otlp/v1/" + signal).map { delivery in
            #expect(delivery.headers["content-type"] == "application/json")
            #expect(delivery.headers["content-encoding"] == "gzip")
            #expect(delivery.headers["api-key"] == "collector-key")
            #expect(delivery.headers["idempotency-key"] != nil)
            let json = try JSONSerialization.jsonObject(with: Data(try Gzip.decompress(delivery.body)))
            return try #require(json as? [String: Any])
        }
    }

    /// Every metric of every export, by name.
    func metrics() throws -> [String: [[String: Any]]] {
        var metrics: [String: [[String: Any]]] = [:]
        for document in try documents("metrics") {
            for resource in document["resourceMetrics"] as? [[String: Any]] ?? [] {
                #expect(Self.attributes(of: (resource["resource"] as? [String: Any]) ?? [:])["service.name"] as? String
                    == "playtrace")
                for scope in resource["scopeMetrics"] as? [[String: Any]] ?? [] {
                    for metric in scope["metrics"] as? [[String: Any]] ?? [] {
                        metrics[metric["name"] as? String ?? "", default: []].append(metric)
                    }
                }
            }
        }
        return metrics
    }

    /// Every span of every export.
    func spans() throws -> [[String: Any]] {
        try documents("traces").flatMap { document in
            (document["resourceSpans"] as? [[String: Any]] ?? []).flatMap { resource in
                (resource["scopeSpans"] as? [[String: Any]] ?? []).flatMap { $0["spans"] as? [[String: Any]] ?? [] }
            }
        }
    }

    /// An OTLP attribute list (`[{"key": …, "value": {"stringValue": …}}]`) as a dictionary.
    static func attributes(of object: [String: Any]) -> [String: Any] {
        var attributes: [String: Any] = [:]
        for entry in object["attributes"] as? [[String: Any]] ?? [] {
            guard let key = entry["key"] as? String, let value = entry["value"] as? [String: Any] else { continue }
            attributes[key] = value["stringValue"] ?? value["intValue"] ?? value["doubleValue"] ?? value["boolValue"]
        }
        return attributes
    }

    /// A span's time in nanoseconds since 1970 (int64 values are strings in OTLP JSON).
    static func nanoseconds(_ span: [String: Any], _ key: String) -> UInt64? {
        (span[key] as? String).flatMap(UInt64.init) ?? (span[key] as? NSNumber)?.uint64Value
    }
}

@Suite("OpenTelemetry backend: swift-otel's OTLP/HTTP export through the outbox, to a loopback receiver")
struct OTLPBackendTests {
    private static let origin = StreamDate(secondsSince1970: 1_800_000_000)
    private static let originNanoseconds: UInt64 = 1_800_000_000 * 1_000_000_000

    @Test("Metrics as counters and distributions with low-cardinality dimensions; playbacks as traces with startup, stall, seek and error")
    func export() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let transport = AsyncHTTPClientTransport(clock: ContinuousClock())
        var configuration = OTLPBackend.Configuration(endpoint: try #require(URL(string: "http://127.0.0.1:\(port)/sink/otlp")))
        configuration.encoding = .json
        configuration.headers = ["api-key": "collector-key"]
        // The headers are the courier's (attached at delivery), never stored with an export.
        let outbox = try Outbox(path: nil, couriers: [OTLPBackend.courier(transport: transport, configuration: configuration)])
        configuration.exportInterval = .seconds(3_600)
        configuration.temporality = .delta
        let otlp = try await OTLPBackend(configuration: configuration, outbox: outbox)
        let harness = TelemetryHarness(hub: HubCoreAds(pingInterval: .zero), metricalc: MetricalcCore(), backends: [otlp],
                                       origin: Self.origin)
        let ads = AdTelemetryTracker(instrument: harness.instrument, sessionID: "session-1")
        let content: [(Attribute, AttributeValue)] = [(.contentId, "urn:1"), (.sessionId, "session-1"), (.engine, "headless")]
        // A playback: 300 ms startup, a 500 ms stall, a 100 ms seek, a warning, then its end.
        harness.emit(.mediaRequest, content)
        await harness.advance(.milliseconds(300))
        harness.emit(.start, content)
        await harness.advance(.seconds(2))
        harness.emit(.bufferBegin, content)
        await harness.advance(.milliseconds(500))
        harness.emit(.bufferFinish, content)
        harness.emit(.seekBegin, content)
        await harness.advance(.milliseconds(100))
        harness.emit(.seekFinish, content + [(.position, 60_000)])
        harness.emit(.error, content + [(.errorDescription, "segment 404"), (.isFatal, false)])
        ads.breakBegan(roll: .mid)
        ads.adBegan(TelemetryAd(id: "ad-1", duration: .seconds(1)))
        await harness.advance(.seconds(1))
        ads.adEnded()
        ads.breakEnded()
        harness.emit(.end, content)
        // A second one fails before it starts.
        harness.emit(.mediaRequest, content)
        await harness.advance(.milliseconds(200))
        harness.emit(.error, content + [(.errorDescription, "manifest 403"), (.isFatal, true)])
        harness.emit(.stop, content)
        harness.instrument.shutdown()
        await otlp.shutdown()
        await outbox.flush()
        // Everything is in the sink's log now: stop the servers before any `#require` can leave the test.
        try await transport.shutdown()
        await lab.stop()
        let statistics = try await outbox.statistics()
        #expect(statistics.pending == 0 && statistics.rejected == 0 && statistics.delivered >= 2)

        let receiver = OTLPReceiver(lab: lab)
        let metrics = try receiver.metrics()
        let plays = try #require(metrics["playtrace.NumPlays"]?.first?["sum"] as? [String: Any])
        #expect(plays["isMonotonic"] as? Bool == true)
        #expect(plays["aggregationTemporality"] as? Int == 1, "AGGREGATION_TEMPORALITY_DELTA, as configured")
        let playPoint = try #require((plays["dataPoints"] as? [[String: Any]])?.first)
        #expect(playPoint["asInt"] as? String == "1")
        let dimensions = OTLPReceiver.attributes(of: playPoint)
        #expect(dimensions["contentId"] as? String == "urn:1" && dimensions["engine"] as? String == "headless")
        #expect(dimensions["sessionId"] == nil, "per-session ids stay out of metric series")

        let startTime = try #require(metrics["playtrace.StartTime"]?.first?["exponentialHistogram"] as? [String: Any])
        let startPoint = try #require((startTime["dataPoints"] as? [[String: Any]])?.first)
        #expect(startPoint["count"] as? String == "1" && startPoint["sum"] as? Double == 300)
        let stall = try #require(metrics["playtrace.StallDuration"]?.first?["exponentialHistogram"] as? [String: Any])
        let stallPoint = try #require((stall["dataPoints"] as? [[String: Any]])?.first)
        #expect(stallPoint["count"] as? String == "2" && stallPoint["sum"] as? Double == 500,
                "one distribution over both sessions: 500 ms and 0 ms")
        let failures = try #require(metrics["playtrace.PlaybackFailure"]?.first?["sum"] as? [String: Any])
        let failurePoint = try #require((failures["dataPoints"] as? [[String: Any]])?.first)
        #expect(OTLPReceiver.attributes(of: failurePoint)["failureStage"] as? String == "start")
        #expect(metrics["playtrace.events"] != nil)

        let spans = try receiver.spans()
        let roots = spans.filter { $0["name"] as? String == "playback" }
        #expect(roots.count == 2)
        let first = try #require(roots.first { OTLPReceiver.attributes(of: $0)["playtrace.end_reason"] as? String == "end" })
        let firstID = try #require(first["spanId"] as? String)
        #expect(first["kind"] as? Int == 3, "SPAN_KIND_CLIENT")
        #expect(OTLPReceiver.nanoseconds(first, "startTimeUnixNano") == Self.originNanoseconds)
        #expect(OTLPReceiver.nanoseconds(first, "endTimeUnixNano") == Self.originNanoseconds + 3_900_000_000)
        #expect(OTLPReceiver.attributes(of: first)["playtrace.contentId"] as? String == "urn:1")
        #expect((first["events"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Error"])

        func child(_ name: String) throws -> [String: Any] {
            try #require(spans.first { $0["name"] as? String == name && $0["parentSpanId"] as? String == firstID })
        }
        let startup = try child("startup")
        #expect(OTLPReceiver.nanoseconds(startup, "endTimeUnixNano") == Self.originNanoseconds + 300_000_000)
        let stallSpan = try child("stall")
        #expect(OTLPReceiver.nanoseconds(stallSpan, "startTimeUnixNano") == Self.originNanoseconds + 2_300_000_000)
        #expect(OTLPReceiver.nanoseconds(stallSpan, "endTimeUnixNano") == Self.originNanoseconds + 2_800_000_000)
        #expect(OTLPReceiver.attributes(of: stallSpan)["playtrace.buffer_type"] as? String == "rebuffer")
        let adBreak = try child("ad break")
        #expect(OTLPReceiver.nanoseconds(adBreak, "startTimeUnixNano") == Self.originNanoseconds + 2_900_000_000)
        #expect(OTLPReceiver.attributes(of: adBreak)["playtrace.ad_roll"] as? String == "mid")
        let ad = try #require(spans.first { $0["name"] as? String == "ad" })
        #expect(ad["parentSpanId"] as? String == adBreak["spanId"] as? String, "the ad is a span of its break")
        #expect(OTLPReceiver.attributes(of: ad)["playtrace.adId"] as? String == "ad-1")
        let seek = try child("seek")
        #expect(OTLPReceiver.attributes(of: seek)["playtrace.position_ms"] as? String == "60000")
        #expect(first["traceId"] as? String == seek["traceId"] as? String)
        let isHex = { (text: String) in text.allSatisfy { "0123456789abcdef".contains($0) } }
        #expect((first["traceId"] as? String).map { $0.count == 32 && isHex($0) } == true,
                "OTLP JSON has trace ids in hex, not base64")
        #expect(firstID.count == 16 && isHex(firstID))

        let failed = try #require(roots.first { OTLPReceiver.attributes(of: $0)["playtrace.end_reason"] as? String == "abandoned" })
        let status = try #require(failed["status"] as? [String: Any])
        #expect(status["code"] as? Int == 2 && status["message"] as? String == "manifest 403", "STATUS_CODE_ERROR")
    }
}

/// Just enough of protobuf's wire format to walk OTLP's messages: the length-delimited fields of a message.
private enum ProtobufWire {
    /// The length-delimited (wire type 2) fields of a message, as (field number, bytes); `nil` if malformed.
    static func fields(_ bytes: ArraySlice<UInt8>) -> [(number: Int, value: ArraySlice<UInt8>)]? {
        var fields: [(Int, ArraySlice<UInt8>)] = []
        var index = bytes.startIndex
        func varint() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while index < bytes.endIndex, shift < 64 {
                let byte = bytes[index]
                index += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }
        while index < bytes.endIndex {
            guard let key = varint() else { return nil }
            switch key & 7 {
            case 0: guard varint() != nil else { return nil }
            case 1: index += 8
            case 5: index += 4
            case 2:
                guard let length = varint(), length <= UInt64(bytes.endIndex - index) else { return nil }
                fields.append((Int(key >> 3), bytes[index..<index + Int(length)]))
                index += Int(length)
            default: return nil
            }
            guard index <= bytes.endIndex else { return nil }
        }
        return fields
    }

    /// The values of a path of field numbers (`[1, 2, 2, 1]`: resource_metrics → scope_metrics → metrics → name).
    static func values(at path: [Int], in bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        guard let number = path.first else { return [bytes] }
        return (fields(bytes) ?? []).filter { $0.number == number }.flatMap { values(at: Array(path.dropFirst()), in: $0.value) }
    }
}

extension OTLPBackendTests {
    @Test("The default encoding is OTLP's protobuf, gzip-compressed: metric and span names decode from the wire format")
    func protobuf() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let transport = AsyncHTTPClientTransport(clock: ContinuousClock())
        let outbox = try Outbox(path: nil, couriers: [OTLPBackend.courier(transport: transport)])
        var configuration = OTLPBackend.Configuration(endpoint: try #require(URL(string: "http://127.0.0.1:\(port)/sink/otlp")))
        configuration.exportInterval = .seconds(3_600)
        let otlp = try await OTLPBackend(configuration: configuration, outbox: outbox)
        let harness = TelemetryHarness(hub: HubCore(pingInterval: .zero), metricalc: MetricalcCore(), backends: [otlp])
        harness.emit(.mediaRequest, [(.contentId, "urn:2")])
        await harness.advance(.milliseconds(250))
        harness.emit(.start, [(.contentId, "urn:2")])
        harness.emit(.end, [(.contentId, "urn:2")])
        harness.instrument.shutdown()
        await otlp.shutdown()
        await outbox.flush()
        try await transport.shutdown()
        await lab.stop()

        func bodies(_ signal: String) throws -> [ArraySlice<UInt8>] {
            try lab.sink.accepted(under: "/sink/otlp/v1/" + signal).map { delivery in
                #expect(delivery.headers["content-type"] == "application/x-protobuf")
                #expect(delivery.headers["content-encoding"] == "gzip")
                return ArraySlice(try Gzip.decompress(delivery.body))
            }
        }
        // ExportMetricsServiceRequest: resource_metrics (1) → scope_metrics (2) → metrics (2) → name (1).
        let metricNames = try bodies("metrics").flatMap { ProtobufWire.values(at: [1, 2, 2, 1], in: $0) }
            .map { String(decoding: $0, as: UTF8.self) }
        #expect(Set(metricNames).isSuperset(of: ["playtrace.NumPlays", "playtrace.StartTime", "playtrace.events"]))
        // ExportTraceServiceRequest: resource_spans (1) → scope_spans (2) → spans (2) → name (5).
        let spanNames = try bodies("traces").flatMap { ProtobufWire.values(at: [1, 2, 2, 5], in: $0) }
            .map { String(decoding: $0, as: UTF8.self) }
        #expect(spanNames.sorted() == ["playback", "startup"])
    }
}
