import Crypto
import Foundation
import HoldfastProtocol
import JOSE
import OpenID4VCI

/// The wallet's side of OpenID4VCI 1.0 with the pre-authorized code grant: the token request (§6) authenticated by
/// client attestation (draft-ietf-oauth-attestation-based-client-auth) and bound to a DPoP key (RFC 9449), a
/// `c_nonce` (§7), and the credential request (§8) with a `jwt` key proof (Appendix F.1).
struct OpenID4VCIClient: Sendable {
    struct Session: Sendable {
        let accessToken: String
        let dpopKey: JWSSigningKey
        /// A `c_nonce` the token response carried (drafts before 1.0), used when there is no nonce endpoint.
        let tokenNonce: String?
    }

    let transport: any HTTPTransport
    let clock: any HoldfastClock
    let metadata: IssuerMetadata

    /// §6 token request; `clientAuthentication` (a wallet attestation and its PoP) is omitted for an issuer that does
    /// not require it and an SDK that has none (docs/sdk.md "Holder: tethering is optional").
    func token(code: String, transactionCode: String?,
               clientAuthentication: (attestation: String, pop: String)?) async throws(HoldfastError) -> Session {
        let dpopKey = JWSSigningKey(P256.Signing.PrivateKey())
        let form = PercentEncoding.formBody(TokenRequest(preAuthorizedCode: code, txCode: transactionCode).formParameters)
        let response = try await DPoPNonceRetry.send { (nonce: String?) async throws(HoldfastError) -> TransportResponse in
            let proof = try dpop("POST", metadata.tokenEndpoint, key: dpopKey, accessToken: nil, nonce: nonce)
            var headers = ["Content-Type": TokenRequest.mediaType, "Accept": "application/json", HoldfastHeaders.dpop: proof]
            if let clientAuthentication {
                headers[HoldfastHeaders.oauthClientAttestation] = clientAuthentication.attestation
                headers[HoldfastHeaders.oauthClientAttestationPoP] = clientAuthentication.pop
            }
            return try await send(TransportRequest(method: "POST", url: metadata.tokenEndpoint, headers: headers, body: Data(form.utf8)))
        }
        guard response.status == 200 else { throw Self.error(response, step: "token") }
        guard let token = try? TokenResponse.decode(response.body), token.isDPoPBound else {
            throw HoldfastError(.invalidResponse, "the token response has no DPoP access token")
        }
        return Session(accessToken: token.accessToken, dpopKey: dpopKey, tokenNonce: token.cNonce)
    }

    /// An issued credential: the IssuerSigned bytes and the §8.3 `notification_id` the issuer gave it, if any.
    struct Issued: Sendable {
        let bytes: [UInt8]
        let notificationId: String?
    }

    /// One credential of `configurationId`, bound to `signer`'s key. A `use_dpop_nonce` answer is retried with the
    /// nonce (`DPoPNonceRetry`), an `invalid_nonce` once with a fresh `c_nonce`.
    func credential(configurationId: String, session: Session, signer: SecureAreaSigner,
                    clientId: String?) async throws(HoldfastError) -> Issued {
        var cNonce = try await freshNonce() ?? session.tokenNonce
        var dpopNonce: String?
        var retriedNonce = false
        while true {
            let keyProof = try await keyProof(signer: signer, nonce: cNonce, clientId: clientId)
            let body: Data
            do {
                body = try OpenID4VCIJSON.encode(CredentialRequest(credentialConfigurationId: configurationId,
                                                                   proofs: .init(jwt: [keyProof])))
            } catch {
                throw HoldfastError(.invalidResponse, "cannot encode the request")
            }
            let response = try await DPoPNonceRetry.send(initialNonce: dpopNonce) { (nonce: String?) async throws(HoldfastError) -> TransportResponse in
                dpopNonce = nonce
                return try await send(TransportRequest(method: "POST", url: metadata.credentialEndpoint, headers: [
                    "Content-Type": "application/json", "Accept": "application/json",
                    "Authorization": "DPoP " + session.accessToken,
                    HoldfastHeaders.dpop: try dpop("POST", metadata.credentialEndpoint, key: session.dpopKey,
                                                   accessToken: session.accessToken, nonce: nonce),
                ], body: body))
            }
            if !retriedNonce, response.status == 400, OAuthErrorResponse.decodeIfPresent(response.body)?.error == .invalidNonce {
                retriedNonce = true
                cNonce = try await freshNonce()
                continue
            }
            guard response.status == 200 else { throw Self.error(response, step: "credential") }
            guard let answer = try? CredentialResponse.decode(response.body) else {
                throw HoldfastError(.invalidResponse, "the credential response is not a JSON object")
            }
            if answer.transactionId != nil {
                throw HoldfastError(.issuerError, "the issuer deferred the issuance, which this SDK does not support")
            }
            guard let first = answer.credentials?.first?.credential.stringValue,
                  let bytes = Base64URL.decode(first) ?? Data(base64Encoded: first).map({ [UInt8]($0) }) else {
                throw HoldfastError(.invalidResponse, "the credential response has no credentials[0].credential")
            }
            return Issued(bytes: bytes, notificationId: answer.notificationId)
        }
    }

