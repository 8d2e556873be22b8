import Foundation
public import Logging
public import PlaytraceTelemetry
import PlaytraceCore

/// Appends every event and metric to a file as one JSON object per line (JSON Lines), for tools that read
/// files: `jq`, log shippers, notebooks. Lines are buffered and written every ``flushInterval`` and when the
/// buffer fills, to a draft of the file (PlaytraceCore's `AtomicFile.Draft`: what the file held, then the new
/// lines), which the end of service puts in place whole. A reader never sees a torn file: until the end it sees the
/// file as it was; a process killed before the end, or a write that failed (a full disk), leaves it so.
///
/// ```swift
/// let backend = try JSONLinesBackend(path: "session.jsonl")
/// // {"type":"event","action":"Start","date":"2026-11-21T10:00:00.640Z","attributes":{"position":0,…}}
/// ```
public final class JSONLinesBackend: Backend, Sendable {
    private let draft: AtomicFile.Draft
    /// The lines not yet written; whether a write failed (the draft is then discarded at the end); whether the
    /// file was put in place (lines after that are not written).
    private let buffer = Locked<(lines: [UInt8], failed: Bool, ended: Bool)>(([], false, false))
    private let timer = FlushTimer()
    private let logger: Logger
    public let flushInterval: Duration
    private let bufferLimit = 256 << 10

    /// Starts a draft of the file (or of a new one) that appends to what it holds.
    ///
    /// - Throws: the system's `POSIXError` when the draft cannot be created beside the file or the file cannot be
    ///   read (no such directory, permission denied…).
    public init(path: String, flushInterval: Duration = .seconds(1),
                logger: Logger = Logger(label: "playtrace.jsonl")) throws {
        draft = try AtomicFile.Draft(path: path, keepingContents: true)
        self.flushInterval = flushInterval
        self.logger = logger
    }

    deinit {
        timer.stop()
        flush()
        finish()
    }

    public func instrumentReady(_ instrument: Instrument) {
        timer.start(interval: flushInterval, clock: instrument.clock) { [weak self] in self?.flush() }
    }

    public func endOfService() {
        timer.stop()
        flush()
        finish()
    }

    public func sendEvent(_ event: Event) { append(JSONWriter.event(event)) }
    public func sendMetric(_ metric: Metric) { append(JSONWriter.metric(metric)) }

    /// Writes the buffered lines.
    public func flush() {
        let (bytes, ended) = buffer.withLock { buffer -> ([UInt8], Bool) in
            defer { buffer.lines.removeAll(keepingCapacity: true) }
            return (buffer.failed ? [] : buffer.lines, buffer.ended)
        }
        guard !bytes.isEmpty else { return }
        guard !ended else {
            logger.warning("JSON lines after the end of service are not written", metadata: ["bytes": "\(bytes.count)"])
            return
        }
        do {
            try draft.append(bytes)
        } catch {
            buffer.withLock { $0.failed = true }
            logger.error("JSON lines could not be written: the file is left as it was",
                         metadata: ["file": "\(draft.path)", "bytes": "\(bytes.count)", "error": "\(error)"])
        }
    }

    /// Puts the file in place, or, after a failed write, leaves the one there as it was.
    private func finish() {
        let (failed, ended) = buffer.withLock { buffer in
            defer { buffer.ended = true }
            return (buffer.failed, buffer.ended)
        }
        guard !ended else { return }
        if failed {
            draft.discard()
            return
        }
        do {
            try draft.commit()
        } catch {
            logger.error("JSON lines could not be put in place: the file is left as it was",
                         metadata: ["file": "\(draft.path)", "error": "\(error)"])
        }
    }

    private func append(_ line: String) {
        let full = buffer.withLock { buffer -> Bool in
            buffer.lines.append(contentsOf: line.utf8)
            buffer.lines.append(UInt8(ascii: "\n"))
            return buffer.lines.count >= bufferLimit
        }
        if full { flush() }
    }
}
