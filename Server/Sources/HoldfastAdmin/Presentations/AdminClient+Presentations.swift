import Foundation
import HoldfastProtocol

/// The verifier's routes (docs/server-api.md "Verifier"; `PresentationRoutes`, `PresentationAdminRoutes`): sessions with this
/// client's key (admin or verifier scope), and the verifier's admin routes.
extension AdminClient {
    public func createPresentationSession(_ request: PresentationSessionRequest) async throws -> PresentationSessionCreated {
        try await call("POST", PresentationRoutes.Template.sessions, body: request, expecting: 201)
    }

    /// A `dc-api` session (`request.protocol` "dc-api"): `{sessionId, digital, expiresAt}`.
    public func createDigitalCredentialsSession(_ request: PresentationSessionRequest) async throws -> DigitalCredentialsSessionCreated {
        try await call("POST", PresentationRoutes.Template.sessions, body: request, expecting: 201)
    }

    /// A session's result, read with the key that made it.
    public func presentationResult(sessionId: String) async throws -> PresentationResult {
        try await call("GET", PresentationRoutes.Template.result, ["sessionId": sessionId], expecting: 200)
    }

    /// A same-device session's result, read once with the wallet's `response_code` (OpenID4VP 1.0 §8.2), without
    /// the key.
    public func presentationResult(sessionId: String, responseCode: String) async throws -> PresentationResult {
        let answer = try await send("GET", PresentationRoutes.Template.result, ["sessionId": sessionId],
                                    query: [(PresentationRoutes.Query.responseCode, responseCode)], authenticated: false)
        guard answer.status == 200 else { throw Self.failure(answer) }
        return try HoldfastJSON.decode(PresentationResult.self, from: answer.body)
    }

    /// The session's authorization request URI as a QR code (SVG).
    public func presentationQRCode(sessionId: String) async throws -> Data {
        let answer = try await send("GET", PresentationRoutes.Template.qr, ["sessionId": sessionId])
        guard answer.status == 200 else { throw Self.failure(answer) }
        return answer.body
    }

    /// The CA of the verifier's request-object signers, which wallets add as a trusted verifier.
    public func verifierCAs() async throws -> VerifierCAList {
        try await call("GET", PresentationAdminRoutes.Template.verifierCAs, expecting: 200)
    }

    public func addTrustedIssuer(_ issuer: PresentationTrustedIssuer) async throws -> PresentationTrustedIssuer {
        try await call("POST", PresentationAdminRoutes.Template.trustedIssuers, body: issuer, expecting: 201)
    }

    public func trustedIssuers() async throws -> PresentationTrustedIssuerList {
        try await call("GET", PresentationAdminRoutes.Template.trustedIssuers, expecting: 200)
    }

    public func deleteTrustedIssuer(id: String) async throws {
        try await expectNoContent("DELETE", PresentationAdminRoutes.Template.trustedIssuer, ["id": id])
    }
}
