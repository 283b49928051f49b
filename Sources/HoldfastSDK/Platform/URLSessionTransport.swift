import Foundation
import HoldfastProtocol
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `HTTPTransport` over `URLSession` (FoundationNetworking on Linux), the same on every platform (docs/sdk.md "Holder: the
/// wallet's network"): no redirect is followed (a 3xx is returned, and `HTTPTransport.exchange` makes it an error
/// naming its `Location`), the body is read as a stream and cut at the request's `maximumResponseBytes`, and one
/// deadline, `timeout`, covers the whole exchange, however slowly the server keeps sending.
public struct URLSessionTransport: HTTPTransport {
    /// Why a transfer failed without an HTTP response the SDK takes.
    public struct TransportFailure: Error, Sendable, CustomStringConvertible {
        public let description: String
        /// The TLS handshake failed; the SDK does not retry it (`HoldfastError.isTransient`).
        public let isTLSFailure: Bool
        /// The answer's body passed the request's `maximumResponseBytes`.
        public let isTooLarge: Bool

        public init(description: String, isTLSFailure: Bool = false, isTooLarge: Bool = false) {
            self.description = description
            self.isTLSFailure = isTLSFailure
            self.isTooLarge = isTooLarge
        }
    }

    private let session: BoundedURLSession
    private let timeout: TimeInterval

    /// `timeout`: the deadline of each request, in seconds, from its start to the last byte of the answer.
    /// `configuration`: the session's (an ephemeral one by default: no cookie store, no cache on disk).
    public init(timeout: TimeInterval = 30, configuration: URLSessionConfiguration = .ephemeral) {
        session = BoundedURLSession(configuration: configuration)
        self.timeout = timeout
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        let answer: BoundedURLSession.Answer
        do {
            answer = try await session.send(urlRequest, maximumBodyBytes: request.maximumResponseBytes, deadline: .milliseconds(Int64((timeout * 1000).rounded())))
        } catch {
            throw TransportFailure(description: error.description, isTLSFailure: error.isTLSFailure, isTooLarge: error.isTooLarge)
        }
        return TransportResponse(status: answer.status, headers: answer.headers, body: answer.body)
    }
}
