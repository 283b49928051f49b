import Plumbing

/// A mutual-exclusion lock whose waiters suspend instead of blocking their thread, granted in arrival order.
///
/// SQLite's writer is held across `await`s (a transaction's statements, the work between them), so waiting for it
/// must not block one of Swift concurrency's few threads: that thread may be the one the holder needs to finish.
final class AsyncLock: Sendable {
    private struct State {
        var locked = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        var head = 0
    }

    private let state = Locked(State())

    /// Takes the lock, suspending until it is free. Uncontended, it does not suspend.
    func lock() async {
        let acquired = state.withLock { state in
            if state.locked { return false }
            state.locked = true
            return true
        }
        if acquired { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                if !state.locked {
                    state.locked = true
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Takes the lock if it is free; never waits.
    func tryLock() -> Bool {
        state.withLock { state in
            if state.locked { return false }
            state.locked = true
            return true
        }
    }

    /// How many tasks are waiting (for tests).
    var waiting: Int { state.withLock { $0.waiters.count - $0.head } }

    /// Releases the lock, handing it to the longest waiter if there is one.
    func unlock() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            precondition(state.locked, "AsyncLock unlocked while not locked")
            guard state.head < state.waiters.count else {
                state.locked = false
                state.waiters.removeAll(keepingCapacity: true)
                state.head = 0
                return nil
            }
            let next = state.waiters[state.head]
            state.head += 1
            return next
        }
        next?.resume()
    }
}
