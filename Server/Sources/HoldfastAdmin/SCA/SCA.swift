import Foundation
import HoldfastProtocol
import JOSE

// MARK: SCA wallets (docs/server-api.md "SCA wallet (back end)")

/// How a wallet is protected: `pin` (6 to 8 digits), `biometric`, `pinOrBiometric`, or `none` (possession of the device alone);
/// `maxPinAttempts` wrong PINs in a row lock it (default 3).
public struct SCAWalletSettings: Codable, Sendable, Hashable {
    public var accessProtection: SCAAccessProtection?
    public var maxPinAttempts: Int?

    public init(accessProtection: SCAAccessProtection? = nil, maxPinAttempts: Int? = nil) {
        self.accessProtection = accessProtection
        self.maxPinAttempts = maxPinAttempts
    }
}

/// `POST /v1/sca/wallets`: a wallet for `userId` (the bank's own reference) in the holder application
/// `applicationId`, whose attestation settings apply to the wallet key.
public struct SCAWalletCreateRequest: Codable, Sendable, Hashable {
    public var applicationId: String
    public var userId: String
    public var settings: SCAWalletSettings?

    public init(applicationId: String, userId: String, settings: SCAWalletSettings? = nil) {
        self.applicationId = applicationId
        self.userId = userId
        self.settings = settings
    }
}

/// The answer to `POST /v1/sca/wallets`: the activation code is shown once, used once, and expires.
public struct SCAWalletCreated: Codable, Sendable, Hashable {
    public var walletId: String
    public var activationCode: String
    public var activationExpiresAt: Date

    public init(walletId: String, activationCode: String, activationExpiresAt: Date) {
        self.walletId = walletId
        self.activationCode = activationCode
        self.activationExpiresAt = activationExpiresAt
    }
}

/// A wallet as the admin API shows it.
public struct SCAWallet: Codable, Sendable, Hashable {
    public struct Device: Codable, Sendable, Hashable {
        public var model: String?
        public var appVersion: String?

        public init(model: String?, appVersion: String?) {
            self.model = model
            self.appVersion = appVersion
        }
    }

    public var id: String
    public var applicationId: String
    public var userId: String
    public var state: SCAWalletState
    public var accessProtection: SCAAccessProtection
    public var maxPinAttempts: Int
    public var pinAttemptsLeft: Int
    public var publicKeyJwk: JSONValue?
    public var lockReason: SCALockReason?
    public var createdAt: Date
    public var activatedAt: Date?
    public var device: Device?

    public init(id: String, applicationId: String, userId: String, state: SCAWalletState, accessProtection: SCAAccessProtection, maxPinAttempts: Int,
                pinAttemptsLeft: Int, publicKeyJwk: JSONValue?, lockReason: SCALockReason?, createdAt: Date, activatedAt: Date?,
                device: Device?) {
        self.id = id
        self.applicationId = applicationId
        self.userId = userId
        self.state = state
        self.accessProtection = accessProtection
        self.maxPinAttempts = maxPinAttempts
        self.pinAttemptsLeft = pinAttemptsLeft
        self.publicKeyJwk = publicKeyJwk
        self.lockReason = lockReason
        self.createdAt = createdAt
        self.activatedAt = activatedAt
        self.device = device
    }
}

public struct SCAWalletList: Codable, Sendable, Hashable {
    public var data: [SCAWallet]

    public init(data: [SCAWallet]) { self.data = data }
}

/// `POST /v1/sca/wallets/{walletId}/products-updated`: the customer's products changed; `data` (a JSON object of the
/// bank's own, at most 4 KiB) goes to the device with the event.
public struct SCAProductsUpdated: Codable, Sendable, Hashable {
    public var data: JSONValue?

    public init(data: JSONValue? = nil) { self.data = data }
}

/// `PUT /v1/sca/wallets/{walletId}/lock`: `LOST_DEVICE`, `STOLEN_DEVICE`, `FRAUD_SUSPICION` or `OTHER`.
public struct SCAWalletLockRequest: Codable, Sendable, Hashable {
    public var reason: SCALockReason

    public init(reason: SCALockReason) { self.reason = reason }
}

/// `POST /v1/sca/proofs/verify`: the proof the bank received with a request, and that request.
public struct SCAProofVerifyRequest: Codable, Sendable, Hashable {
    public var proof: String
    public var method: String
    public var url: String
    public var body: JSONValue?

    public init(proof: String, method: String, url: String, body: JSONValue? = nil) {
        self.proof = proof
        self.method = method
        self.url = url
        self.body = body
    }
}

