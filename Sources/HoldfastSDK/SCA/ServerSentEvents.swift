import Foundation
import Plumbing

/// A reader of `text/event-stream` (HTML Living Standard §9.2.6): events are blocks of `field: value` lines ended by
/// a blank line; `data` lines are joined with newlines; lines starting with `:` are comments; a block without data
/// dispatches nothing.
enum ServerSentEvents {
    struct Event: Sendable, Hashable {
        var id: String?
        var type: String
        var data: String
    }

    static func parse(_ body: Data) -> [Event] {
        let text = String(decoding: body, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        var events: [Event] = []
        var id: String?
        var type = ""
        var data: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty {
                if !data.isEmpty { events.append(Event(id: id, type: type.isEmpty ? "message" : type, data: data.joined(separator: "\n"))) }
                type = ""
                data = []
                continue
            }
            if line.hasPrefix(":") { continue }
            let field: Substring
            var value: Substring
            if let colon = line.firstIndex(of: ":") {
                field = line[..<colon]
                value = line[line.index(after: colon)...]
                if value.hasPrefix(" ") { value = value.dropFirst() }
            } else {
                field = line
                value = ""
            }
            switch field {
            case "id": id = String(value)
            case "event": type = String(value)
            case "data": data.append(String(value))
            default: break
            }
        }
        return events
    }
}

/// The `events` streams of a `WalletManager`: each consumer gets its own, each event goes to all.
final class WalletEventHub: Sendable {
    private let continuations = Locked<[UUID: AsyncStream<WalletEvent>.Continuation]>([:])

    func stream() -> AsyncStream<WalletEvent> {
        AsyncStream { continuation in
            let id = UUID()
            continuations.withLock { $0[id] = continuation }
            continuation.onTermination = { [weak self] _ in
                guard let self else { return }
                self.continuations.withLock { _ = $0.removeValue(forKey: id) }
            }
        }
    }

    func yield(_ event: WalletEvent) {
        for continuation in continuations.withLock({ Array($0.values) }) { continuation.yield(event) }
    }
}

/// One holder at a time, in arrival order, for work inside an actor that suspends (a PIN check: its attempt is
/// spent, the PIN tried, the outcome stored); used only from its actor, which makes it safe.
final class AsyncGate: @unchecked Sendable {
    // @unchecked: only touched from the owning actor's executor (`acquire` runs on the caller's isolation).
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func acquire(isolation: isolated (any Actor)? = #isolation) async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Hands the gate to the next waiter, or opens it.
    func release() {
        if waiters.isEmpty {
            busy = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}
