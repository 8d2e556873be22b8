import PlaytraceCore
public import PlaytraceTelemetry
public import Tracing

/// Turns a playback's events into a trace: one `playback` span (kind `client`) from the playback's first event to
/// its End, Stop or Next, with child spans, all timed by the events' dates:
///
/// | span        | from → to                                   | attributes                         |
/// |-------------|---------------------------------------------|------------------------------------|
/// | `startup`   | first event (request, load…) → `Start`      |                                    |
/// | `stall`     | `BufferBegin` → `BufferFinish`, rebuffers   | `playtrace.buffer_type`            |
/// | `buffering` | the same, initial or inside a pause or seek | `playtrace.buffer_type`            |
/// | `seek`      | `SeekBegin` → `SeekFinish`                  | `playtrace.position_ms` (landing)  |
/// | `pause`     | `PauseBegin` → `PauseFinish`                |                                    |
/// | `ad break`  | `AdBreakBegin` → `AdBreakFinish`            | `playtrace.ad_roll`                |
/// | `ad`        | `AdBegin` → `AdFinish`, `AdSkip`, `AdError` | ad id, title, creative, system     |
///
/// The `playback` span carries the session, playback and stream ids, the content id, title, source, engine,
/// platform and variant (`playtrace.<attribute>`), and `playtrace.end_reason`; a fatal error sets its status to
/// error. Non-fatal errors and quality changes are span events. Spans still open when a playback closes end with
/// it; ``endAll()`` ends every open playback at its last event (at shutdown). The events of an ads tracker
/// (`isAdsTracker`) go to the open playback of their session, so that ad breaks are spans of the content's trace.
public final class PlaybackTraces: Sendable {
    private struct Playback {
        var root: any Span
        var children: [Child: any Span] = [:]
        var lastDate: StreamDate
        var started = false
    }

    private enum Child: Hashable {
        case startup, buffering, seek, pause, adBreak, ad
    }

    private static let startupActions: Set<Action> = [
        .trackerInit, .mediaRequest, .playerSet, .playerReady, .prepareItem, .manifestLoad, .streamLoad,
    ]
    private static let describing: [Attribute] = [
        .sessionId, .playbackId, .streamId, .contentId, .title, .source, .engine, .platform, .variant,
    ]
    private static let describingAds: [Attribute] = [.adId, .adTitle, .adCreativeId, .adSystem, .adDuration]

    private let tracer: any Tracer
    private let playbacks = Locked<[String: Playback]>([:])

    /// - Parameter tracer: where spans go (swift-otel's tracer, or any swift-distributed-tracing tracer).
    public init(tracer: any Tracer) {
        self.tracer = tracer
    }

    /// Folds an event into its playback's trace.
    public func record(_ event: Event) {
        let session = (event[.sessionId]?.description ?? "") + "\u{1F}"
        var key = session + (event[.playbackId]?.description ?? "")
        let instant = EventInstant(event.date)
        playbacks.withLock { playbacks in
            // An ads tracker's events belong to the session's content playback (they have no playback of their own).
            if event[.isAdsTracker] == .bool(true),
               let content = playbacks.filter({ $0.key.hasPrefix(session) })
                   .max(by: { $0.value.lastDate < $1.value.lastDate })?.key {
                key = content
            }
            var playback = playbacks[key] ?? open(event, at: instant)
            playback.lastDate = event.date
            if apply(event, at: instant, to: &playback) {
                playbacks[key] = playback
            } else {
                playbacks[key] = nil
            }
        }
    }

    /// Ends every open span at its playback's last event.
    public func endAll() {
        let open = playbacks.withLock { playbacks in
            defer { playbacks.removeAll() }
            return Array(playbacks.values)
        }
        for playback in open {
            close(playback, at: EventInstant(playback.lastDate))
        }
    }

