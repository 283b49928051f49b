import Foundation
import HoldfastProtocol
import HoldfastSDK

/// The demo device's clock: the system clock plus an offset the demo moves.
final class OffsetClock: HoldfastClock, @unchecked Sendable {
    // @unchecked: `offset` is only read and written under `lock`.
    private let lock = NSLock()
    private var offset: TimeInterval = 0

    func now() -> Date { Date().addingTimeInterval(lock.withLock { offset }) }
    func set(offset value: TimeInterval) { lock.withLock { offset = value } }
}

/// The demo device's network, which the demo can switch off.
final class SwitchableNetwork: HTTPTransport, @unchecked Sendable {
    // @unchecked: `online` is only read and written under `lock`; `inner` is immutable.
    private let inner: any HTTPTransport
    private let lock = NSLock()
    private var online = true

    struct Offline: Error, CustomStringConvertible {
        var description: String { "the demo device is offline" }
    }

    init(_ inner: any HTTPTransport) { self.inner = inner }

    var isOnline: Bool {
        get { lock.withLock { online } }
        set { lock.withLock { online = newValue } }
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard isOnline else { throw Offline() }
        return try await inner.send(request)
    }
}
