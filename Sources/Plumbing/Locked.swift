import Foundation

/// A value shared between threads and tasks, reached only under a lock: the one lock type of the package (STYLE
/// habit 18). A class that shares state keeps a `let` of it and is plainly `Sendable`.
///
/// The standard library's `Synchronization.Mutex` does this job, but it needs macOS 15 / iOS 18 and the package
/// supports macOS 14 / iOS 17 (`Package.swift`). `Locked` has `Mutex`'s `withLock` shape, so that moving to `Mutex`
/// when the platforms allow is a change of this file (and of a body that `Mutex`'s stricter checking refuses).
///
/// A lock rather than an actor where a critical section is a few dictionary probes made synchronously (the
/// certificate caches, the rate limiter): cheaper than a hop to an actor and back.
///
/// `@unchecked Sendable`, for any `Value` as `Mutex` is: `value` is read and written only inside `withLock` /
/// `withLockIfAvailable`, while `lock` is held, so no two threads ever touch it at once. What a body returns is
/// `sending`, so region-based isolation refuses a body that hands out a non-`Sendable` part of the value. Unlike
/// `Mutex`, the value is not an `inout sending` parameter (SQLite connections, which are not `Sendable`, are used
/// inside with the caller's row callback), so a body must not store the value, or a non-`Sendable` part of it,
/// anywhere that outlives the call.
public final class Locked<Value>: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    @usableFromInline var value: Value

    public init(_ initialValue: sending Value) {
        value = initialValue
    }

    /// Runs `body` with the value while holding the lock.
    @inlinable
    public func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// Runs `body` with the value if the lock is free now, without waiting; nil when another thread holds it.
    @inlinable
    public func withLockIfAvailable<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result? {
        guard lock.try() else { return nil }
        defer { lock.unlock() }
        return try body(&value)
    }
}
