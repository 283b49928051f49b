import HoldfastProtocol
import Hummingbird

/// One operation of the HTTP API, with the authentication it declares (DESIGN.md §4 "Auth"). The router is built
/// from `[Route]` (Hummingbird cannot list its routes), so the same table drives routing, the 405 answer for a
/// known path with another method, and the test that every route is in `openapi.json` and every documented
/// operation is routed.
///
/// A route is made with the factory for its access, and its handler receives the context that access guarantees
/// (the two are one value, `Responder`, so the router cannot meet a route whose access and handler disagree):
/// `.public` a `HoldfastRequestContext`, `.admin` an `AdminRequestContext` (an active admin key), `.verifier` a
/// `VerifierRequestContext` (an admin or verifier key, or a response code), `.instance` an
/// `InstanceRequestContext` (the instance and its application), `.wallet` a `WalletRequestContext` (the SCA wallet),
/// `.accessToken` an `IssuanceRequestContext` (the offer an OpenID4VCI access token is for, and its DPoP proof). The authenticator runs as middleware before the
/// handler; a handler cannot forget it.
public struct Route: Sendable {
    /// What a route asks of its caller: its `responder` without the handler (what the OpenAPI contract tests compare).
    public enum Access: Sendable, Hashable {
        /// No credentials (health, metrics, JWKS, OpenAPI, challenges, registration).
        case `public`
        /// A valid, unrevoked admin API key of scope `admin` as `Authorization: Bearer …`.
        case admin
        /// An admin API key of scope `admin` or `verifier`; with `responseCode`, alternatively a same-device
        /// `response_code` query parameter (OpenID4VP 1.0 §8.2).
        case verifier(responseCode: Bool)
        /// An admin API key of scope `admin` or `sca`.
        case sca
        /// A DPoP proof made with the key of the SCA wallet named by `{walletId}` in the path.
        case wallet
        /// A license token and a DPoP proof of the instance named by `{instanceId}` in the path.
        case instance(InstanceAccess)
        /// An OpenID4VCI access token (`Authorization: DPoP <token>`) and a DPoP proof of its key with its `ath`
        /// (RFC 9449 §7.1), its client re-checked (`AccessTokenAuthenticator`).
        case accessToken
    }

    public typealias Handler<Context> = @Sendable (Request, Context) async throws -> Response

    /// A route's access with the handler of the context that access guarantees, one case per `Access`: each
    /// case carries what its authenticator needs (the verifier's `responseCode`, the instance's `InstanceAccess`).
    enum Responder: Sendable {
        case `public`(Handler<HoldfastRequestContext>)
        case admin(Handler<AdminRequestContext>)
        case sca(Handler<AdminRequestContext>)
        case verifier(responseCode: Bool, Handler<VerifierRequestContext>)
        case wallet(Handler<WalletRequestContext>)
        case instance(InstanceAccess, InstanceHandler)
        case accessToken(Handler<IssuanceRequestContext>)

        var access: Access {
            switch self {
            case .public: .public
            case .admin: .admin
            case .sca: .sca
            case .verifier(let responseCode, _): .verifier(responseCode: responseCode)
            case .wallet: .wallet
            case .instance(let access, _): .instance(access)
            case .accessToken: .accessToken
            }
        }
    }

    /// An instance call in two steps: `validate` reads the whole request (its JSON body) before the DPoP proof is
    /// spent, `handle` carries it out after.
    struct InstanceHandler: Sendable {
        let validate: @Sendable (Request, InstanceRequestContext) async throws -> any Sendable
        let handle: @Sendable (Request, InstanceRequestContext, any Sendable) async throws -> Response
    }

    public let method: HTTPRequest.Method
    public let template: RouteTemplate
    let responder: Responder

    /// The authentication the route declares, from `responder`.
    public var access: Access { responder.access }

    /// The OpenAPI path template (`/v1/admin/keys/{id}`), exactly as in `openapi.json`.
    public var path: String { template.template }

