import Foundation
import HoldfastProtocol
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import Plumbing

/// Guards each connection (docs/operations.md "Configuration", `ConnectionConfiguration`), between the HTTP codec and
/// Hummingbird's request handling:
///
/// - **Timeouts.** The head of a request must arrive within `headerTimeout` of its first bytes (a connection
///   that sends nothing is closed `headerTimeout` after it opened), the body must not pause
///   longer than `bodyIdleTimeout`, and a kept-alive connection is closed after `idleTimeout` without a request.
///   A late head is answered `408`; a stalled body fails the request with `408` (the route sees
///   `RequestTimeoutError` from its body); a connection that sent nothing is closed without an answer.
/// - **Connections per source.** One more than `maximumConnectionsPerSource` from one peer is answered `429` and
///   closed; peers in `HOLDFAST_TRUSTED_PROXIES` are not limited.
/// - **Every answer is a problem.** A request the parser refuses before it reached a route (a header section
///   too large, a malformed head, a negative `Content-Length`, a target that is not ASCII) is answered with an
///   RFC 9457 problem (`400 BAD_REQUEST`) and the connection closed, instead of a bare `400`.
/// - **Shutdown.** When the server quiesces (SIGTERM), requests in flight get `shutdownDeadline`; then a request
///   whose answer has not begun is answered `503 SERVICE_UNAVAILABLE` with `Connection: close` (what its handler
///   writes later is dropped), and the connection is closed.
/// - A response that says `Connection: close` closes the connection once written (RFC 9112 §9.6).
///
/// Everything here runs on the connection's event loop.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let configuration: ConnectionConfiguration
    private let connections: ConnectionCounter
    private let logger: Logger
    private let clock: any HoldfastClock
    /// Where the request ids of the problems it answers itself are drawn from (DESIGN §4 "Randomness").
    private let random: any RandomSource

    private var headsRead = 0
    private var endsRead = 0
    private var responsesEnded = 0
    private var responseHeadsWritten = 0
    /// Set when the first bytes of the next request head arrived (a read while no request was in flight).
    private var headStartedAt: NIODeadline?
    private var lastBodyActivity = NIODeadline.now()
    private var idleSince = NIODeadline.now()
    private var quiescedAt: NIODeadline?
    private var closeAfterResponse = false
    /// A parse error that came while a request was being answered: answered once that response is written.
    private var pendingParseError = false
    private var timer: Scheduled<Void>?
    private var timerDeadline: NIODeadline?
    private var countedSource: IPAddress?
    private var closing = false
    /// A last response is being written; the connection closes once it left.
    private var finishing = false

    init(configuration: ConnectionConfiguration, connections: ConnectionCounter, logger: Logger,
         clock: any HoldfastClock = SystemClock(), random: any RandomSource = SystemRandomSource()) {
        self.configuration = configuration
        self.connections = connections
        self.logger = logger
        self.clock = clock
        self.random = random
    }

    private var readingBody: Bool { headsRead > endsRead }
    private var inFlight: Bool { headsRead > responsesEnded || readingBody }

    // MARK: lifecycle

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    private var started = false

    /// Counts the connection against its source, or refuses it; then waits for its first request.
    private func start(_ context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        idleSince = .now()
        if let peer = context.channel.remoteAddress.flatMap(IPAddress.init), !connections.isExempt(peer) {
            guard connections.acquire(peer) else {
                logger.debug("connection refused: too many from one source")
                answer(context, status: .tooManyRequests, code: .rateLimited, title: "Too many connections",
                       detail: "too many open connections from this source (at most \(configuration.maximumConnectionsPerSource))",
                       extra: [.retryAfter: "1"])
                return
            }
            countedSource = peer
        }
        schedule(context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        release()
        timer?.cancel()
        timer = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    private func release() {
        if let source = countedSource {
            connections.release(source)
            countedSource = nil
        }
    }

    // MARK: inbound

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            headsRead += 1
            headStartedAt = nil
            lastBodyActivity = .now()
        case .body:
            lastBodyActivity = .now()
        case .end:
            endsRead += 1
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // Bytes arrived while no request was in flight: the next head has begun.
        if !inFlight, headStartedAt == nil { headStartedAt = .now() }
        schedule(context)
        context.fireChannelReadComplete()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard Self.isRequestError(error) else {
            context.fireErrorCaught(error)
            return
        }
        if readingBody {
            // The route is reading this request's body: it fails with the error, and ProblemMiddleware answers.
            context.fireErrorCaught(error)
        } else if inFlight {
            pendingParseError = true
        } else {
            logger.debug("request refused by the HTTP parser", metadata: ["error": .string(String(describing: error))])
            answerParseError(context)
        }
    }

    /// Errors of the request's bytes (the parser's, or the head's conversion to HTTP types) — the client's fault.
    static func isRequestError(_ error: any Error) -> Bool {
        error is HTTPParserError || String(reflecting: type(of: error)).contains("HTTPTypeConversionError")
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent, quiescedAt == nil {
            quiescedAt = .now()
            if !inFlight {
                close(context)
                return
            }
            schedule(context)
        }
        context.fireUserInboundEventTriggered(event)
    }

    // MARK: outbound

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // The connection's last answer is written already (the shutdown's 503, a timeout's 408): a handler that
        // answers afterwards is too late.
        guard !finishing, !closing else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        let part = unwrapOutboundIn(data)
        switch part {
        case .head(var head):
            responseHeadsWritten += 1
            if head.headerFields[.connection]?.lowercased() == "close" { closeAfterResponse = true }
            // The time the answer leaves, to the second (RFC 9110 §6.6.1): Hummingbird's own value comes from a
            // cache refreshed once a second, up to a second late, and devices learn their clock offset from it.
            head.headerFields[.date] = HTTPDate.format(clock.now())
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            responsesEnded += 1
            if !inFlight {
                idleSince = .now()
                if headStartedAt == nil, pendingParseError { headStartedAt = .now() }
            }
            if closeAfterResponse || (quiescedAt != nil && !inFlight) {
                closeOnceWritten(context, data, promise: promise)
            } else if pendingParseError, !inFlight {
                context.write(data, promise: promise)
                answerParseError(context)
            } else {
                context.write(data, promise: promise)
                schedule(context)
            }
        }
    }

    // MARK: timers

    /// What the connection waits for now, and until when.
    private enum Wait {
        case head(NIODeadline)
        case body(NIODeadline)
        case idle(NIODeadline)
        case shutdown(NIODeadline)
        case nothing
    }

    private var wait: Wait {
        if let quiescedAt { return .shutdown(quiescedAt + .init(configuration.shutdownDeadline)) }
        if readingBody { return .body(lastBodyActivity + .init(configuration.bodyIdleTimeout)) }
        if inFlight { return .nothing }
        if let headStartedAt { return .head(headStartedAt + .init(configuration.headerTimeout)) }
        // A connection that never sent a byte gets the header timeout; a kept-alive one the idle timeout.
        return .idle(idleSince + .init(responsesEnded == 0 ? configuration.headerTimeout : configuration.idleTimeout))
    }

    private func schedule(_ context: ChannelHandlerContext) {
        guard !closing, !finishing else { return }
        let deadline: NIODeadline
        switch wait {
        case .head(let at), .body(let at), .idle(let at), .shutdown(let at): deadline = at
        case .nothing: return
        }
        // A timer that fires no later is kept (it looks again when it fires); a later one is replaced.
        if timer != nil, let timerDeadline, timerDeadline <= deadline { return }
        timer?.cancel()
        timerDeadline = deadline
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: deadline) {
            bound.value.handler.timer = nil
            bound.value.handler.timerDeadline = nil
            bound.value.handler.fire(bound.value.context)
        }
    }

    private func fire(_ context: ChannelHandlerContext) {
        guard !closing, !finishing else { return }
        let now = NIODeadline.now()
        switch wait {
        case .nothing:
            return
        case .head(let at) where now >= at:
            logger.debug("request head timed out")
            answer(context, status: .requestTimeout, code: .requestTimeout, title: "Request timeout",
                   detail: "the request head did not arrive within \(configuration.headerTimeout)")
        case .body(let at) where now >= at:
            logger.debug("request body stalled")
            // The route is waiting on the body: it fails with this error, and ProblemMiddleware answers 408.
            closeAfterResponse = true
            context.fireErrorCaught(RequestTimeoutError(bodyIdle: configuration.bodyIdleTimeout))
        case .idle(let at) where now >= at:
            close(context)
        case .shutdown(let at) where now >= at:
            logger.info("closing a connection at the shutdown deadline")
            if inFlight, responseHeadsWritten == responsesEnded {
                // A request whose answer has not begun still gets one (docs/operations.md "Configuration",
                // HOLDFAST_SHUTDOWN_DEADLINE_SECS); an answer half written can only be cut.
                answer(context, status: .serviceUnavailable, code: .serviceUnavailable, title: "Service unavailable",
                       detail: "the server is shutting down; retry on another node", extra: [.retryAfter: "1"])
            } else {
                close(context)
            }
        default:
            schedule(context)
        }
    }

    // MARK: answers

    private func answerParseError(_ context: ChannelHandlerContext) {
        answer(context, status: .badRequest, code: .badRequest, title: "Bad request",
               detail: "the request is not valid HTTP/1.1 (RFC 9112)")
    }

    /// Writes one problem response with `Connection: close`, then closes.
    private func answer(_ context: ChannelHandlerContext, status: HTTPResponse.Status, code: HoldfastErrorCode,
                        title: String, detail: String, extra: HTTPFields = [:]) {
        guard !closing, !finishing else { return }
        let details = ProblemDetails(status: Int(status.code), code: code, title: title, detail: detail,
                                     requestId: RequestIDMiddleware.generate(random))
        let body = ProblemMiddleware.encode(details)
        var fields = HTTPFields()
        fields[.contentType] = ProblemDetails.mediaType
        fields[.cacheControl] = "no-store"
        fields[.contentLength] = String(body.count)
        fields[.connection] = "close"
        fields[.date] = HTTPDate.format(clock.now())
        fields.append(contentsOf: extra)
        context.write(wrapOutboundOut(.head(HTTPResponse(status: status, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(ByteBuffer(bytes: body))), promise: nil)
        closeOnceWritten(context, wrapOutboundOut(.end(nil)), promise: nil)
    }

    /// Writes the last part of a response, then closes: after the bytes left, so that a large answer is not cut.
    private func closeOnceWritten(_ context: ChannelHandlerContext, _ data: NIOAny, promise: EventLoopPromise<Void>?) {
        finishing = true
        timer?.cancel()
        timer = nil
        let written = promise ?? context.eventLoop.makePromise()
        context.writeAndFlush(data, promise: written)
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        written.futureResult.whenComplete { _ in bound.value.handler.close(bound.value.context) }
        // A client that does not read its answer does not keep the connection either.
        context.eventLoop.scheduleTask(in: .init(configuration.headerTimeout)) { bound.value.handler.close(bound.value.context) }
    }

    private func close(_ context: ChannelHandlerContext) {
        guard !closing else { return }
        closing = true
        timer?.cancel()
        timer = nil
        context.close(promise: nil)
    }
}

/// A request body that paused longer than `HOLDFAST_BODY_IDLE_TIMEOUT_SECS` (408, RFC 9110 §15.5.9).
struct RequestTimeoutError: ProblemConvertible {
    let bodyIdle: Duration

    var problemStatus: HTTPResponse.Status { .requestTimeout }
    var problemCode: HoldfastErrorCode { .requestTimeout }
    var problemTitle: String { "Request timeout" }
    var problemDetail: String? { "the request body paused for longer than \(bodyIdle)" }
    var problemHeaders: HTTPFields { [.connection: "close"] }
}
