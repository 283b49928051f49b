import Foundation
import HoldfastProtocol
import Hummingbird
import Logging
import NIOCore

/// The one place where errors become HTTP responses (STYLE habit 5, RFC 9457): our `ProblemConvertible`
/// errors, Hummingbird's `HTTPError` and other `HTTPResponseError`s (a body over the limit is one), JSON
/// decoding errors, the router's "no route" (404, or 405 with `Allow` when the path exists for other methods).
/// Anything else is a 500 `INTERNAL_ERROR` whose body says nothing about internals; the error itself is
/// logged with the request id.
struct ProblemMiddleware: RouterMiddleware {
    typealias Context = HoldfastRequestContext

    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let problem = describe(error, request: request, context: context)
            if !HoldfastErrorCode.serverCodes.contains(problem.code) {
                // A code outside the contract is a bug of ours; the client still gets it, and the log says so.
                context.logger.error("problem code outside HoldfastErrorCode.serverCodes",
                                     metadata: ["code": .string(problem.code.rawValue)])
            }
            return Self.response(problem.details(requestID: context.requestID), headers: problem.headers)
        }
    }

    private func describe(_ error: any Error, request: Request, context: Context) -> Described {
        switch error {
        case let error as any ProblemConvertible:
            if error.problemStatus.code >= 500 {
                context.logger.error("request failed", metadata: ["code": .string(error.problemCode.rawValue),
                                                                  "error": .string(String(describing: error))])
            }
            return Described(status: error.problemStatus, code: error.problemCode, title: error.problemTitle,
                             detail: error.problemDetail, errors: error.problemFieldErrors, headers: error.problemHeaders)
        case let error as DecodingError:
            return Described(JSONBodyDecoder.problem(for: error))
        case let error where StorageError.unavailable(from: error) != nil:
            context.logger.error("database unavailable", metadata: ["error": .string(String(describing: error))])
            return describe(StorageError.unavailable(from: error) ?? StorageError(code: StorageError.Code.unavailable, message: ""),
                            request: request, context: context)
        case let error where ConnectionGuard.isRequestError(error):
            // The body broke the HTTP/1.1 framing (a malformed chunk, a connection closed mid-body): the client's
            // fault, answered (when it still listens) and closed; not a server error.
            context.logger.debug("request body refused by the HTTP parser", metadata: ["error": .string(String(describing: error))])
            return Described(status: .badRequest, code: HoldfastErrorCode.badRequest, title: "Bad request",
                             detail: "the request is not valid HTTP/1.1 (RFC 9112)", headers: [.connection: "close"])
        case let error as ChannelError where Self.clientWentAway(error):
            context.logger.debug("the client closed the connection during the request")
            return Described(status: .badRequest, code: HoldfastErrorCode.badRequest, title: "Bad request",
                             detail: "the connection closed before the request was complete", headers: [.connection: "close"])
        case is CancellationError:
            // A handler still running at the shutdown deadline is cancelled (docs/operations.md "Configuration",
            // HOLDFAST_SHUTDOWN_DEADLINE_SECS): the server is going away, not failing.
            context.logger.info("request cancelled at the shutdown deadline")
            return Described(status: .serviceUnavailable, code: HoldfastErrorCode.serviceUnavailable, title: "Service unavailable",
                             detail: "the server is shutting down; retry on another node", headers: [.connection: "close", .retryAfter: "1"])
        case let error as any HTTPResponseError:
            return describeHTTP(status: error.status, message: (error as? HTTPError)?.body,
                                headers: (error as? HTTPError)?.headers ?? [:], request: request, context: context)
        default:
            context.logger.error("internal error", metadata: ["error.type": .string(String(reflecting: type(of: error))),
                                                              "error": .string(String(describing: error))])
            return Described(status: .internalServerError, code: HoldfastErrorCode.internalError,
                             title: "Internal server error",
                             detail: "the server could not complete the request; quote the request id when reporting it")
        }
    }

    private func describeHTTP(status: HTTPResponse.Status, message: String?, headers: HTTPFields,
                              request: Request, context: Context) -> Described {
        if status == .notFound {
            let methods = routes.methods(forPath: request.uri.path)
            if !methods.isEmpty, !methods.contains(request.method) {
                var allow = HTTPFields()
                allow[.allow] = methods.map(\.rawValue).sorted().joined(separator: ", ")
                return Described(status: .methodNotAllowed, code: HoldfastErrorCode.methodNotAllowed,
                                 title: "Method not allowed",
                                 detail: "\(request.method.rawValue) is not allowed on this path; allowed: \(allow[.allow] ?? "")",
                                 headers: allow)
            }
            if methods.isEmpty {
                return Described(status: .notFound, code: HoldfastErrorCode.notFound, title: "Not found",
                                 detail: "no route for \(request.method.rawValue) \(request.uri.path)")
            }
        }
        if status.code >= 500 {
            context.logger.error("request failed", metadata: ["status": .stringConvertible(status.code),
                                                              "error": .string(message ?? "")])
        }
        let code: HoldfastErrorCode = switch status.code {
        case 400: HoldfastErrorCode.badRequest
        case 401: HoldfastErrorCode.unauthenticated
        case 403: HoldfastErrorCode.forbidden
        case 404: HoldfastErrorCode.notFound
        case 405: HoldfastErrorCode.methodNotAllowed
        case 409: HoldfastErrorCode.conflict
        case 413: HoldfastErrorCode.payloadTooLarge
        case 415: HoldfastErrorCode.unsupportedMediaType
        case 429: HoldfastErrorCode.rateLimited
        case 503: HoldfastErrorCode.serviceUnavailable
        case 500...: HoldfastErrorCode.internalError
        default: HoldfastErrorCode.badRequest
        }
        var detail = status.code < 500 ? message : nil
        if status == .contentTooLarge { detail = "the request body is larger than \(context.maxUploadSize) bytes" }
        return Described(status: status, code: code, title: status.reasonPhrase, detail: detail, headers: headers)
    }

    /// The problem as a response: `application/problem+json`, `Cache-Control: no-store`.
    static func response(_ details: ProblemDetails, headers extra: HTTPFields = [:]) -> Response {
        let body = encode(details)
        var headers = HTTPFields()
        headers[.contentType] = ProblemDetails.mediaType
        headers[.cacheControl] = "no-store"
        headers.append(contentsOf: extra.filter { $0.name != .contentType && $0.name != .contentLength })
        return Response(status: HTTPResponse.Status(code: details.status ?? 500), headers: headers,
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The connection ended under the request: nothing the server did wrong.
    static func clientWentAway(_ error: ChannelError) -> Bool {
        switch error {
        case .eof, .ioOnClosedChannel, .inputClosed, .outputClosed, .alreadyClosed: true
        default: false
        }
    }

    /// The problem's JSON, keys sorted.
    static func encode(_ details: ProblemDetails) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(details) else { return Array(#"{"code":"INTERNAL_ERROR","status":500}"#.utf8) }
        return Array(data)
    }

    private struct Described {
        var status: HTTPResponse.Status
        var code: HoldfastErrorCode
        var title: String
        var detail: String?
        var errors: [ProblemDetails.FieldError] = []
        var headers: HTTPFields = [:]

        init(status: HTTPResponse.Status, code: HoldfastErrorCode, title: String, detail: String?,
             errors: [ProblemDetails.FieldError] = [], headers: HTTPFields = [:]) {
            self.status = status
            self.code = code
            self.title = title
            self.detail = detail
            self.errors = errors
            self.headers = headers
        }

        init(_ error: ProblemError) {
            self.init(status: error.problemStatus, code: error.problemCode, title: error.problemTitle,
                      detail: error.problemDetail, errors: error.problemFieldErrors, headers: error.problemHeaders)
        }

        func details(requestID: String) -> ProblemDetails {
            ProblemDetails(status: Int(status.code), code: code, title: title, detail: detail,
                           requestId: requestID.isEmpty ? nil : requestID, errors: errors.isEmpty ? nil : errors)
        }
    }
}
