import Foundation
import HoldfastAdmin
import HTTPTypes
import HoldfastProtocol
import Hummingbird

/// The SCA wallet's back end (README "SCA wallet"):
/// - `POST /v1/sca/wallets`, `GET /v1/sca/wallets?userId=`, `GET …/{walletId}`, `PUT …/{walletId}/lock | unlock |
///   credentials/reset | settings`, `POST …/{walletId}/products-updated`, `DELETE …/{walletId}` (admin);
/// - `POST /v1/sca/activations` (public, the device with its one-time code);
/// - `GET /v1/sca/policies` (public: what to sign is no secret), `PUT /v1/sca/policies` (admin);
/// - `POST /v1/sca/proofs/verify` (admin key or a key of scope `sca`);
/// - `GET`/`PUT /v1/sca/eligibility` and `GET /v1/sca/eligibility/denials/{reference}` (admin),
///   `POST /v1/sca/eligibility/checks` (public, the device before it is provisioned);
/// - `GET /v1/sca/wallets/{walletId}/events` (server-sent events) and `POST …/pin-attempts` (the device, with a DPoP
///   proof of its wallet key).
struct SCAController: HoldfastController {
    static let wallets: RouteTemplate = "/v1/sca/wallets"
    static let wallet: RouteTemplate = "/v1/sca/wallets/{walletId}"
    static let lock: RouteTemplate = "/v1/sca/wallets/{walletId}/lock"
    static let unlock: RouteTemplate = "/v1/sca/wallets/{walletId}/unlock"
    static let reset: RouteTemplate = "/v1/sca/wallets/{walletId}/credentials/reset"
    static let settings: RouteTemplate = "/v1/sca/wallets/{walletId}/settings"
    static let productsUpdated: RouteTemplate = "/v1/sca/wallets/{walletId}/products-updated"
    static let activations: RouteTemplate = "/v1/sca/activations"
    static let policies: RouteTemplate = "/v1/sca/policies"
    static let verify: RouteTemplate = "/v1/sca/proofs/verify"
    static let events: RouteTemplate = "/v1/sca/wallets/{walletId}/events"
    static let pinAttempts: RouteTemplate = "/v1/sca/wallets/{walletId}/pin-attempts"
    static let eligibility: RouteTemplate = "/v1/sca/eligibility"
    static let eligibilityChecks: RouteTemplate = "/v1/sca/eligibility/checks"
    static let denial: RouteTemplate = "/v1/sca/eligibility/denials/{reference}"
    /// How long the event feed stays open waiting for new events (`wait`, seconds), and how often it looks.
    static let waits = 0...60
    static let defaultWait = 20
    static let pollInterval: Duration = .milliseconds(500)

    let wallets: SCAWalletService
    let device: SCADeviceService
    let activation: SCAActivationService
    let policyService: SCAPolicyService
    let proofs: SCAProofService
    let eligibilityService: SCAEligibilityService
    let clock: any HoldfastClock

