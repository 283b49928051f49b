import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE
import OpenID4VP

/// Signs a session's request object (OpenID4VP 1.0 §5; ISO/IEC TS 18013-7:2024 B.3.2) with the verifier's
/// request-signing certificate, its chain in `x5c` (docs/server-api.md "Verifier"). The claims are the `OpenID4VP` module's
/// `RequestObject`, which the SDK reads back.
struct PresentationRequestSigner: Sendable {
    static let requestObjectLifetime: TimeInterval = 300

    let certificates: VerifierCertificates
    let publicURL: @Sendable () -> String

    /// The request object of `session`, valid from `now` for `requestObjectLifetime` (never past the session's end).
    func requestObject(_ session: PresentationSessionStore.Session, now: Date) throws -> String {
        var header = JOSEHeader()
        header.typ = OpenID4VPIdentifiers.requestObjectType
        header.setX5C([certificates.requestSigner.der, certificates.ca.der])
        return try JWS.sign(payload: try claims(session, now: now).payload(), header: header,
                            key: JWSSigningKey(certificates.requestSigner.privateKey)).compactSerialization
    }

    /// The claims: OpenID4VP 1.0 with `client_metadata` as HAIP 1.0 has it and the DCQL query; 18013-7:2024 with
    /// `client_id_scheme`, the earlier drafts' `client_metadata` and a presentation definition.
    func claims(_ session: PresentationSessionStore.Session, now: Date) -> RequestObject {
        let settings = session.settings
        let issuedAt = Int64(now.timeIntervalSince1970)
        let expires = min(issuedAt + Int64(Self.requestObjectLifetime), Int64(session.expiresAt.timeIntervalSince1970))
        let jwks = JWKSet(keys: [JWK(publicKey: session.key.publicKey, kid: settings.kid, use: .encryption, alg: "ECDH-ES")])
        var claims = RequestObject(iss: settings.clientId, aud: OpenID4VPIdentifiers.selfIssuedAudience, iat: NumericDate(issuedAt),
                                   exp: NumericDate(expires), clientId: settings.clientId,
                                   responseType: OpenID4VPIdentifiers.vpTokenResponseType,
                                   responseMode: OpenID4VPIdentifiers.directPostJWTResponseMode,
                                   responseUri: publicURL() + PresentationRoutes.response(sessionId: session.id),
                                   nonce: session.nonce, state: session.state)
        switch settings.presentationProtocol.known {
        case .openID4VP?, .dcAPI?:
            claims.clientMetadata = ClientMetadata(
                jwks: jwks, encryptedResponseEncValuesSupported: ["A128GCM", "A256GCM"],
                vpFormatsSupported: .init(msoMdoc: .init(issuerauthAlgValues: [-7], deviceauthAlgValues: [-7])))
            claims.dcqlQuery = settings.dcql ?? PresentationQuery.dcql(settings.requests)
        case .iso18013_7?, nil:
            claims.clientIdScheme = ClientIdPrefix.x509SanDNS.rawValue
            claims.clientMetadata = ClientMetadata(jwks: jwks, authorizationEncryptedResponseAlg: "ECDH-ES",
                                                   authorizationEncryptedResponseEnc: "A256GCM",
                                                   vpFormats: .init(msoMdoc: .init(alg: ["ES256"])))
            claims.presentationDefinition = PresentationQuery.presentationDefinition(id: session.id, settings.requests)
        }
        return claims
    }
}
