package import Synchronization

/// A value behind a lock: the standard library's `Mutex`, which ThreadSanitizer can follow.
///
/// On Linux, `Mutex` locks with a futex inside the precompiled Synchronization library, where ThreadSanitizer
/// sees neither the lock nor the unlock: every value behind a `Mutex` that two threads touch is reported as a
/// race. Built with `-DPLAYTRACE_TSAN` (the sanitized test run of `scripts/test`), this type tells the sanitizer
/// that taking the lock acquires what the last holder released; otherwise it is the `Mutex` itself, at no cost.
/// Playtrace's code uses it wherever it would use `Mutex`.
package struct Locked<Value: ~Copyable>: ~Copyable, Sendable {
    @usableFromInline package let mutex: Mutex<Value>

    /// A lock holding `value`.
    @inlinable
    package init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    /// Calls `body` with the value, the lock held.
    @inlinable @inline(__always)
    package borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        #if PLAYTRACE_TSAN
        let address = withUnsafePointer(to: self) { UnsafeRawPointer($0) }
        return try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            threadSanitizerAcquire(address)
            defer { threadSanitizerRelease(address) }
            return try body(&value)
        }
        #else
        return try mutex.withLock(body)
        #endif
    }
}

#if PLAYTRACE_TSAN
// ThreadSanitizer's annotations of synchronization it cannot see (its runtime is linked into sanitized builds).
@usableFromInline @_silgen_name("__tsan_acquire")
func threadSanitizerAcquire(_ address: UnsafeRawPointer)

@usableFromInline @_silgen_name("__tsan_release")
func threadSanitizerRelease(_ address: UnsafeRawPointer)
#endif