    private init(_ method: HTTPRequest.Method, _ template: RouteTemplate, responder: Responder) {
        self.method = method
        self.template = template
        self.responder = responder
    }

    /// A route anyone may call.
    public static func `public`(_ method: HTTPRequest.Method, _ template: RouteTemplate,
                                handler: @escaping Handler<HoldfastRequestContext>) -> Route {
        Route(method, template, responder: .public(handler))
    }

    /// A route of the admin API.
    public static func admin(_ method: HTTPRequest.Method, _ template: RouteTemplate,
                             handler: @escaping Handler<AdminRequestContext>) -> Route {
        Route(method, template, responder: .admin(handler))
    }

    /// A route a bank's back end calls with a key of scope `sca` (or an admin key).
    public static func sca(_ method: HTTPRequest.Method, _ template: RouteTemplate,
                           handler: @escaping Handler<AdminRequestContext>) -> Route {
        Route(method, template, responder: .sca(handler))
    }

    /// A device's call with its SCA wallet key; `template` must have a `{walletId}` segment.
    public static func wallet(_ method: HTTPRequest.Method, _ template: RouteTemplate,
                              handler: @escaping Handler<WalletRequestContext>) -> Route {
        precondition(template.parameters.contains("walletId"), "\(template) names no {walletId}")
        return Route(method, template, responder: .wallet(handler))
    }

    /// A wallet's call with its OpenID4VCI access token (docs/server-api.md "Credentials"): the credential and notification
    /// endpoints.
    public static func accessToken(_ method: HTTPRequest.Method, _ template: RouteTemplate,
                                   handler: @escaping Handler<IssuanceRequestContext>) -> Route {
        Route(method, template, responder: .accessToken(handler))
    }

    /// A route of the verifier's sessions (docs/server-api.md "Verifier").
    public static func verifier(_ method: HTTPRequest.Method, _ template: RouteTemplate, acceptsResponseCode: Bool = false,
                                handler: @escaping Handler<VerifierRequestContext>) -> Route {
        Route(method, template, responder: .verifier(responseCode: acceptsResponseCode, handler))
    }

    /// An instance's own call, with a JSON body of type `Body`; an empty body reads as `{}` (an empty request when
    /// every member is optional, else a `VALIDATION_FAILED` naming the missing ones); `template` must have an
    /// `{instanceId}` segment. The body is read and validated before the DPoP proof is spent, so a request refused
    /// for its body leaves the proof usable (`InstanceAuthenticator.spend`).
    public static func instance<Body: Decodable & Sendable>(
        _ method: HTTPRequest.Method, _ template: RouteTemplate, _ access: InstanceAccess, body: Body.Type,
        handler: @escaping @Sendable (Request, InstanceRequestContext, Body) async throws -> Response
    ) -> Route {
        precondition(template.parameters.contains("instanceId"), "\(template) names no {instanceId}")
        let responder = InstanceHandler(
            validate: { request, context in
                try await JSONBodyDecoder.decode(Body.self, from: request, context: context, emptyIsEmptyObject: true)
            },
            handle: { request, context, body in
                guard let body = body as? Body else { preconditionFailure("\(template): body of another type") }
                return try await handler(request, context, body)
            })
        return Route(method, template, responder: .instance(access, responder))
    }

    /// The Hummingbird form of `path`: `{id}` becomes `:id`.
    var routerPath: String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.hasPrefix("{") && segment.hasSuffix("}") ? ":" + segment.dropFirst().dropLast() : segment
        }.joined(separator: "/")
    }

    /// Whether a concrete request path matches this template (`{x}` matches one non-empty segment).
    func matches(path requestPath: String) -> Bool {
        let template = path.split(separator: "/", omittingEmptySubsequences: false)
        let actual = requestPath.split(separator: "/", omittingEmptySubsequences: false)
        guard template.count == actual.count else { return false }
        return zip(template, actual).allSatisfy { pattern, segment in
            pattern.hasPrefix("{") && pattern.hasSuffix("}") ? !segment.isEmpty : pattern == segment
        }
    }
}