    private func open(_ event: Event, at instant: EventInstant) -> Playback {
        let root = tracer.startSpan("playback", context: .topLevel, ofKind: .client, at: instant,
                                       function: #function, file: #fileID, line: #line)
        var playback = Playback(root: root, lastDate: event.date)
        if Self.startupActions.contains(event.action) {
            playback.children[.startup] = child("startup", of: playback, at: instant)
        }
        return playback
    }

    /// Applies an event; `false` when it closed the playback.
    private func apply(_ event: Event, at instant: EventInstant, to playback: inout Playback) -> Bool {
        for attribute in Self.describing {
            if let value = event[attribute] { playback.root.attributes["playtrace." + attribute.name] = Self.spanAttribute(value) }
        }
        switch event.action {
        case .start:
            playback.started = true
            end(.startup, of: &playback, at: instant)
        case .bufferBegin:
            let kind = event[.bufferType]?.string ?? TrackerState.BufferKind.rebuffer.rawValue
            let span = child(kind == TrackerState.BufferKind.rebuffer.rawValue ? "stall" : "buffering", of: playback,
                             at: instant)
            span.attributes["playtrace.buffer_type"] = kind
            replace(.buffering, with: span, in: &playback, at: instant)
        case .bufferFinish:
            end(.buffering, of: &playback, at: instant)
        case .seekBegin:
            replace(.seek, with: child("seek", of: playback, at: instant), in: &playback, at: instant)
        case .seekFinish:
            if let position = event[.position]?.int { playback.children[.seek]?.attributes["playtrace.position_ms"] = position }
            end(.seek, of: &playback, at: instant)
        case .pauseBegin:
            replace(.pause, with: child("pause", of: playback, at: instant), in: &playback, at: instant)
        case .pauseFinish:
            end(.pause, of: &playback, at: instant)
        case .adBreakBegin:
            let span = child("ad break", of: playback, at: instant)
            if let roll = event[.adRoll] { span.attributes["playtrace.ad_roll"] = Self.spanAttribute(roll) }
            replace(.adBreak, with: span, in: &playback, at: instant)
        case .adBreakFinish:
            end(.ad, of: &playback, at: instant)
            end(.adBreak, of: &playback, at: instant)
        case .adBegin:
            let span = child("ad", of: playback.children[.adBreak] ?? playback.root, at: instant)
            for attribute in Self.describingAds {
                if let value = event[attribute] { span.attributes["playtrace." + attribute.name] = Self.spanAttribute(value) }
            }
            replace(.ad, with: span, in: &playback, at: instant)
        case .adFinish, .adSkip, .adError:
            if event.action != .adFinish {
                playback.children[.ad]?.addEvent(SpanEvent(name: event.action.name, at: instant,
                                                           attributes: Self.errorAttributes(event)))
            }
            end(.ad, of: &playback, at: instant)
        case .qualityChangeUp, .qualityChangeDown:
            var attributes = SpanAttributes()
            if let bitrate = event[.bitrate] { attributes["playtrace.bitrate"] = Self.spanAttribute(bitrate) }
            playback.root.addEvent(SpanEvent(name: event.action.name, at: instant, attributes: attributes))
        case .error:
            playback.root.addEvent(SpanEvent(name: "Error", at: instant, attributes: Self.errorAttributes(event)))
            if event[.isFatal] == .bool(true) {
                playback.root.setStatus(SpanStatus(code: .error, message: event[.errorDescription]?.description))
            }
        case .end, .stop, .next:
            playback.root.attributes["playtrace.end_reason"] = event[.endReason]?.description ?? event.action.name
            close(playback, at: instant)
            return false
        default:
            break
        }
        return true
    }

    private func child(_ name: String, of playback: Playback, at instant: EventInstant) -> any Span {
        child(name, of: playback.root, at: instant)
    }

    private func child(_ name: String, of parent: any Span, at instant: EventInstant) -> any Span {
        tracer.startSpan(name, context: parent.context, ofKind: .internal, at: instant,
                         function: #function, file: #fileID, line: #line)
    }

    private func replace(_ kind: Child, with span: any Span, in playback: inout Playback, at instant: EventInstant) {
        end(kind, of: &playback, at: instant)
        playback.children[kind] = span
    }

    private func end(_ kind: Child, of playback: inout Playback, at instant: EventInstant) {
        playback.children.removeValue(forKey: kind)?.end(at: instant)
    }

    private func close(_ playback: Playback, at instant: EventInstant) {
        // Children first, the ad before its break, so that no child outlives its parent.
        for kind in [Child.ad, .adBreak, .startup, .buffering, .seek, .pause] {
            playback.children[kind]?.end(at: instant)
        }
        playback.root.end(at: instant)
    }

    private static func errorAttributes(_ event: Event) -> SpanAttributes {
        var attributes = SpanAttributes()
        if let description = event[.errorDescription] { attributes["playtrace.error_description"] = description.description }
        if let fatal = event[.isFatal]?.bool { attributes["playtrace.is_fatal"] = fatal }
        return attributes
    }

    private static func spanAttribute(_ value: AttributeValue) -> SpanAttribute {
        switch value {
        case .int(let value): .int64(Int64(value))
        case .double(let value): .double(value)
        case .string(let value): .string(value)
        case .bool(let value): .bool(value)
        }
    }
}

/// An event's date as a tracing instant.
struct EventInstant: TracerInstant {
    let nanosecondsSinceEpoch: UInt64

    init(_ date: StreamDate) {
        let nanoseconds = (date.secondsSince1970 * 1_000_000_000).rounded()
        nanosecondsSinceEpoch = nanoseconds.isFinite && nanoseconds > 0 ? UInt64(min(nanoseconds, 1.8e19)) : 0
    }

    static func < (lhs: EventInstant, rhs: EventInstant) -> Bool {
        lhs.nanosecondsSinceEpoch < rhs.nanosecondsSinceEpoch
    }
}
