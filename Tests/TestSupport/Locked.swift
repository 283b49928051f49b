import Foundation

/// A value shared between tasks of a test, read and written under a lock (the standard library's `Mutex` needs
/// macOS 15 / iOS 18; the package supports macOS 14 / iOS 17).
public final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only read and written under `lock`.
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try lock.withLock { try body(&value) }
    }
}
