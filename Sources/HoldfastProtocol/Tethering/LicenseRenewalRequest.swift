import Foundation

/// The body of `POST /v1/holder/instances/{instanceId}/license` (docs/server-api.md "API", "licenses"), sent with the current
/// license token and a DPoP proof of the instance key.
///
/// Where the application requires attestation, the renewal carries fresh evidence over a fresh challenge (from
/// the application's challenge endpoint) and the instance's *current* key: the nonce is
/// `BindingNonce(challenge:, encodedPublicKey: <the instance's publicKey>)`, and either
/// - `appAttestAssertion`: base64url (no padding) of the CBOR App Attest assertion made with
///   `clientDataHash = nonce` (the server checks and stores its counter), or
/// - `attestation`: a fresh Android chain (`PlatformAttestationPayload.androidKeyAttestation`) whose
///   `attestationChallenge` is the nonce.
/// Otherwise the body is `{}` and the DPoP proof suffices.
///
/// The renewal endpoint (and only it) accepts a license token whose `exp` has passed — its signature, `sub`, `aud`
/// and `cnf.jkt` are still checked, and so is the instance's status — because the DPoP proof of the instance key is
/// what authenticates the device, and an app that was offline past `licenseExpiresAt` must be able to come back
/// (docs/server-api.md "API": `LICENSE_EXPIRED` until a renewal succeeds). A pending instance (no token yet) sends only the DPoP
/// proof, and is answered `INSTANCE_PENDING` until an admin approves it.
public struct LicenseRenewalRequest: Codable, Sendable, Hashable {
    public var challenge: String?
    public var appAttestAssertion: String?
    public var attestation: AttestationValue?

    public init(challenge: String? = nil, appAttestAssertion: String? = nil, attestation: AttestationValue? = nil) {
        self.challenge = challenge
        self.appAttestAssertion = appAttestAssertion
        self.attestation = attestation
    }
}
