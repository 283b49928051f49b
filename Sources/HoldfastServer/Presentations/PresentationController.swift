import Foundation
import HoldfastAdmin
import HoldfastProtocol
import Hummingbird
import JOSE

/// The verifier's session routes (README "Verifier"):
/// - `POST /v2/presentations/sessions` (admin): a session → `{sessionId, authorizationRequestUri, requestUri, expiresAt}`;
/// - `GET /v2/presentations/sessions/{sessionId}/request` (public): the signed request object;
/// - `POST /v2/presentations/sessions/{sessionId}/response` (public): the wallet's `response=<JWE>`;
/// - `GET /v2/presentations/sessions/{sessionId}/result` (the admin key that made it): the outcome.
struct PresentationController: HoldfastController {
    static let sessions: RouteTemplate = "/v2/presentations/sessions"
    static let request: RouteTemplate = "/v2/presentations/sessions/{sessionId}/request"
    static let response: RouteTemplate = "/v2/presentations/sessions/{sessionId}/response"
    static let result: RouteTemplate = "/v2/presentations/sessions/{sessionId}/result"

    let service: PresentationSessionService
    let clock: any HoldfastClock

    var routes: [Route] {
        [
            .admin(.post, Self.sessions) { request, context in
                let body = try await JSONBodyDecoder.decode(PresentationSessionRequest.self, from: request, context: context)
                return try JSONResponse.make(try await service.create(body, adminKeyID: context.adminKey.id, now: clock.now()),
                                             status: .created, headers: JSONResponse.noStore)
            },
            .public(.get, Self.request) { _, context in
                let jws = try await service.requestObject(id: try context.parameters.require("sessionId"), now: clock.now())
                var headers = HTTPFields()
                headers[.contentType] = "application/oauth-authz-req+jwt"
                headers[.cacheControl] = "no-store"
                return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: jws)))
            },
            .public(.post, Self.response) { request, context in
                try await OAuthError.answering {
                    let form = try await OpenID4VCIController.form(request, context: context)
                    let answer = try await service.respond(id: try context.parameters.require("sessionId"), form: form, now: clock.now())
                    return try OpenID4VCIController.json(answer, cache: "no-store")
                }
            },
            .admin(.get, Self.result) { _, context in
                try JSONResponse.make(try await service.result(id: try context.parameters.require("sessionId"),
                                                               adminKeyID: context.adminKey.id, now: clock.now()),
                                      headers: JSONResponse.noStore)
            },
        ]
    }
}
