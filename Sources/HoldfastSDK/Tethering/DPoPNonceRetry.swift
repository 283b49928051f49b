import Foundation
import HoldfastProtocol
import OpenID4VCI

/// RFC 9449 §8 (authorization servers) and §9 (resource servers): a server that wants its nonce in DPoP proofs
/// answers 400 or 401 `use_dpop_nonce` with a `DPoP-Nonce` header, and the client sends the request once more with a
/// proof carrying that nonce. The one retry of the SDK, for its tenant (`TenantClient`) and for issuers
/// (`OpenID4VCIClient`).
enum DPoPNonceRetry {
    /// Sends with `attempt`, first with `initialNonce`; when the answer asks for a nonce, once more with it. The
    /// second answer is returned as it is, whatever it says.
    static func send(initialNonce: String? = nil, isolation: isolated (any Actor)? = #isolation,
                     _ attempt: (_ nonce: String?) async throws(HoldfastError) -> TransportResponse)
        async throws(HoldfastError) -> TransportResponse {
        let first = try await attempt(initialNonce)
        guard let nonce = requestedNonce(first) else { return first }
        return try await attempt(nonce)
    }

    /// The nonce a `use_dpop_nonce` answer carries: a 400 or 401 with a `DPoP-Nonce` header whose error is
    /// `use_dpop_nonce`, said in `WWW-Authenticate` (§9), as the problem code (the tenant), or as the OAuth `error`
    /// (§8); nil for any other answer.
    static func requestedNonce(_ response: TransportResponse) -> String? {
        guard response.status == 401 || response.status == 400, let nonce = response.header(HoldfastHeaders.dpopNonce) else {
            return nil
        }
        if let challenge = response.header(HoldfastHeaders.wwwAuthenticate), challenge.contains(OAuthErrorCode.useDPoPNonce.rawValue) {
            return nonce
        }
        if let problem = try? HoldfastJSON.decode(ProblemDetails.self, from: response.body), problem.effectiveCode == .useDPoPNonce {
            return nonce
        }
        if OAuthErrorResponse.decodeIfPresent(response.body)?.error == .useDPoPNonce {
            return nonce
        }
        return nil
    }
}
