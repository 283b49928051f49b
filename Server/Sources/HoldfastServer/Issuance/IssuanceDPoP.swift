import Foundation
import HoldfastProtocol
import JOSE
import OpenID4VCI

/// The DPoP proofs of the OpenID4VCI endpoints (RFC 9449): at the token endpoint (§5, a 400 when refused) the proof
/// the token will be bound to; at the token-bound endpoints (§7.1, a 401 with a `DPoP` challenge) a proof of the
/// token's key with its `ath`.
struct IssuanceDPoP: Sendable {
    let tethering: TetheringConfiguration
    let publicURL: @Sendable () -> String

    /// One `DPoP` header, a proof of `method` for `publicURL + path` (with `accessToken`'s `ath` and by
    /// `expectedThumbprint`'s key when given), or `invalid_dpop_proof`.
    func verify(_ headers: [String], method: String, accessToken: String?, expectedThumbprint: String?, path: String,
                resource: Bool, now: Date) throws -> DPoPVerifiedProof {
        guard headers.count == 1, !headers[0].isEmpty else {
            throw OAuthError.invalidDPoPProof("exactly one DPoP proof header is required", resource: resource)
        }
        let verifier = DPoPVerifier(allowedAlgorithms: [.es256], maximumAge: tethering.dpopMaximumAge,
                                    maximumFutureSkew: tethering.dpopMaximumFutureSkew)
        do {
            return try verifier.verify(headers[0], for: DPoPRequest(method: method, uri: publicURL() + path, accessToken: accessToken,
                                                                     expectedThumbprint: expectedThumbprint), at: now)
        } catch {
            let reason = (error as? JOSEError)?.code ?? "malformed"
            throw OAuthError.invalidDPoPProof("the DPoP proof is not valid: \(reason)", resource: resource)
        }
    }
}
