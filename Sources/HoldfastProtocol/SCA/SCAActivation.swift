/// `POST /v1/sca/activations` (README "SCA wallet"): the device turns an activation code into its wallet, registering
/// the wallet key the way an instance registers its key — a challenge from `POST /v1/holder/applications/{applicationId}/challenges`,
/// the binding nonce over it and `publicKey`, and an attestation or an assertion over that nonce.
public struct SCAActivationRequest: Codable, Sendable, Hashable {
    public struct Device: Codable, Sendable, Hashable {
        public var model: String?
        public var appVersion: String?

        public init(model: String? = nil, appVersion: String? = nil) {
            self.model = model
            self.appVersion = appVersion
        }
    }

    public var activationCode: String
    public var challenge: String
    /// `InstancePublicKey.encoded` of the wallet key.
    public var publicKey: String
    public var attestation: AttestationValue?
    public var assertion: String?
    public var keyId: String?
    public var device: Device?

    public init(activationCode: String, challenge: String, publicKey: String, attestation: AttestationValue? = nil,
                assertion: String? = nil, keyId: String? = nil, device: Device? = nil) {
        self.activationCode = activationCode
        self.challenge = challenge
        self.publicKey = publicKey
        self.attestation = attestation
        self.assertion = assertion
        self.keyId = keyId
        self.device = device
    }
}

/// The activated wallet: its id (the `kid` of its proofs), the bank's user and how it is protected.
public struct SCAActivationResponse: Codable, Sendable, Hashable {
    public var walletId: String
    public var userId: String
    public var accessProtection: String
    public var maxPinAttempts: Int

    public init(walletId: String, userId: String, accessProtection: String, maxPinAttempts: Int) {
        self.walletId = walletId
        self.userId = userId
        self.accessProtection = accessProtection
        self.maxPinAttempts = maxPinAttempts
    }
}
