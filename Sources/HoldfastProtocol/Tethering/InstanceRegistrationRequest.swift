/// Registration protocol step 5 (docs/server-api.md "Registration wire format"): the body of `POST /v1/holder/applications/{applicationId}/instances`.
///
/// Exactly one of `attestation` (with `keyId` for App Attest) and `assertion` is present. See
/// `InstancePublicKey`, `BindingNonce`, `InstanceAssertion` and `PlatformAttestationPayload` for the formats.
public struct InstanceRegistrationRequest: Codable, Sendable, Hashable {
    /// The challenge string, exactly as `ChallengeResponse.challenge` returned it.
    public var challenge: String
    /// `InstancePublicKey.encoded`.
    public var publicKey: String
    public var attestation: AttestationValue?
    public var assertion: String?
    public var keyId: String?
    public var deviceDetails: DeviceDetails
    public var sdkDetails: SDKDetails
    public var externalReferenceId: String?
    /// Android: a Play Integrity token over the binding nonce, as the device received it (docs/server-api.md "Play Integrity").
    public var integrityToken: String?

    public init(challenge: String, publicKey: String, attestation: AttestationValue? = nil, assertion: String? = nil,
                keyId: String? = nil, deviceDetails: DeviceDetails, sdkDetails: SDKDetails,
                externalReferenceId: String? = nil, integrityToken: String? = nil) {
        self.challenge = challenge
        self.publicKey = publicKey
        self.attestation = attestation
        self.assertion = assertion
        self.keyId = keyId
        self.deviceDetails = deviceDetails
        self.sdkDetails = sdkDetails
        self.externalReferenceId = externalReferenceId
        self.integrityToken = integrityToken
    }

    /// The decoded platform attestation, when present.
    public func platformAttestation() throws(ProtocolError) -> PlatformAttestationPayload? {
        guard let attestation else { return nil }
        return try PlatformAttestationPayload(attestation: attestation, keyId: keyId)
    }
}
