import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request and its answer over `URLSession` (FoundationNetworking on Linux), for the admin API's `AdminClient`; the
/// SDK's `URLSessionTransport` uses `BoundedURLSession` (no redirects, a streamed cap, one deadline), which shares
/// `Failure`.
public enum URLSessionExchange {
    /// No HTTP answer: the transfer failed, or what came back is not HTTP.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
        /// The TLS handshake failed: asking again will not help (a plain-HTTP server behind an https URL, an
        /// untrusted certificate).
        public let isTLSFailure: Bool
        /// The body passed the exchange's cap (`BoundedURLSession`).
        public let isTooLarge: Bool

        init(description: String, isTLSFailure: Bool = false, isTooLarge: Bool = false) {
            self.description = description
            self.isTLSFailure = isTLSFailure
            self.isTooLarge = isTooLarge
        }

        /// `error` of a transfer to `url`: a TLS failure says so, and what to try when the server may speak plain HTTP.
        init(_ error: any Error, url: URL?) {
            let nsError = error as NSError
            let text = error.localizedDescription
            // NSURLError −1200 … −1206: the secure connection failed, or the server's or client's certificate was
            // refused; FoundationNetworking on Linux reports some OpenSSL failures only in the text.
            let tls = (nsError.domain == NSURLErrorDomain && (-1206 ... -1200).contains(nsError.code))
                || ["wrong version number", "SSL", "TLS", "certificate"].contains { text.contains($0) }
            guard tls, let url else {
                self.init(description: text)
                return
            }
            var hint = "the TLS handshake with \(url.host ?? "the server") failed (\(text))"
            if url.scheme == "https" {
                let port = url.port.map { ":\($0)" } ?? ""
                hint += "; if the server speaks plain HTTP, give its URL as http://\(url.host ?? "host")\(port)"
            }
            self.init(description: hint, isTLSFailure: true)
        }
    }

    /// Sends `request` and returns the status, the headers (names as the server wrote them) and the body.
    public static func send(_ request: URLRequest,
                            session: URLSession) async throws(Failure) -> (status: Int, headers: [String: String], body: Data) {
        let answer: (Data, URLResponse)
        do {
            // The callback form works on every Foundation this package builds with.
            answer = try await withCheckedThrowingContinuation { continuation in
                session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: Failure(error, url: request.url))
                    } else if let response {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: Failure(description: "no response"))
                    }
                }.resume()
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: String(describing: error))
        }
        guard let http = answer.1 as? HTTPURLResponse else { throw Failure(description: "not an HTTP response") }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return (http.statusCode, headers, answer.0)
    }
}