/// The verdict on a proof: `{valid: true, walletId, userId, pattern}` or `{valid: false, code, reason}`.
public struct SCAProofVerification: Codable, Sendable, Hashable {
    public var valid: Bool
    public var walletId: String?
    public var userId: String?
    public var pattern: SCAPattern?
    public var code: SCAProofFailureCode?
    public var reason: String?

    public init(valid: Bool, walletId: String? = nil, userId: String? = nil, pattern: SCAPattern? = nil,
                code: SCAProofFailureCode? = nil, reason: String? = nil) {
        self.valid = valid
        self.walletId = walletId
        self.userId = userId
        self.pattern = pattern
        self.code = code
        self.reason = reason
    }
}

/// Why a proof is not valid (`SCAProofVerification.code`, docs/server-api.md "SCA wallet (back end)"): a code namespace of its own, beside
/// `HoldfastErrorCode`. String-backed so that a code a newer tenant writes still decodes for an older bank client.
public struct SCAProofFailureCode: WireValueSet {
    /// The values this version names (openapi.json lists the same): switch over `known` to decide on one.
    public enum Known: String, CaseIterable, Sendable {
        case malformed = "PROOF_MALFORMED", walletNotFound = "WALLET_NOT_FOUND", walletNotActive = "WALLET_NOT_ACTIVE"
        case walletLocked = "WALLET_LOCKED", walletDeleted = "WALLET_DELETED", signatureInvalid = "SIGNATURE_INVALID"
        case deviceIneligible = "DEVICE_NOT_ELIGIBLE", appVersionSunset = "APP_SUNSET"
        case policyNotFound = "POLICY_NOT_FOUND", methodMismatch = "METHOD_MISMATCH"
        case payloadMismatch = "PAYLOAD_MISMATCH", patternInsufficient = "PATTERN_INSUFFICIENT"
        case expired = "PROOF_EXPIRED", replayed = "PROOF_REPLAYED"
        case issuedBeforeStoreReset = "ISSUED_BEFORE_STORE_RESET", fraudSuspicion = "FRAUD_SUSPICION"
    }

    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// Not a compact JWS of `typ` `sca-proof+jwt`, ES256, with `kid` and exactly the documented payload members.
    public static let malformed = Self(.malformed)
    public static let walletNotFound = Self(.walletNotFound)
    /// The wallet was made but never activated.
    public static let walletNotActive = Self(.walletNotActive)
    public static let walletLocked = Self(.walletLocked)
    public static let walletDeleted = Self(.walletDeleted)
    /// The signature does not verify with the wallet's registered key.
    public static let signatureInvalid = Self(.signatureInvalid)
    /// No signing policy covers the request's method and path.
    public static let policyNotFound = Self(.policyNotFound)
    /// The signed `method` is not the request's (a proof for one method presented with a request of another).
    public static let methodMismatch = Self(.methodMismatch)
    /// The signed `{url, body}` is not the one the policy makes of the request.
    public static let payloadMismatch = Self(.payloadMismatch)
    /// The proof's pattern is not one the policy accepts.
    public static let patternInsufficient = Self(.patternInsufficient)
    /// `iat` is too old, or in the future.
    public static let expired = Self(.expired)
    /// This proof (`jti`) was accepted before.
    public static let replayed = Self(.replayed)
    /// The proof's `iat` precedes the tenant's ephemeral store epoch: the store lost its memory since (docs/operations.md
    /// "A store that lost its memory"), so the proof may have been accepted and forgotten.
    public static let issuedBeforeStoreReset = Self(.issuedBeforeStoreReset)
    /// The wallet's device model is blocked, or its app version unsupported without a sunset date, by the tenant's
    /// eligibility rules now.
    public static let deviceIneligible = Self(.deviceIneligible)
    /// The wallet's app version is past the sunset date of a rule that covers it.
    public static let appVersionSunset = Self(.appVersionSunset)
    /// The proof's `counter` is not above the last accepted one: a second copy of the wallet signs. The wallet is
    /// locked with `FRAUD_SUSPICION` (event `locked`).
    public static let fraudSuspicion = Self(.fraudSuspicion)
}

/// A device found not eligible for an SCA wallet, as recorded under the reference it was given
/// (`GET /v1/sca/eligibility/denials/{reference}`): what the bank's support looks up when a customer quotes it.
public struct SCAEligibilityDenial: Codable, Sendable, Hashable {
    public var reference: String
    public var applicationId: String
    public var reason: SCAIneligibilityReason
    public var device: SCAWallet.Device
    public var signals: [String]
    public var createdAt: Date

    public init(reference: String, applicationId: String, reason: SCAIneligibilityReason, device: SCAWallet.Device, signals: [String], createdAt: Date) {
        self.reference = reference
        self.applicationId = applicationId
        self.reason = reason
        self.device = device
        self.signals = signals
        self.createdAt = createdAt
    }
}
