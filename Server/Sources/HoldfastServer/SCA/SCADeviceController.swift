import Foundation
import HoldfastAdmin
import HTTPTypes
import HoldfastProtocol
import Hummingbird

/// The SCA wallet's calls from the device (docs/server-api.md "SCA wallet (back end)"): `POST /v1/sca/activations` (public, with its
/// one-time code), and with a DPoP proof of its wallet key `POST /v1/sca/wallets/{walletId}/pin-attempts`,
/// `PUT /v1/sca/wallets/{walletId}/credentials` and `GET /v1/sca/wallets/{walletId}/events` (server-sent events).
struct SCADeviceController: HoldfastController {
    /// How long the event feed stays open waiting for new events (`wait`, seconds), and how often it looks.
    static let waits = 0...60
    static let defaultWait = 20
    static let pollInterval: Duration = .milliseconds(500)

    let device: SCADeviceService
    let activation: SCAActivationService
    /// Who sent an activation (through the trusted proxies), for its per-source budget of wrong codes.
    let sources: PublicRouteLimit
    let clock: any HoldfastClock

    var routes: [Route] {
        [
            .public(.post, SCARoutes.Template.activations) { request, context in
                let body = try await JSONBodyDecoder.decode(SCAActivationRequest.self, from: request, context: context)
                let source = sources.source(of: request, from: context.remoteAddress)
                return try JSONResponse.make(try await activation.activate(body, source: source, now: clock.now()), status: .created,
                                             headers: JSONResponse.noStore)
            },
            .wallet(.post, SCARoutes.Template.pinAttempts) { request, context in
                let body = try await JSONBodyDecoder.decode(SCAPinAttemptRequest.self, from: request, context: context)
                return try JSONResponse.make(try await device.attemptPin(walletId: context.wallet.walletId, body, now: clock.now()),
                                             headers: JSONResponse.noStore)
            },
            .wallet(.put, SCARoutes.Template.credentials) { request, context in
                let body = try await JSONBodyDecoder.decode(SCACredentialsEnrolment.self, from: request, context: context)
                return try JSONResponse.make(try await device.enrol(walletId: context.wallet.walletId, body, now: clock.now()),
                                             headers: JSONResponse.noStore)
            },
            .wallet(.get, SCARoutes.Template.events) { request, context in
                try Self.eventStream(request, walletId: context.wallet.walletId, device: device)
            },
        ]
    }

    /// The wallet's events as server-sent events (HTML Living Standard §9.2): every event after `Last-Event-ID` (or
    /// `?after=`), then new ones as they come, for `wait` seconds (default 20, 0 to 60); a comment line every few
    /// seconds keeps intermediaries from closing the stream. The device reconnects with the last `id` it saw, so
    /// nothing is lost while it was away.
    static func eventStream(_ request: Request, walletId: String, device: SCADeviceService) throws -> Response {
        let parameters = request.uri.queryParameters
        let header = request.headers[HTTPField.Name(HoldfastHeaders.lastEventID)!]
        guard let after = Int64(header ?? parameters[Substring(SCARoutes.Query.after)].map(String.init) ?? "0"), after >= 0 else {
            throw ProblemError.invalidField(header == nil ? "after" : HoldfastHeaders.lastEventID, code: ProblemDetails.FieldError.invalidValue,
                                            detail: "an event id (a whole number)")
        }
        guard let wait = Int(parameters[Substring(SCARoutes.Query.wait)].map(String.init) ?? String(defaultWait)), waits.contains(wait) else {
            throw ProblemError.invalidField("wait", code: ProblemDetails.FieldError.outOfRange, detail: "\(waits.lowerBound) to \(waits.upperBound) seconds")
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-store"
        let body = ResponseBody { writer in
            var last = after
            let deadline = ContinuousClock.now + .seconds(wait)
            var sinceWrite = ContinuousClock.now
            repeat {
                let events = try await device.events(walletId: walletId, after: last)
                if !events.isEmpty {
                    var text = ""
                    for event in events {
                        text += "id: \(event.id)\nevent: \(event.type.rawValue)\ndata: \(String(decoding: try event.data.jsonBytes(), as: UTF8.self))\n\n"
                        last = event.id
                    }
                    try await writer.write(ByteBuffer(string: text))
                    sinceWrite = ContinuousClock.now
                    if events.count == 100 { continue }
                } else if ContinuousClock.now - sinceWrite >= .seconds(10) {
                    try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                    sinceWrite = ContinuousClock.now
                }
                guard ContinuousClock.now < deadline else { break }
                try await Task.sleep(for: pollInterval)
            } while ContinuousClock.now < deadline
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }
}
