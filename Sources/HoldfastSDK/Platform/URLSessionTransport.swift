import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `HTTPTransport` over `URLSession` (FoundationNetworking on Linux), with a bounded response size.
public struct URLSessionTransport: HTTPTransport {
    /// Why a transfer failed without an HTTP response.
    public struct TransportFailure: Error, Sendable, CustomStringConvertible {
        public let description: String
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
        let limit = maximumResponseSize
        // The callback form works on every Foundation this package builds with.
        let (data, response): (Data, URLResponse) = try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: urlRequest) { data, response, error in
                if let error {
                    continuation.resume(throwing: TransportFailure(description: error.localizedDescription))
                } else if let response {
                    continuation.resume(returning: (data ?? Data(), response))
                } else {
                    continuation.resume(throwing: TransportFailure(description: "no response"))
                }
            }
            task.resume()
        }
        guard let http = response as? HTTPURLResponse else { throw TransportFailure(description: "not an HTTP response") }
        guard data.count <= limit else { throw TransportFailure(description: "response larger than \(limit) bytes") }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return TransportResponse(status: http.statusCode, headers: headers, body: data)
    }
}
