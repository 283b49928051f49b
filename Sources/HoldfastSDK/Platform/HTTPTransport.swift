import Foundation

/// The SDK's seam to the network (DESIGN.md §3, STYLE habit 10): `URLSessionTransport` in apps and on Linux, a
/// scripted tenant in tests.
///
/// A transport throws only when no HTTP response was received (no route, timeout, TLS failure, a body past the
/// request's `maximumResponseBytes`); every HTTP status, 3xx, 4xx and 5xx included, is a returned `TransportResponse`.
/// A transport follows no redirect and ends each request at one deadline (`URLSessionTransport` does both). The SDK
/// sends every request through `exchange`, and treats a thrown error as `NETWORK_ERROR`.
public protocol HTTPTransport: Sendable {
    func send(_ request: TransportRequest) async throws -> TransportResponse
}

extension HTTPTransport {
    /// `send`, and what the SDK requires of every answer whatever the transport (docs/sdk.md "Holder: the wallet's network"):
    /// a 3xx is not followed but is an error that names its `Location` (a `307` to a POST must not send the body again,
    /// RFC 9110 §15.4.8), and a body longer than the request's `maximumResponseBytes` is refused.
    func exchange(_ request: TransportRequest) async throws -> TransportResponse {
        let response = try await send(request)
        if (300 ..< 400).contains(response.status) {
            let location = response.header("Location").map { String(String.UnicodeScalarView($0.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(512))) }
                ?? "(no Location)"
            throw URLSessionTransport.TransportFailure(
                description: "\(request.method) \(request.url.absoluteString) answered HTTP \(response.status), a redirect to "
                    + "\(location), which the SDK does not follow")
        }
        guard response.body.count <= request.maximumResponseBytes else {
            throw URLSessionTransport.TransportFailure(
                description: "\(request.url.absoluteString) answered more than \(request.maximumResponseBytes) bytes", isTooLarge: true)
        }
        return response
    }
}