    var routes: [Route] {
        [
            .admin(.post, Self.wallets) { request, context in
                let body = try await JSONBodyDecoder.decode(SCAWalletCreateRequest.self, from: request, context: context)
                return try JSONResponse.make(try await wallets.create(body, now: clock.now()), status: .created, headers: JSONResponse.noStore)
            },
            .admin(.get, Self.wallets) { request, _ in
                guard let userId = request.uri.queryParameters["userId"].map(String.init), !userId.isEmpty else {
                    throw ProblemError.invalidField("userId", code: ProblemDetails.FieldError.required, detail: "the query parameter userId is required")
                }
                return try JSONResponse.make(try await wallets.list(userId: userId))
            },
            .admin(.get, Self.wallet) { _, context in
                try JSONResponse.make(try await wallets.get(id: try context.parameters.require("walletId")))
            },
            .admin(.put, Self.lock) { request, context in
                let body = try await JSONBodyDecoder.decode(SCAWalletLockRequest.self, from: request, context: context)
                return try JSONResponse.make(try await wallets.lock(id: try context.parameters.require("walletId"), reason: body.reason,
                                                                    now: clock.now()))
            },
            .admin(.put, Self.unlock) { _, context in
                try JSONResponse.make(try await wallets.unlock(id: try context.parameters.require("walletId"), now: clock.now()))
            },
            .admin(.put, Self.reset) { _, context in
                try JSONResponse.make(try await wallets.resetCredentials(id: try context.parameters.require("walletId"), now: clock.now()))
            },
            .admin(.put, Self.settings) { request, context in
                let body = try await JSONBodyDecoder.decode(SCAWalletSettings.self, from: request, context: context)
                return try JSONResponse.make(try await wallets.updateSettings(id: try context.parameters.require("walletId"), body, now: clock.now()))
            },
            .admin(.post, Self.productsUpdated) { request, context in
                let body = try await JSONBodyDecoder.decode(SCAProductsUpdated.self, from: request, context: context)
                return try JSONResponse.make(try await wallets.productsUpdated(id: try context.parameters.require("walletId"), data: body.data,
                                                                               now: clock.now()))
            },
            .admin(.delete, Self.wallet) { _, context in
                try await wallets.delete(id: try context.parameters.require("walletId"), now: clock.now())
                return Response(status: .noContent)
            },
            .public(.post, Self.activations) { request, context in
                let body = try await JSONBodyDecoder.decode(SCAActivationRequest.self, from: request, context: context)
                return try JSONResponse.make(try await activation.activate(body, now: clock.now()), status: .created, headers: JSONResponse.noStore)
            },
            .public(.get, Self.policies) { _, _ in
                try JSONResponse.make(try await policyService.policies())
            },
            .admin(.put, Self.policies) { request, context in
                let body = try await JSONBodyDecoder.decode([SCAPolicy].self, from: request, context: context)
                return try JSONResponse.make(try await policyService.replace(body, now: clock.now()))
            },
            .admin(.get, Self.eligibility) { _, _ in
                try JSONResponse.make(try await eligibilityService.rules())
            },
            .admin(.put, Self.eligibility) { request, context in
                let body = try await JSONBodyDecoder.decode(SCAEligibilityRules.self, from: request, context: context)
                return try JSONResponse.make(try await eligibilityService.replace(body, now: clock.now()))
            },
            .public(.post, Self.eligibilityChecks) { request, context in
                let body = try await JSONBodyDecoder.decode(SCAEligibilityCheckRequest.self, from: request, context: context)
                return try JSONResponse.make(try await eligibilityService.check(body, now: clock.now()), headers: JSONResponse.noStore)
            },
            .admin(.get, Self.denial) { _, context in
                try JSONResponse.make(try await eligibilityService.denial(reference: try context.parameters.require("reference")))
            },
            .wallet(.post, Self.pinAttempts) { request, context in
                let body = try await JSONBodyDecoder.decode(SCAPinAttemptReport.self, from: request, context: context)
                guard body.outcome.isKnown else {
                    throw ProblemError.invalidField("outcome", code: ProblemDetails.FieldError.invalidValue, detail: #""success" or "failure""#)
                }
                return try JSONResponse.make(try await device.reportPinAttempt(walletId: context.wallet.walletId, success: body.outcome == .success,
                                                                                now: clock.now()), headers: JSONResponse.noStore)
            },
            .wallet(.get, Self.events) { request, context in
                try Self.eventStream(request, walletId: context.wallet.walletId, device: device)
            },
            .sca(.post, Self.verify) { request, context in
                let body = try await JSONBodyDecoder.decode(SCAProofVerifyRequest.self, from: request, context: context)
                return try JSONResponse.make(try await proofs.verify(body, now: clock.now()), headers: JSONResponse.noStore)
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
        guard let after = Int64(header ?? parameters["after"].map(String.init) ?? "0"), after >= 0 else {
            throw ProblemError.invalidField(header == nil ? "after" : HoldfastHeaders.lastEventID, code: ProblemDetails.FieldError.invalidValue,
                                            detail: "an event id (a whole number)")
        }
        guard let wait = Int(parameters["wait"].map(String.init) ?? String(defaultWait)), waits.contains(wait) else {
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