    /// §11: tells the issuer what became of the credential `notificationId` names, with the session's access token
    /// and a DPoP proof (a `use_dpop_nonce` answer is retried with the nonce). Nothing is sent when the issuer has
    /// no notification endpoint.
    func notify(_ event: NotificationEvent, notificationId: String, description: String?,
                session: Session) async throws(HoldfastError) {
        guard let endpoint = metadata.notificationEndpoint else { return }
        let body: Data
        do {
            body = try OpenID4VCIJSON.encode(NotificationRequest(
                notificationId: notificationId, event: event, eventDescription: description.map { NotificationRequest.sanitizedDescription($0) }))
        } catch {
            throw HoldfastError(.invalidResponse, "cannot encode the notification")
        }
        let response = try await DPoPNonceRetry.send { (nonce: String?) async throws(HoldfastError) -> TransportResponse in
            try await send(TransportRequest(method: "POST", url: endpoint, headers: [
                "Content-Type": "application/json", "Accept": "application/json",
                "Authorization": "DPoP " + session.accessToken,
                HoldfastHeaders.dpop: try dpop("POST", endpoint, key: session.dpopKey, accessToken: session.accessToken, nonce: nonce),
            ], body: body))
        }
        guard (200..<300).contains(response.status) else { throw Self.error(response, step: "notification") }
    }

    /// §7: a new `c_nonce` from the nonce endpoint, or nil when the issuer has none.
    private func freshNonce() async throws(HoldfastError) -> String? {
        guard let endpoint = metadata.nonceEndpoint else { return nil }
        let response = try await send(TransportRequest(method: "POST", url: endpoint, headers: ["Accept": "application/json"]))
        guard response.status == 200 else { throw Self.error(response, step: "nonce") }
        guard let nonce = try? NonceResponse.decode(response.body) else {
            throw HoldfastError(.invalidResponse, "the nonce response has no c_nonce")
        }
        return nonce.cNonce
    }

    /// Appendix F.1: `typ` openid4vci-proof+jwt, the public key as `jwk`, `aud` the credential issuer, `iat`, the
    /// `c_nonce`, and `iss` the client id (the token was not obtained anonymously).
    private func keyProof(signer: SecureAreaSigner, nonce: String?, clientId: String?) async throws(HoldfastError) -> String {
        do {
            let header = try KeyProof.header(jwk: signer.publicJWK)
            let claims = KeyProof.claims(clientId: clientId, credentialIssuer: metadata.credentialIssuer,
                                         issuedAt: clock.now(), nonce: nonce)
            return try await JWT.sign(claims: claims, header: header, signer: signer)
        } catch {
            throw HoldfastError.wrap(error)
        }
    }

    private func dpop(_ method: String, _ url: URL, key: JWSSigningKey, accessToken: String?, nonce: String?) throws(HoldfastError) -> String {
        do {
            return try DPoPProof.create(method: method, uri: url.absoluteString, key: key, issuedAt: clock.now(),
                                        accessToken: accessToken, nonce: nonce)
        } catch {
            throw HoldfastError.wrap(error)
        }
    }

    private func send(_ request: TransportRequest) async throws(HoldfastError) -> TransportResponse {
        do { return try await transport.exchange(request) } catch {
            throw HoldfastError(.networkError, "\(request.url.absoluteString) could not be reached: \(error)")
        }
    }

    /// RFC 6749 §5.2 / OpenID4VCI §8.3.1: `ISSUER_ERROR` carrying the issuer's `error`; an answer without one is
    /// `INVALID_RESPONSE` (or `NETWORK_ERROR` for a 5xx).
    static func error(_ response: TransportResponse, step: String) -> HoldfastError {
        if let body = OAuthErrorResponse.decodeIfPresent(response.body) {
            let code = body.error
            let description = body.errorDescription.map { ": \($0)" } ?? ""
            var error = HoldfastError(.issuerError, "the \(step) request was refused: \(code)\(description)", httpStatus: response.status)
            error.issuerError = code.rawValue
            return error
        }
        if response.status >= 500 {
            return HoldfastError(.networkError, "the \(step) endpoint answered HTTP \(response.status)", httpStatus: response.status)
        }
        return HoldfastError(.invalidResponse, "the \(step) endpoint answered HTTP \(response.status)", httpStatus: response.status)
    }
}
