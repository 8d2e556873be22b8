import PlaytraceCore

// Unsafe code: this file is PlaytraceMPV's only contact with libmpv's C API (pointers, C strings, a C callback).
//
// Invariants:
// - libmpv's client API is thread-safe (its documentation: "all functions are thread-safe unless noted"), except
//   `mpv_wait_event`, which one thread at a time may call: only `MPVEngine`'s event task calls `nextEvent()`.
// - Data an event points to lives until the next `mpv_wait_event`: `nextEvent()` copies it into Swift values before
//   returning.
// - The wakeup callback does nothing but signal a Swift stream (libmpv forbids calling it back from there); its
//   context (`WakeSignal`) is retained for the handle's life and released after `mpv_terminate_destroy`, after
//   which libmpv calls nothing.
// - `destroy()` runs once; no call follows it (the engine drops the handle).
#if MPV
import CMPV
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An error libmpv reported.
struct MPVError: Error, CustomStringConvertible {
    let code: Int32
    let context: String

    var description: String {
        "\(context): \(String(cString: mpv_error_string(code)))"
    }
}

/// What libmpv reported, copied out of its event.
enum MPVEvent: Sendable {
    case shutdown
    case startFile
    case fileLoaded
    case playbackRestart
    case seek
    case endFile(reason: Int32, error: Int32)
    case propertyChange(name: String, value: MPVValue)
    /// A message of libmpv's log: the module that wrote it (`ffmpeg/video`, `vd`, `demux`…), its level, its text.
    case logMessage(prefix: String, level: String, text: String)
    case other
}

/// A property's value, as observed.
enum MPVValue: Sendable, Equatable {
    case none
    case flag(Bool)
    case int(Int64)
    case double(Double)
    case string(String)

    var double: Double? {
        switch self {
        case .double(let value): value
        case .int(let value): Double(value)
        default: nil
        }
    }

    var int: Int? {
        switch self {
        case .int(let value): Int(value)
        case .double(let value): Int64(checkedRounding: value).map { Int(truncatingIfNeeded: $0) }
        default: nil
        }
    }

    var flag: Bool? {
        if case .flag(let value) = self { value } else { nil }
    }
}

/// The kinds a property is observed as.
enum MPVFormat {
    case flag, int, double, string

    var raw: mpv_format {
        switch self {
        case .flag: MPV_FORMAT_FLAG
        case .int: MPV_FORMAT_INT64
        case .double: MPV_FORMAT_DOUBLE
        case .string: MPV_FORMAT_STRING
        }
    }
}

/// Signals the engine's event task that libmpv has events (libmpv's wakeup callback).
final class WakeSignal: Sendable {
    let continuation: AsyncStream<Void>.Continuation

    init(_ continuation: AsyncStream<Void>.Continuation) { self.continuation = continuation }
}

/// One libmpv instance (`mpv_handle`), or the reason there is none: then every call does nothing and answers nil.
final class MPVHandle: @unchecked Sendable {
    private let raw: OpaquePointer?
    private var signal: Unmanaged<WakeSignal>?
    /// Why libmpv could not be started, when it could not.
    let failure: MPVError?

    /// Creates an instance with its options set, initialized.
    /// - Parameter options: name and value of each option (`vo`, `ao`, `keep-open`…), set before initialization.
    init(options: [(String, String)]) {
        do {
            raw = try Self.start(options: options)
            failure = nil
        } catch {
            raw = nil
            failure = error
        }
    }

    private static func start(options: [(String, String)]) throws(MPVError) -> OpaquePointer {
        guard let raw = mpv_create() else { throw MPVError(code: MPV_ERROR_NOMEM.rawValue, context: "mpv_create") }
        for (name, value) in options {
            let status = mpv_set_option_string(raw, name, value)
            guard status >= 0 else {
                mpv_terminate_destroy(raw)
                throw MPVError(code: status, context: "option \(name)=\(value)")
            }
        }
        let status = mpv_initialize(raw)
        guard status >= 0 else {
            mpv_terminate_destroy(raw)
            throw MPVError(code: status, context: "mpv_initialize")
        }
        return raw
    }

    /// Calls `signal` whenever libmpv has new events.
    func setWakeup(_ signal: WakeSignal) {
        guard let raw else { return }
        let retained = Unmanaged.passRetained(signal)
        self.signal = retained
        mpv_set_wakeup_callback(raw, { context in
            guard let context else { return }
            Unmanaged<WakeSignal>.fromOpaque(context).takeUnretainedValue().continuation.yield()
        }, retained.toOpaque())
    }

