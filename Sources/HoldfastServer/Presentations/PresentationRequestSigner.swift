import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE

/// Signs a session's request object (OpenID4VP 1.0 §5; ISO/IEC TS 18013-7:2024 B.3.2) with the verifier's
/// request-signing certificate, its chain in `x5c` (README "Verifier").
struct PresentationRequestSigner: Sendable {
    static let requestObjectLifetime: TimeInterval = 300

    let certificates: VerifierCertificates
    let publicURL: @Sendable () -> String

    /// The request object of `session`, valid from `now` for `requestObjectLifetime` (never past the session's end).
    func requestObject(_ session: PresentationSessionStore.Session, now: Date) throws -> String {
        let id = session.id
        let settings = session.settings
        let isOpenID = settings.presentationProtocol == .openID4VP
        let issuedAt = Int64(now.timeIntervalSince1970)
        let expires = min(issuedAt + Int64(Self.requestObjectLifetime), session.expiresAt / 1_000)
        var jwk = JWK(publicKey: session.key.publicKey, kid: settings.kid, use: "enc", alg: "ECDH-ES")
        jwk.kid = settings.kid
        let jwks = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(JWKSet(keys: [jwk])))
        var payload: [String: JSONValue] = [
            "iss": .string(settings.clientId), "aud": .string("https://self-issued.me/v2"), "iat": .integer(issuedAt), "exp": .integer(expires),
            "client_id": .string(settings.clientId), "response_type": .string("vp_token"), "response_mode": .string("direct_post.jwt"),
            "response_uri": .string(publicURL() + PresentationRoutes.response(sessionId: id)), "nonce": .string(session.nonce),
            "state": .string(session.state),
        ]
        if isOpenID {
            payload["client_metadata"] = .object([
                "jwks": jwks, "encrypted_response_enc_values_supported": .array([.string("A128GCM"), .string("A256GCM")]),
                "vp_formats_supported": .object(["mso_mdoc": .object(["issuerauth_alg_values": .array([.integer(-7)]),
                                                                      "deviceauth_alg_values": .array([.integer(-7)])])]),
            ])
            payload["dcql_query"] = settings.dcql ?? PresentationQuery.dcql(settings.requests)
        } else {
            payload["client_id_scheme"] = .string("x509_san_dns")
            payload["client_metadata"] = .object([
                "jwks": jwks, "authorization_encrypted_response_alg": .string("ECDH-ES"),
                "authorization_encrypted_response_enc": .string("A256GCM"),
                "vp_formats": .object(["mso_mdoc": .object(["alg": .array([.string("ES256")])])]),
            ])
            payload["presentation_definition"] = PresentationQuery.presentationDefinition(id: id, settings.requests)
        }
        var header = JOSEHeader()
        header.typ = "oauth-authz-req+jwt"
        header.setX5C([certificates.requestSigner.der, certificates.ca.der])
        return try JWS.sign(payload: try JSONEncoder().encode(JSONValue.object(payload)), header: header,
                            key: JWSSigningKey(certificates.requestSigner.privateKey)).compactSerialization
    }
}
