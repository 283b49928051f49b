import Foundation
import JOSE

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
    public var accessProtection: SCAAccessProtection
    public var maxPinAttempts: Int

    public init(walletId: String, userId: String, accessProtection: SCAAccessProtection, maxPinAttempts: Int) {
        self.walletId = walletId
        self.userId = userId
        self.accessProtection = accessProtection
        self.maxPinAttempts = maxPinAttempts
    }
}

/// `POST /v1/sca/wallets/{walletId}/pin-attempts` (README "SCA wallet"): a PIN the customer entered on the device,
/// right or wrong; the PIN itself never leaves the device.
public struct SCAPinAttemptReport: Codable, Sendable, Hashable {
    public var outcome: SCAPinAttemptOutcome

    public init(outcome: SCAPinAttemptOutcome) { self.outcome = outcome }
}

public struct SCAPinAttemptResult: Codable, Sendable, Hashable {
    public var pinAttemptsLeft: Int
    /// `active`, or `locked` once no attempt is left.
    public var state: SCAWalletState

    public init(pinAttemptsLeft: Int, state: SCAWalletState) {
        self.pinAttemptsLeft = pinAttemptsLeft
        self.state = state
    }
}

/// One event of a wallet's feed (`GET /v1/sca/wallets/{walletId}/events`, server-sent events: `id` is this `id`,
/// `event` this `type`, `data` this object as JSON): `loaded`, `locked {reason}`, `unlocked`, `credentialsReset`,
/// `countersUpdated {pinAttemptsLeft}`, `settingsUpdated {accessProtection?, maxPinAttempts?}`, `productsUpdated
/// {…the bank's data}`, `deviceEligibilityLost {reason}`, `appSunsetScheduled {minimumVersion, sunsetAt}`, `deleted`.
public struct SCAEvent: Codable, Sendable, Hashable {
    public var id: Int64
    public var type: SCAEventType
    public var data: JSONValue
    public var createdAt: Date

    public init(id: Int64, type: SCAEventType, data: JSONValue, createdAt: Date) {
        self.id = id
        self.type = type
        self.data = data
        self.createdAt = createdAt
    }
}
