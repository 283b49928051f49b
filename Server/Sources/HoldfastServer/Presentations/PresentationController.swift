import Foundation
import HoldfastAdmin
import HoldfastProtocol
import Hummingbird
import JOSE
import OpenID4VP
import QR

/// The verifier's session routes (docs/server-api.md "Verifier"):
/// - `POST /v2/presentations/sessions` (an admin or verifier key): a session → `{sessionId, authorizationRequestUri,
///   requestUri, expiresAt}`, or for `dc-api` `{sessionId, digital, expiresAt}`;
/// - `GET /v2/presentations/sessions/{sessionId}/request` (public): the signed request object;
/// - `POST /v2/presentations/sessions/{sessionId}/response` (public): the wallet's `response=<JWE>`;
/// - `POST /v2/presentations/sessions/{sessionId}/dc-api-response` (public): the page's `DigitalCredential`
///   `{protocol, data}` (docs/server-api.md "Digital Credentials API");
/// - `GET /v2/presentations/sessions/{sessionId}/result` (the key that made it, or the same-device `response_code`
///   once): the outcome;
/// - `GET /v2/presentations/sessions/{sessionId}/qr` (the key that made it): the authorisation request URI as a QR
///   code (SVG), for the verifier page.
struct PresentationController: HoldfastController {
    let service: PresentationSessionService
    let digitalCredentials: DigitalCredentialsSessionService
    let clock: any HoldfastClock

    var routes: [Route] {
        [
            .verifier(.post, PresentationRoutes.Template.sessions) { request, context in
                guard case .key(let key) = context.caller else { throw AdminKeyError.unauthenticated(credentialsPresented: false) }
                let body = try await JSONBodyDecoder.decode(PresentationSessionRequest.self, from: request, context: context)
                if body.protocol == .dcAPI {
                    return try JSONResponse.make(try await digitalCredentials.create(body, adminKeyID: key.id, now: clock.now()),
                                                 status: .created, headers: JSONResponse.noStore)
                }
                return try JSONResponse.make(try await service.create(body, adminKeyID: key.id, now: clock.now()),
                                             status: .created, headers: JSONResponse.noStore)
            },
            .public(.get, PresentationRoutes.Template.request) { _, context in
                let jws = try await service.requestObject(id: try context.parameters.require("sessionId"), now: clock.now())
                var headers = HTTPFields()
                headers[.contentType] = OpenID4VPIdentifiers.requestObjectMediaType
                headers[.cacheControl] = "no-store"
                return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: jws)))
            },
            .public(.post, PresentationRoutes.Template.response) { request, context in
                try await OAuthError.answering {
                    let form = try await FormBody.decode(request, context: context)
                    let answer = try await service.respond(id: try context.parameters.require("sessionId"), form: form, now: clock.now())
                    return try JSONResponse.make(answer, headers: JSONResponse.noStore)
                }
            },
            .public(.post, PresentationRoutes.Template.dcAPIResponse) { request, context in
                try await OAuthError.answering {
                    var request = request
                    let body = try await request.collectBody(upTo: context.maxUploadSize)
                    let answer = try await digitalCredentials.respond(id: try context.parameters.require("sessionId"),
                                                                      body: Array(body.readableBytesView), now: clock.now())
                    return try JSONResponse.make(answer, headers: JSONResponse.noStore)
                }
            },
            .verifier(.get, PresentationRoutes.Template.result, acceptsResponseCode: true) { _, context in
                let id = try context.parameters.require("sessionId")
                let result: PresentationResult
                switch context.caller {
                case .key(let key): result = try await service.result(id: id, adminKeyID: key.id, now: clock.now())
                case .responseCode(let code): result = try await service.result(id: id, responseCode: code, now: clock.now())
                }
                return try JSONResponse.make(result, headers: JSONResponse.noStore)
            },
            .verifier(.get, PresentationRoutes.Template.qr) { _, context in
                guard case .key(let key) = context.caller else { throw AdminKeyError.unauthenticated(credentialsPresented: false) }
                let uri = try await service.authorizationRequestUri(id: try context.parameters.require("sessionId"), adminKeyID: key.id)
                var headers = HTTPFields()
                headers[.contentType] = "image/svg+xml"
                headers[.cacheControl] = "no-store"
                let svg = try QRCode(bytes: Array(uri.utf8)).svg(title: uri)
                return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: svg)))
            },
        ]
    }
}
