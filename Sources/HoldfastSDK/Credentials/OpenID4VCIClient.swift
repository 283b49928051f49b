import Crypto
import Foundation
import HoldfastProtocol
import JOSE

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

    static let proofType = OpenID4VCIIdentifiers.keyProofType

    let transport: any HTTPTransport
    let clock: any HoldfastClock
    let metadata: IssuerMetadata

    func token(code: String, transactionCode: String?, attestation: String, pop: String) async throws(HoldfastError) -> Session {
        let dpopKey = JWSSigningKey(P256.Signing.PrivateKey())
        var form = "grant_type=" + PercentEncoding.formValue(OfferReader.preAuthorizedGrant) + "&pre-authorized_code=" + PercentEncoding.formValue(code)
        if let transactionCode { form += "&tx_code=" + PercentEncoding.formValue(transactionCode) }
        var nonce: String?
        for attempt in 0..<2 {
            let proof = try dpop("POST", metadata.tokenEndpoint, key: dpopKey, accessToken: nil, nonce: nonce)
            let response = try await send(TransportRequest(method: "POST", url: metadata.tokenEndpoint, headers: [
                "Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json",
                HoldfastHeaders.oauthClientAttestation: attestation, HoldfastHeaders.oauthClientAttestationPoP: pop, HoldfastHeaders.dpop: proof,
            ], body: Data(form.utf8)))
            if attempt == 0, let fresh = Self.dpopNonceRequest(response) {
                nonce = fresh
                continue
            }
            guard response.status == 200 else { throw Self.error(response, step: "token") }
            guard let object = (try? JSONDecoder().decode(JSONValue.self, from: response.body))?.objectValue,
                  let accessToken = object["access_token"]?.stringValue,
                  object["token_type"]?.stringValue?.lowercased() == "dpop" else {
                throw HoldfastError(.invalidResponse, "the token response has no DPoP access token")
            }
            return Session(accessToken: accessToken, dpopKey: dpopKey, tokenNonce: object["c_nonce"]?.stringValue)
        }
        throw HoldfastError(.issuerError, "the token endpoint asked for a DPoP nonce twice")
    }

    /// One credential of `configurationId`, bound to `signer`'s key; the IssuerSigned bytes.
    func credential(configurationId: String, session: Session, signer: SecureAreaSigner,
                    clientId: String?) async throws(HoldfastError) -> [UInt8] {
        var cNonce = try await freshNonce() ?? session.tokenNonce
        var dpopNonce: String?
        var retriedNonce = false, retriedDPoP = false
        while true {
            let proof = try await keyProof(signer: signer, nonce: cNonce, clientId: clientId)
            let body = JSONValue.object([
                "credential_configuration_id": .string(configurationId),
                "proofs": .object(["jwt": .array([.string(proof)])]),
            ])
            let encoded: Data
            do { encoded = try JSONEncoder().encode(body) } catch { throw HoldfastError(.invalidResponse, "cannot encode the request") }
            let response = try await send(TransportRequest(method: "POST", url: metadata.credentialEndpoint, headers: [
                "Content-Type": "application/json", "Accept": "application/json",
                "Authorization": "DPoP " + session.accessToken,
                HoldfastHeaders.dpop: try dpop("POST", metadata.credentialEndpoint, key: session.dpopKey, accessToken: session.accessToken, nonce: dpopNonce),
            ], body: encoded))
            if !retriedDPoP, let fresh = Self.dpopNonceRequest(response) {
                retriedDPoP = true
                dpopNonce = fresh
                continue
            }
            if !retriedNonce, response.status == 400, Self.oauthError(response) == "invalid_nonce" {
                retriedNonce = true
                cNonce = try await freshNonce()
                continue
            }
            guard response.status == 200 else { throw Self.error(response, step: "credential") }
            guard let object = (try? JSONDecoder().decode(JSONValue.self, from: response.body))?.objectValue else {
                throw HoldfastError(.invalidResponse, "the credential response is not a JSON object")
            }
            if object["transaction_id"] != nil {
                throw HoldfastError(.issuerError, "the issuer deferred the issuance, which this SDK does not support")
            }
            guard case .array(let credentials)? = object["credentials"], let first = credentials.first?.objectValue?["credential"]?.stringValue,
                  let bytes = Base64URL.decode(first) ?? Data(base64Encoded: first).map({ [UInt8]($0) }) else {
                throw HoldfastError(.invalidResponse, "the credential response has no credentials[0].credential")
            }
            return bytes
        }
    }

    /// §7: a new `c_nonce` from the nonce endpoint, or nil when the issuer has none.
    private func freshNonce() async throws(HoldfastError) -> String? {
        guard let endpoint = metadata.nonceEndpoint else { return nil }
        let response = try await send(TransportRequest(method: "POST", url: endpoint, headers: ["Accept": "application/json"]))
        guard response.status == 200 else { throw Self.error(response, step: "nonce") }
        guard let nonce = (try? JSONDecoder().decode(JSONValue.self, from: response.body))?.objectValue?["c_nonce"]?.stringValue else {
            throw HoldfastError(.invalidResponse, "the nonce response has no c_nonce")
        }
        return nonce
    }

    /// Appendix F.1: `typ` openid4vci-proof+jwt, the public key as `jwk`, `aud` the credential issuer, `iat`, the
    /// `c_nonce`, and `iss` the client id (the token was not obtained anonymously).
    private func keyProof(signer: SecureAreaSigner, nonce: String?, clientId: String?) async throws(HoldfastError) -> String {
        var header = JOSEHeader()
        header.typ = Self.proofType
        do {
            try header.setJWK(signer.publicJWK)
            var additional: [String: JSONValue] = [:]
            if let nonce { additional["nonce"] = .string(nonce) }
            let claims = JWTClaims(iss: clientId, aud: [metadata.credentialIssuer],
                                   iat: Date(timeIntervalSince1970: clock.now().timeIntervalSince1970.rounded(.down)),
                                   additionalClaims: additional)
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
        do { return try await transport.send(request) } catch {
            throw HoldfastError(.networkError, "\(request.url.absoluteString) could not be reached: \(error)")
        }
    }

    /// RFC 9449 §8 / §9: `use_dpop_nonce` with a `DPoP-Nonce` header.
    static func dpopNonceRequest(_ response: TransportResponse) -> String? {
        guard response.status == 400 || response.status == 401, let nonce = response.header(HoldfastHeaders.dpopNonce) else { return nil }
        let error = oauthError(response) ?? response.header("WWW-Authenticate").flatMap { $0.contains("use_dpop_nonce") ? "use_dpop_nonce" : nil }
        return error == "use_dpop_nonce" ? nonce : nil
    }

    static func oauthError(_ response: TransportResponse) -> String? {
        (try? JSONDecoder().decode(JSONValue.self, from: response.body))?.objectValue?["error"]?.stringValue
    }

    /// RFC 6749 §5.2 / OpenID4VCI §8.3.1: `ISSUER_ERROR` carrying the issuer's `error`; an answer without one is
    /// `INVALID_RESPONSE` (or `NETWORK_ERROR` for a 5xx).
    static func error(_ response: TransportResponse, step: String) -> HoldfastError {
        let object = (try? JSONDecoder().decode(JSONValue.self, from: response.body))?.objectValue
        if let code = object?["error"]?.stringValue {
            let description = object?["error_description"]?.stringValue.map { ": \($0)" } ?? ""
            var error = HoldfastError(.issuerError, "the \(step) request was refused: \(code)\(description)", httpStatus: response.status)
            error.issuerError = code
            return error
        }
        if response.status >= 500 {
            return HoldfastError(.networkError, "the \(step) endpoint answered HTTP \(response.status)", httpStatus: response.status)
        }
        return HoldfastError(.invalidResponse, "the \(step) endpoint answered HTTP \(response.status)", httpStatus: response.status)
    }
}
