import Foundation
import JOSE

/// `POST /v1/sca/activations` (docs/server-api.md "SCA wallet (back end)"): the device turns an activation code into its wallet, registering
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

/// `POST /v1/sca/wallets/{walletId}/pin-attempts` (docs/server-api.md "SCA wallet (back end)"; docs/DESIGN.md "The SCA wallet's PIN"): a PIN
/// the customer entered, as the device's PIN secret — derived from the PIN with scrypt and a salt only the device
/// holds, then keyed (`HMAC`); never the PIN. Only the tenant can tell a right secret from a wrong one, and it counts the
/// wrong ones.
public struct SCAPinAttemptRequest: Codable, Sendable, Hashable {
    /// base64url (no padding) of the 32-byte PIN secret.
    public var pinSecret: String

    public init(pinSecret: String) { self.pinSecret = pinSecret }
}

/// The tenant's verdict on a PIN secret (`…/pin-attempts`) or a credentials enrolment (`PUT …/credentials`): on
/// `success`, `keyShare` — the tenant's half of the key that unseals the wallet's PIN key on the device.
public struct SCAPinAttemptResult: Codable, Sendable, Hashable {
    public var outcome: SCAPinAttemptOutcome
    public var pinAttemptsLeft: Int
    /// `active`, or `locked` once no attempt is left.
    public var state: SCAWalletState
    /// base64url (no padding), 32 bytes; only on `success` of a wallet with a PIN.
    public var keyShare: String?

    public init(outcome: SCAPinAttemptOutcome, pinAttemptsLeft: Int, state: SCAWalletState, keyShare: String? = nil) {
        self.outcome = outcome
        self.pinAttemptsLeft = pinAttemptsLeft
        self.state = state
        self.keyShare = keyShare
    }
}

/// `PUT /v1/sca/wallets/{walletId}/credentials` (docs/server-api.md "SCA wallet (back end)"): the customer's credentials, set on the device
/// and enrolled with the tenant — for a wallet that allows the PIN, the PIN secret, the key share (32 random bytes the
/// device made, sealed the PIN key with and then forgot: the tenant releases it after each right PIN) and the public
/// half of the PIN key; for one that allows biometry, the public half of the biometry key (required for `biometric`,
/// optional for `pinOrBiometric` on a device without biometry). Keys are `InstancePublicKey.encoded`, secrets
/// base64url. When the wallet has a PIN already, `currentPinSecret` must be its PIN (a wrong one counts as an
/// attempt); a biometric wallet's credentials are set once, and again only after the back end reset them.
public struct SCACredentialsEnrolment: Codable, Sendable, Hashable {
    public var currentPinSecret: String?
    public var pinSecret: String?
    public var keyShare: String?
    public var pinKey: String?
    public var biometryKey: String?

    public init(currentPinSecret: String? = nil, pinSecret: String? = nil, keyShare: String? = nil, pinKey: String? = nil, biometryKey: String? = nil) {
        self.currentPinSecret = currentPinSecret
        self.pinSecret = pinSecret
        self.keyShare = keyShare
        self.pinKey = pinKey
        self.biometryKey = biometryKey
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
