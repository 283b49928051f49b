import Plumbing
import Testing

struct LockedTests {
    /// Every increment from many tasks at once lands: the lock admits one `withLock` at a time.
    @Test func concurrentIncrementsFromATaskGroupGiveTheExactTotal() async {
        let counter = Locked(0)
        let tasks = 64
        let incrementsPerTask = 1_000
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    for _ in 0..<incrementsPerTask { counter.withLock { $0 += 1 } }
                }
            }
        }
        #expect(counter.withLock { $0 } == tasks * incrementsPerTask)
    }

    @Test func withLockReturnsWhatTheBodyReturnsAndKeepsItsChanges() {
        let box = Locked([String: Int]())
        let previous = box.withLock { values -> Int? in
            let old = values["a"]
            values["a"] = 1
            return old
        }
        #expect(previous == nil)
        #expect(box.withLock { $0 } == ["a": 1])
    }

    struct Refused: Error, Equatable {}

    @Test func anErrorThrownInsideLeavesTheLockFree() {
        let box = Locked(1)
        #expect(throws: Refused.self) { try box.withLock { (_: inout Int) throws(Refused) in throw Refused() } }
        #expect(box.withLock { $0 } == 1)
        #expect(box.withLockIfAvailable { $0 } == 1)
    }

    /// `withLockIfAvailable` does not wait: while the lock is held (here by the same thread, which a waiting
    /// lock would deadlock) it answers nil at once; when the lock is free it runs the body.
    @Test func withLockIfAvailableAnswersNilWhileTheLockIsHeld() {
        let box = Locked(7)
        let inside = box.withLock { _ in box.withLockIfAvailable { $0 } }
        #expect(inside == nil)
        #expect(box.withLockIfAvailable { value -> Int in
            value += 1
            return value
        } == 8)
    }
}
