import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request and its answer over `URLSession` (FoundationNetworking on Linux): the one place that does it, for the
/// SDK's `URLSessionTransport` and the admin API's `AdminClient`.
public enum URLSessionExchange {
    /// No HTTP answer: the transfer failed, or what came back is not HTTP.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
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
                        continuation.resume(throwing: Failure(description: error.localizedDescription))
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