    /// Runs a command asynchronously (its reply is not awaited); returns libmpv's status.
    @discardableResult
    func command(_ arguments: [String]) -> Int32 {
        guard let raw else { return MPV_ERROR_UNINITIALIZED.rawValue }
        var pointers: [UnsafePointer<CChar>?] = arguments.map { strdup($0).map { UnsafePointer($0) } }
        pointers.append(nil)
        defer { for pointer in pointers { free(UnsafeMutablePointer(mutating: pointer)) } }
        return pointers.withUnsafeMutableBufferPointer { buffer in
            mpv_command_async(raw, 0, buffer.baseAddress)
        }
    }

    /// Sets a property from its string form.
    @discardableResult
    func set(_ name: String, _ value: String) -> Int32 {
        guard let raw else { return MPV_ERROR_UNINITIALIZED.rawValue }
        return mpv_set_property_string(raw, name, value)
    }

    /// A property's string form, if it has one now.
    func string(_ name: String) -> String? {
        guard let raw, let value = mpv_get_property_string(raw, name) else { return nil }
        defer { mpv_free(value) }
        return String(cString: value)
    }

    /// A property as a number, if it has one now.
    func double(_ name: String) -> Double? {
        guard let raw else { return nil }
        var value = 0.0
        return mpv_get_property(raw, name, MPV_FORMAT_DOUBLE, &value) >= 0 ? value : nil
    }

    /// A property as an integer, if it has one now.
    func int(_ name: String) -> Int? {
        guard let raw else { return nil }
        var value: Int64 = 0
        return mpv_get_property(raw, name, MPV_FORMAT_INT64, &value) >= 0 ? Int(value) : nil
    }

    /// A property as a flag, if it has one now.
    func flag(_ name: String) -> Bool? {
        guard let raw else { return nil }
        var value: Int32 = 0
        return mpv_get_property(raw, name, MPV_FORMAT_FLAG, &value) >= 0 ? value != 0 : nil
    }

    /// Reports libmpv's log messages of this level and above (`error`, `warn`…) as events.
    func requestLogMessages(level: String) {
        guard let raw else { return }
        mpv_request_log_messages(raw, level)
    }

    /// Reports changes of a property as events.
    func observe(_ name: String, as format: MPVFormat) {
        guard let raw else { return }
        mpv_observe_property(raw, 0, name, format.raw)
    }

    /// The next event, copied, or nil when there is none now. Only the engine's event task calls it.
    func nextEvent() -> MPVEvent? {
        guard let raw, let event = mpv_wait_event(raw, 0)?.pointee else { return nil }
        switch event.event_id {
        case MPV_EVENT_NONE: return nil
        case MPV_EVENT_SHUTDOWN: return .shutdown
        case MPV_EVENT_START_FILE: return .startFile
        case MPV_EVENT_FILE_LOADED: return .fileLoaded
        case MPV_EVENT_PLAYBACK_RESTART: return .playbackRestart
        case MPV_EVENT_SEEK: return .seek
        case MPV_EVENT_END_FILE:
            guard let data = event.data?.assumingMemoryBound(to: mpv_event_end_file.self).pointee else {
                return .endFile(reason: -1, error: 0)
            }
            return .endFile(reason: Int32(data.reason.rawValue), error: data.error)
        case MPV_EVENT_LOG_MESSAGE:
            guard let message = event.data?.assumingMemoryBound(to: mpv_event_log_message.self).pointee else { return .other }
            return .logMessage(prefix: String(cString: message.prefix), level: String(cString: message.level),
                               text: String(cString: message.text).trimmingCharacters(in: .whitespacesAndNewlines))
        case MPV_EVENT_PROPERTY_CHANGE:
            guard let property = event.data?.assumingMemoryBound(to: mpv_event_property.self).pointee else {
                return .other
            }
            let name = String(cString: property.name)
            let value: MPVValue
            switch property.format {
            case MPV_FORMAT_FLAG: value = .flag(property.data.assumingMemoryBound(to: Int32.self).pointee != 0)
            case MPV_FORMAT_INT64: value = .int(property.data.assumingMemoryBound(to: Int64.self).pointee)
            case MPV_FORMAT_DOUBLE: value = .double(property.data.assumingMemoryBound(to: Double.self).pointee)
            case MPV_FORMAT_STRING:
                let pointer = property.data.assumingMemoryBound(to: UnsafePointer<CChar>?.self).pointee
                value = pointer.map { .string(String(cString: $0)) } ?? .none
            default: value = .none
            }
            return .propertyChange(name: name, value: value)
        default: return .other
        }
    }

    /// Ends the instance: its threads stop and its memory is freed; the wakeup signal is released.
    func destroy() {
        guard let raw else { return }
        mpv_set_wakeup_callback(raw, nil, nil)
        mpv_terminate_destroy(raw)
        signal?.release()
        signal = nil
    }
}
#endif
