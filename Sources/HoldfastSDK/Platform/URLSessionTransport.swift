import Foundation
import HoldfastProtocol
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `HTTPTransport` over `URLSession` (FoundationNetworking on Linux), with a bounded response size.
public struct URLSessionTransport: HTTPTransport {
    /// Why a transfer failed without an HTTP response.
    public struct TransportFailure: Error, Sendable, CustomStringConvertible {
        public let description: String
        /// The TLS handshake failed; the SDK does not retry it (`HoldfastError.isTransient`).
        public let isTLSFailure: Bool

        public init(description: String, isTLSFailure: Bool = false) {
            self.description = description
            self.isTLSFailure = isTLSFailure
        }
    }

    private let session: URLSession
    private let timeout: TimeInterval
    private let maximumResponseSize: Int

    public init(session: URLSession = .shared, timeout: TimeInterval = 30, maximumResponseSize: Int = 1 << 20) {
        self.session = session
        self.timeout = timeout
        self.maximumResponseSize = maximumResponseSize
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        let answer: (status: Int, headers: [String: String], body: Data)
        do {
            answer = try await URLSessionExchange.send(urlRequest, session: session)
        } catch {
            throw TransportFailure(description: error.description, isTLSFailure: error.isTLSFailure)
        }
        guard answer.body.count <= maximumResponseSize else {
            throw TransportFailure(description: "response larger than \(maximumResponseSize) bytes")
        }
        return TransportResponse(status: answer.status, headers: answer.headers, body: answer.body)
    }
}
