import Foundation
import Plumbing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `URLSession` (FoundationNetworking on Linux) whose every exchange is bounded three ways, the same on Linux and
/// on Apple platforms (docs/sdk.md "Holder: the wallet's network"):
/// - no redirect is followed: the session's delegate refuses each one, and the 3xx comes back as the answer, with its
///   `Location`, so that the caller decides (a `307` to a POST is never sent again elsewhere, RFC 9110 §15.4.8);
/// - the body is read as it streams and the exchange stops as soon as it passes `maximumBodyBytes` (or as soon as a
///   `Content-Length` says it will), so an endless body never sits in memory;
/// - one deadline covers the whole exchange, connection to last byte: a server that trickles a byte now and then, which an
///   idle timeout never ends, is cut off at it.
///
/// One session (one connection pool) serves every exchange; the delegate keeps each exchange's state by task.
public final class BoundedURLSession: Sendable {
    public struct Answer: Sendable {
        public let status: Int
        /// Header fields as the server wrote their names.
        public let headers: [String: String]
        public let body: Data
    }

    private let session: URLSession
    private let exchanges: Exchanges

    /// `configuration` defaults to an ephemeral one: no cookie store, no response cache on disk.
    public init(configuration: URLSessionConfiguration = .ephemeral) {
        let exchanges = Exchanges()
        self.exchanges = exchanges
        session = URLSession(configuration: configuration, delegate: exchanges, delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Sends `request` and returns its answer (a 3xx included, not followed); throws when no complete answer came within
    /// `deadline`, when the body passes `maximumBodyBytes`, or when the transfer failed.
    public func send(_ request: URLRequest, maximumBodyBytes: Int,
                     deadline: Duration) async throws(URLSessionExchange.Failure) -> Answer {
        let task = session.dataTask(with: request)
        let id = task.taskIdentifier
        let exchanges = exchanges
        let result: Result<Answer, URLSessionExchange.Failure> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                exchanges.begin(id, Exchanges.Pending(continuation: continuation, url: request.url, maximumBodyBytes: maximumBodyBytes))
                let timer = Task {
                    try? await Task.sleep(for: deadline)
                    guard !Task.isCancelled else { return }
                    let seconds = Double(deadline.components.seconds) + Double(deadline.components.attoseconds) / 1e18
                    let failure = URLSessionExchange.Failure(description: "no complete answer within the deadline of \(seconds) s")
                    if exchanges.finish(id, .failure(failure)) { task.cancel() }
                }
                exchanges.setTimer(id, timer)
                // Cancelled before the exchange was registered: the cancellation handler found nothing to finish.
                if Task.isCancelled {
                    exchanges.finish(id, .failure(URLSessionExchange.Failure(description: "the request was cancelled")))
                    return
                }
                task.resume()
            }
        } onCancel: {
            if exchanges.finish(id, .failure(URLSessionExchange.Failure(description: "the request was cancelled"))) { task.cancel() }
        }
        return try result.get()
    }

    /// The session's delegate: every exchange under way, by task identifier, reached only under the lock. Whichever of
    /// the answer, the failure, the cap, the deadline or a cancellation comes first finishes the exchange; the others find
    /// it gone.
    final class Exchanges: NSObject, URLSessionDataDelegate, Sendable {
        struct Pending {
            let continuation: CheckedContinuation<Result<Answer, URLSessionExchange.Failure>, Never>
            let url: URL?
            let maximumBodyBytes: Int
            var response: HTTPURLResponse?
            var body = Data()
            var timer: Task<Void, Never>?

            init(continuation: CheckedContinuation<Result<Answer, URLSessionExchange.Failure>, Never>, url: URL?, maximumBodyBytes: Int) {
                self.continuation = continuation
                self.url = url
                self.maximumBodyBytes = maximumBodyBytes
            }
        }

        private let pending = Locked<[Int: Pending]>([:])

        func begin(_ id: Int, _ exchange: Pending) {
            pending.withLock { $0[id] = exchange }
        }

        func setTimer(_ id: Int, _ timer: Task<Void, Never>) {
            let finishedAlready: Bool = pending.withLock { all in
                guard all[id] != nil else { return true }
                all[id]?.timer = timer
                return false
            }
            if finishedAlready { timer.cancel() }
        }

        /// Resumes exchange `id` with `result` unless it was finished already; true when this call finished it.
        @discardableResult
        func finish(_ id: Int, _ result: Result<Answer, URLSessionExchange.Failure>) -> Bool {
            guard let exchange = pending.withLock({ $0.removeValue(forKey: id) }) else { return false }
            exchange.timer?.cancel()
            exchange.continuation.resume(returning: result)
            return true
        }

        static func answer(_ response: HTTPURLResponse, body: Data) -> Answer {
            var headers: [String: String] = [:]
            for (name, value) in response.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name] = value }
            }
            return Answer(status: response.statusCode, headers: headers, body: body)
        }

        static func tooLarge(_ limit: Int) -> URLSessionExchange.Failure {
            URLSessionExchange.Failure(description: "the answer is larger than \(limit) bytes", isTooLarge: true)
        }

        // No redirect is followed: the 3xx is the answer (its body is not needed).
        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
            completionHandler(nil)
            if finish(task.taskIdentifier, .success(Self.answer(response, body: Data()))) { task.cancel() }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
            let id = dataTask.taskIdentifier
            guard let http = response as? HTTPURLResponse else {
                completionHandler(.cancel)
                if finish(id, .failure(URLSessionExchange.Failure(description: "not an HTTP response"))) { dataTask.cancel() }
                return
            }
            let limit: Int? = pending.withLock { all in
                guard let limit = all[id]?.maximumBodyBytes else { return nil }
                all[id]?.response = http
                return http.expectedContentLength > Int64(limit) ? limit : nil
            }
            if let limit {
                // FoundationNetworking ignores the disposition, so the task is cancelled as well.
                completionHandler(.cancel)
                if finish(id, .failure(Self.tooLarge(limit))) { dataTask.cancel() }
            } else {
                completionHandler(.allow)
            }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let id = dataTask.taskIdentifier
            // The body is appended in place (no copy of the exchange is held meanwhile, which would copy the body on
            // every piece and let the pieces FoundationNetworking queues up outrun this delegate).
            let passed: Int? = pending.withLock { all in
                guard let limit = all[id]?.maximumBodyBytes, let count = all[id]?.body.count else { return nil }
                guard count + data.count <= limit else { return limit }
                all[id]?.body.append(data)
                return nil
            }
            if let passed, finish(id, .failure(Self.tooLarge(passed))) { dataTask.cancel() }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let id = task.taskIdentifier
            let state: (url: URL?, response: HTTPURLResponse?, body: Data)? = pending.withLock { all in
                all[id].map { ($0.url, $0.response, $0.body) }
            }
            guard let state else { return }
            if let error {
                finish(id, .failure(URLSessionExchange.Failure(error, url: state.url)))
            } else if let response = state.response ?? (task.response as? HTTPURLResponse) {
                finish(id, .success(Self.answer(response, body: state.body)))
            } else {
                finish(id, .failure(URLSessionExchange.Failure(description: "no response")))
            }
        }
    }
}
