import Foundation
public import Logging
public import PlaytraceTelemetry
import PlaytraceCore

/// Appends every event and metric to a file as one JSON object per line (JSON Lines), for tools that read
/// files: `jq`, log shippers, notebooks. Lines are buffered and written every ``flushInterval`` and when the
/// buffer fills, and at the end of service.
///
/// ```swift
/// let backend = try JSONLinesBackend(path: "session.jsonl")
/// // {"type":"event","action":"Start","date":"2026-11-21T10:00:00.640Z","attributes":{"position":0,…}}
/// ```
public final class JSONLinesBackend: Backend, Sendable {
    private let handle: FileHandle
    private let buffer = Locked<[UInt8]>([])
    private let timer = FlushTimer()
    private let logger: Logger
    public let flushInterval: Duration
    private let bufferLimit = 256 << 10

    /// Opens (or creates) the file and appends to it.
    ///
    /// - Throws: the system's `POSIXError` when the file cannot be opened for writing (no such directory,
    ///   permission denied, a directory at that path…).
    public init(path: String, flushInterval: Duration = .seconds(1),
                logger: Logger = Logger(label: "playtrace.jsonl")) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        self.flushInterval = flushInterval
        self.logger = logger
    }

    deinit {
        timer.stop()
        flush()
        try? handle.close()
    }

    public func instrumentReady(_ instrument: Instrument) {
        timer.start(interval: flushInterval, clock: instrument.clock) { [weak self] in self?.flush() }
    }

    public func endOfService() {
        timer.stop()
        flush()
    }

    public func sendEvent(_ event: Event) { append(JSONWriter.event(event)) }
    public func sendMetric(_ metric: Metric) { append(JSONWriter.metric(metric)) }

    /// Writes the buffered lines.
    public func flush() {
        let bytes = buffer.withLock { buffer -> [UInt8] in
            defer { buffer.removeAll(keepingCapacity: true) }
            return buffer
        }
        guard !bytes.isEmpty else { return }
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            logger.error("JSON lines could not be written", metadata: ["bytes": "\(bytes.count)", "error": "\(error)"])
        }
    }

    private func append(_ line: String) {
        let full = buffer.withLock { buffer -> Bool in
            buffer.append(contentsOf: line.utf8)
            buffer.append(UInt8(ascii: "\n"))
            return buffer.count >= bufferLimit
        }
        if full { flush() }
    }
}
