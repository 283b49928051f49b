import Foundation

/// The body of `POST /v1/holder/instances/{instanceId}/keys/rotate` (docs/server-api.md "API"): the new key, attested like a
/// registration over a fresh challenge (`BindingNonce(challenge, publicKey)` with the *new* key), in a request
/// whose license token and DPoP proof belong to the **old** key. The instance id is kept; the old key and its
/// tokens stop working at once.
public struct KeyRotationRequest: Codable, Sendable, Hashable {
    public var challenge: String
    /// The new key, `InstancePublicKey.encoded`.
    public var publicKey: String
    public var attestation: AttestationValue?
    public var assertion: String?
    public var keyId: String?

    public init(challenge: String, publicKey: String, attestation: AttestationValue? = nil, assertion: String? = nil,
                keyId: String? = nil) {
        self.challenge = challenge
        self.publicKey = publicKey
        self.attestation = attestation
        self.assertion = assertion
        self.keyId = keyId
    }

    /// The decoded platform attestation, when present.
    public func platformAttestation() throws(ProtocolError) -> PlatformAttestationPayload? {
        guard let attestation else { return nil }
        return try PlatformAttestationPayload(attestation: attestation, keyId: keyId)
    }
}
