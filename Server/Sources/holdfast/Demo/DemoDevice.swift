import Foundation
import HoldfastProtocol
import HoldfastSDK
import Plumbing

/// The demo device's clock: the run's clock plus an offset the demo moves.
final class OffsetClock: HoldfastClock {
    private let base: any HoldfastClock
    private let offset = Locked<TimeInterval>(0)

    init(base: any HoldfastClock) { self.base = base }

    func now() -> Date { base.now().addingTimeInterval(offset.withLock { $0 }) }
    func set(offset value: TimeInterval) { offset.withLock { $0 = value } }
}

/// The demo device's network, which the demo can switch off.
final class SwitchableNetwork: HTTPTransport {
    private let inner: any HTTPTransport
    private let online = Locked(true)

    struct Offline: Error, CustomStringConvertible {
        var description: String { "the demo device is offline" }
    }

    init(_ inner: any HTTPTransport) { self.inner = inner }

    var isOnline: Bool {
        get { online.withLock { $0 } }
        set { online.withLock { $0 = newValue } }
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard isOnline else { throw Offline() }
        return try await inner.send(request)
    }
}
