/// The SDK's seam to the network (DESIGN.md §3, STYLE habit 10): `URLSessionTransport` in apps and on Linux, a
/// scripted tenant in tests.
///
/// A transport throws only when no HTTP response was received (no route, timeout, TLS failure); every HTTP
/// status, 4xx and 5xx included, is a returned `TransportResponse`. The SDK treats a thrown error as `NETWORK_ERROR`.
public protocol HTTPTransport: Sendable {
    func send(_ request: TransportRequest) async throws -> TransportResponse
}
