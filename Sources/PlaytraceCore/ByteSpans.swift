// The parsers read text as `Span<UInt8>`: every access is checked against the span's bounds, in release builds
// too, and a span cannot outlive the bytes it views. The standard library makes spans of arrays and strings only
// from macOS 26 on (`Array.span`, `String.UTF8View.span`), below the platforms Package.swift declares, so this file
// makes them from the buffers that arrays and strings lend, and turns spans back into strings and arrays.
//
// Invariant (the only unsafe code of the text parsers, with HLS's `TextBlock`): each buffer here is one the standard
// library lends for the time of a closure, and the span made of it, or the pointer read from a span, is used only
// inside that closure. The one address computed (where `memchr` starts) is checked against the buffer's count.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Array where Element == UInt8 {
    /// Lends the array's bytes as a span.
    @inlinable @inline(__always)
    package func withSpan<Result, Failure: Error>(_ body: (Span<UInt8>) throws(Failure) -> Result) throws(Failure) -> Result {
        try withUnsafeBufferPointer { buffer throws(Failure) in try body(Span(_unsafeElements: buffer)) }
    }
}

extension String {
    /// Lends the string's UTF-8 bytes as a span (a string not stored as UTF-8 is made so first).
    @inlinable @inline(__always)
    package mutating func withUTF8Span<Value, Failure: Error>(_ body: (Span<UInt8>) throws(Failure) -> Value)
        throws(Failure) -> Value
    {
        let outcome: Result<Value, Failure> = withUTF8 { buffer in
            do throws(Failure) { return .success(try body(Span(_unsafeElements: buffer))) } catch { return .failure(error) }
        }
        return try outcome.get()
    }
}

extension StaticString {
    /// Lends the literal's UTF-8 bytes as a span.
    @inlinable @inline(__always)
    package func withSpan<Result>(_ body: (Span<UInt8>) -> Result) -> Result {
        withUTF8Buffer { body(Span(_unsafeElements: $0)) }
    }
}

extension Span where Element == UInt8 {
    /// The bytes as text, with invalid UTF-8 repaired (U+FFFD).
    @inlinable @inline(__always)
    package var decodedString: String {
        withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes as text; `nil` when they are not valid UTF-8.
    @inlinable @inline(__always)
    package var validatedString: String? {
        withUnsafeBufferPointer { String(validating: $0, as: UTF8.self) }
    }

    /// Appends the bytes to an array.
    @inlinable @inline(__always)
    package func append(to array: inout [UInt8]) {
        withUnsafeBufferPointer { array.append(contentsOf: $0) }
    }

    /// Feeds the bytes to a hasher.
    @inlinable @inline(__always)
    package func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// The index of the first `byte` at or after `start`, `count` when there is none: `memchr`, which reads many
    /// bytes per step (the parsers split their input into lines with it).
    package func firstIndex(of byte: UInt8, from start: Int) -> Int {
        precondition(start >= 0 && start <= count, "a search outside the span")
        return withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, start < buffer.count else { return buffer.count }
            guard let found = memchr(base + start, Int32(byte), buffer.count - start) else { return buffer.count }
            return UnsafeRawPointer(found) - UnsafeRawPointer(base)
        }
    }
}
