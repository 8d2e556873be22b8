#if canImport(Glibc)
package import Glibc
#elseif canImport(Musl)
package import Musl
#elseif canImport(Darwin)
package import Darwin
#endif

/// A value behind a lock: a POSIX mutex, which ThreadSanitizer follows.
///
/// Playtrace's code uses it wherever it would use the standard library's `Mutex`, for two reasons measured on
/// Linux. `Mutex` locks with a futex inside the precompiled Synchronization library, where ThreadSanitizer sees
/// neither the lock nor the unlock (every value behind it that two threads touch is reported as a race); and its
/// `withLock`, never specialized for the caller's value, looks up generic metadata on every call: about 31 ns a
/// lock and unlock, against about 9 ns here — a telemetry event takes several locks on the thread that emits it.
package struct Locked<Value: ~Copyable>: ~Copyable, Sendable {
    package let storage: LockedStorage<Value>

    /// A lock holding `value`.
    @inlinable
    package init(_ value: consuming sending Value) {
        storage = LockedStorage(value)
    }

    /// Calls `body` with the value, the lock held.
    @inlinable @inline(__always)
    package borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(storage.mutex)
        defer { pthread_mutex_unlock(storage.mutex) }
        return try body(&storage.value.pointee)
    }
}

/// The mutex and the value of a ``Locked``: a class that owns both in memory of their own, so that the mutex never
/// moves once initialized, and the value is reached through a pointer — memory that ThreadSanitizer sees ordered by
/// the mutex, where an `inout` access to a stored property of the class would count as a write to the whole object
/// and race with any read of its other properties.
///
/// Invariant (what makes this file's pointer use sound): both pointers are allocated and initialized once, in `init`, and released
/// once, in `deinit`; the value is read and written only with the mutex held.
package final class LockedStorage<Value: ~Copyable>: @unchecked Sendable {
    /// Only touched with `mutex` held.
    package let value: UnsafeMutablePointer<Value>
    package let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init(_ value: consuming Value) {
        self.value = UnsafeMutablePointer.allocate(capacity: 1)
        self.value.initialize(to: value)
        mutex = UnsafeMutablePointer.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }
}
