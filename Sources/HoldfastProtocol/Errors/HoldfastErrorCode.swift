/// The stable machine codes: the `code` of every `ProblemDetails` the tenant writes and of the SDK's errors
/// (docs/server-api.md "Error codes", docs/sdk.md "Error codes"; DESIGN.md §4 "Errors"). The server writes only `serverCodes`; the SDK adds `sdkCodes`.
///
/// A string-backed struct rather than an enum, so that a code a newer server introduces still decodes (and can be
/// shown and logged) by an older SDK. Compare with the static members: `error.code == .invalidChallenge`.
public struct HoldfastErrorCode: RawRepresentable, Codable, Sendable, Hashable, ExpressibleByStringLiteral,
    CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    /// True for the codes this version knows.
    public var isKnown: Bool { Self.serverCodes.contains(self) || Self.sdkCodes.contains(self) }

    // MARK: server codes: tethering
    /// The challenge's lifetime has passed.
    public static let challengeExpired: Self = "CHALLENGE_EXPIRED"
    /// The challenge is unknown or was already used (single use, even under concurrency).
    public static let invalidChallenge: Self = "INVALID_CHALLENGE"
    /// The attestation or assertion is malformed or does not verify.
    public static let invalidAttestation: Self = "INVALID_ATTESTATION"
    /// The application requires platform attestation and the request has none.
    public static let attestationRequired: Self = "ATTESTATION_REQUIRED"
    /// The platform attestation is well formed but refused (wrong app, counter, environment …); may be transient.
    public static let attestationFailed: Self = "ATTESTATION_FAILED"
    public static let applicationNotFound: Self = "APPLICATION_NOT_FOUND"
    public static let instanceNotFound: Self = "INSTANCE_NOT_FOUND"
    /// The instance was deleted or rejected: every token and proof of it is refused.
    public static let instanceRevoked: Self = "INSTANCE_REVOKED"
    /// The instance waits for an admin's approval.
    public static let instancePending: Self = "INSTANCE_PENDING"
    public static let invalidDPoPProof: Self = "INVALID_DPOP_PROOF"
    /// RFC 9449 §8 `use_dpop_nonce`: retry with the `DPoP-Nonce` the response carries.
    public static let useDPoPNonce: Self = "USE_DPOP_NONCE"
    public static let invalidToken: Self = "INVALID_TOKEN"
    /// The license token has expired (server) / the stored license has expired and no renewal succeeded (SDK).
    public static let licenseExpired: Self = "LICENSE_EXPIRED"
    /// `X-Holdfast-Dev-Mode` against an application that does not allow it.
    public static let devModeNotAllowed: Self = "DEV_MODE_NOT_ALLOWED"
    /// Another holder application already has this name.
    public static let applicationNameTaken: Self = "APPLICATION_NAME_TAKEN"
    /// An SCA activation code that is unknown, used already or expired (docs/server-api.md "SCA wallet (back end)").
    public static let invalidActivationCode: Self = "INVALID_ACTIVATION_CODE"
    /// An SCA wallet's activation refused after too many wrong codes for it; the back end makes the wallet again
    /// (a new code) (docs/server-api.md "SCA wallet (back end)").
    public static let activationLocked: Self = "ACTIVATION_LOCKED"
    /// This source (an IPv4 address, an IPv6 /64) gave 20 wrong SCA activation codes this hour: its activations are
    /// refused until the hour ends (`Retry-After`); other sources are not affected (docs/server-api.md "SCA wallet (back end)").
    public static let activationAttemptsExhausted: Self = "ACTIVATION_ATTEMPTS_EXHAUSTED"

    // MARK: server codes: admin API
    /// The admin API key is missing, malformed, unknown or revoked (`WWW-Authenticate: Bearer`).
    public static let unauthenticated: Self = "UNAUTHENTICATED"
    public static let adminKeyNotFound: Self = "ADMIN_KEY_NOT_FOUND"
    /// The last active admin key cannot revoke itself.
    public static let lastAdminKey: Self = "LAST_ADMIN_KEY"
    /// A valid key whose scope does not allow this route (a `verifier` key on the admin API); `403` with
    /// `WWW-Authenticate: Bearer error="insufficient_scope"` (RFC 6750 §3.1).
    public static let insufficientScope: Self = "INSUFFICIENT_SCOPE"

    // MARK: server codes: HTTP (RFC 9110 statuses with a code of their own)
    /// A request the server cannot read (a malformed path parameter, a header it cannot use).
    public static let badRequest: Self = "BAD_REQUEST"
    /// The body is not JSON.
    public static let invalidJSON: Self = "INVALID_JSON"
    /// The body is JSON but a field is missing, of the wrong type or out of range (`errors` names it).
    public static let validationFailed: Self = "VALIDATION_FAILED"
    public static let forbidden: Self = "FORBIDDEN"
    public static let notFound: Self = "NOT_FOUND"
    /// The path exists for other methods (`Allow` lists them).
    public static let methodNotAllowed: Self = "METHOD_NOT_ALLOWED"
    public static let conflict: Self = "CONFLICT"
    public static let payloadTooLarge: Self = "PAYLOAD_TOO_LARGE"
    public static let unsupportedMediaType: Self = "UNSUPPORTED_MEDIA_TYPE"
    public static let rateLimited: Self = "RATE_LIMITED"
    /// The request head or body did not arrive in time (408; the connection is closed).
    public static let requestTimeout: Self = "REQUEST_TIMEOUT"
    public static let internalError: Self = "INTERNAL_ERROR"
    /// The database cannot be reached now; retry later.
    public static let databaseUnavailable: Self = "DATABASE_UNAVAILABLE"
    public static let serviceUnavailable: Self = "SERVICE_UNAVAILABLE"
    /// The ephemeral store refuses new entries (its part for this purpose is full); retry later.
    public static let ephemeralStoreFull: Self = "EPHEMERAL_STORE_FULL"
    /// The ephemeral store (Redis) cannot be reached now; retry later.
    public static let ephemeralStoreUnavailable: Self = "EPHEMERAL_STORE_UNAVAILABLE"
    /// A single-use item (registration challenge, DPoP proof) issued before the ephemeral store's epoch: the store
    /// lost its memory since (docs/operations.md "A store that lost its memory"), so it may have been spent; get a fresh one.
    public static let issuedBeforeStoreReset: Self = "ISSUED_BEFORE_STORE_RESET"

    // MARK: SDK-only codes
    /// The tenant could not be reached, or answered with a 5xx after the bounded retries.
    public static let networkError: Self = "NETWORK_ERROR"
    /// The platform cannot attest keys and the fallback is not allowed.
    public static let attestationUnavailable: Self = "ATTESTATION_UNAVAILABLE"
    /// Another registration of this application is running.
    public static let registrationInProgress: Self = "REGISTRATION_IN_PROGRESS"
    /// `initialize(platformConfiguration:)` was not called: tethering is unavailable.
    public static let notConfigured: Self = "NOT_CONFIGURED"
    /// The issuer requires client attestation (a wallet attestation) and this SDK has none to give: it was
    /// initialized without a platform configuration (docs/sdk.md "Holder: tethering is optional").
    public static let walletAttestationUnavailable: Self = "WALLET_ATTESTATION_UNAVAILABLE"
    /// The secure store cannot be read now (locked device); nothing was assumed about its contents.
    public static let secureStorageUnavailable: Self = "SECURE_STORAGE_UNAVAILABLE"
    /// The secure store's contents are damaged.
    public static let secureStorageCorrupted: Self = "SECURE_STORAGE_CORRUPTED"
    /// The secure area (key store) failed.
    public static let secureAreaUnavailable: Self = "SECURE_AREA_UNAVAILABLE"
    /// The operation needs a registered instance.
    public static let notRegistered: Self = "NOT_REGISTERED"
    /// The server answered something that does not follow the protocol.
    public static let invalidResponse: Self = "INVALID_RESPONSE"
    /// A credential offer that is not an OpenID4VCI 1.0 offer this SDK can claim (malformed, or without a
    /// pre-authorized code grant).
    public static let credentialOfferInvalid: Self = "CREDENTIAL_OFFER_INVALID"
    /// The credential issuer's or its authorization server's metadata is missing, malformed or inconsistent.
    public static let issuerMetadataInvalid: Self = "ISSUER_METADATA_INVALID"
    /// The issuer refused a request with an OAuth / OpenID4VCI error (`HoldfastError.issuerError` names it).
    public static let issuerError: Self = "ISSUER_ERROR"
    /// The offer needs a transaction code and none was given.
    public static let transactionCodeRequired: Self = "TRANSACTION_CODE_REQUIRED"
    /// The credential's document signer does not chain to a trusted issuer certificate.
    public static let untrustedIssuer: Self = "UNTRUSTED_ISSUER"
    /// The issued credential failed verification (signature, digests, docType, validity or device key).
    public static let credentialInvalid: Self = "CREDENTIAL_INVALID"
    /// No stored credential (or trusted issuer certificate) has that id.
    public static let credentialNotFound: Self = "CREDENTIAL_NOT_FOUND"
    /// The verifier's request object does not chain to a trusted verifier certificate, and (when allowed) its
    /// DNS name does not vouch for it either.
    public static let verifierUntrusted: Self = "VERIFIER_UNTRUSTED"
    /// The request object's signature does not verify with its `x5c` leaf.
    public static let requestSignatureInvalid: Self = "REQUEST_SIGNATURE_INVALID"
    /// The request's `client_id` does not match the certificate it is signed with.
    public static let clientIdMismatch: Self = "CLIENT_ID_MISMATCH"
    /// The request object has expired (or is not valid yet).
    public static let requestExpired: Self = "REQUEST_EXPIRED"
    /// The verifier has no open session behind the request's `request_uri` (it answered `404`): the session was
    /// answered already, has expired, or never existed.
    public static let verifierSessionClosed: Self = "VERIFIER_SESSION_CLOSED"
    /// The authorization request or its request object is malformed.
    public static let requestInvalid: Self = "REQUEST_INVALID"
    /// The request asks for something this SDK does not do (a response mode, a client id prefix, a query
    /// without an mso_mdoc credential).
    public static let requestUnsupported: Self = "REQUEST_UNSUPPORTED"
    /// A signed Digital Credentials API request whose `expected_origins` does not hold the origin the platform reports
    /// for the calling page (OpenID4VP 1.0 Appendix A.2): it was made for another website.
    public static let originNotExpected: Self = "ORIGIN_NOT_EXPECTED"

    // MARK: SDK codes: the SCA wallet (docs/sdk.md "SCA wallet (device)")
    /// No wallet is provisioned on this device (or it was deleted).
    public static let walletNotProvisioned: Self = "WALLET_NOT_PROVISIONED"
    /// A wallet is provisioned already: `provision(activationCode:)` runs once per wallet.
    public static let walletAlreadyProvisioned: Self = "WALLET_ALREADY_PROVISIONED"
    /// The wallet is locked (by the back end, or after the last wrong PIN) until the back end unlocks it.
    public static let lockedWallet: Self = "WALLET_LOCKED"
    /// The back end deleted the wallet.
    public static let deletedWallet: Self = "WALLET_DELETED"
    /// The `Wallet` handle belongs to a connection that ended (`disconnect()`, `logout()`, `clean()`).
    public static let walletDisconnected: Self = "WALLET_DISCONNECTED"
    /// The PIN is wrong; `HoldfastError.message` says how many attempts are left.
    public static let wrongCredentials: Self = "WRONG_CREDENTIALS"
    /// The wallet needs credentials first (new ones after provisioning or a reset, the current ones after a logout).
    public static let credentialsRequired: Self = "CREDENTIALS_REQUIRED"
    /// The signature asks for a pattern this wallet or device cannot give (biometry on a PIN wallet …).
    public static let patternUnavailable: Self = "PATTERN_UNAVAILABLE"
    /// The platform did not verify the user (cancelled, not recognised, locked out, not enrolled).
    public static let userVerificationFailed: Self = "USER_VERIFICATION_FAILED"
    /// The device lost its eligibility (`deviceEligibilityLost`, or its integrity check failed before a signature):
    /// the wallet no longer signs (docs/sdk.md "SCA wallet (device)").
    public static let deviceNotEligible: Self = "DEVICE_NOT_ELIGIBLE"
    /// The app's version is past its sunset date (`appSunsetScheduled`): the wallet no longer signs until the app is
    /// updated (docs/sdk.md "SCA wallet (device)").
    public static let appSunsetPassed: Self = "APP_SUNSET"

    /// Every code the server of this version writes (a test in the server checks that it writes no other and
    /// that each is written somewhere; one in the SDK that it maps each).
    public static let serverCodes: Set<Self> = [
        .challengeExpired, .invalidChallenge, .invalidAttestation, .attestationRequired, .attestationFailed,
        .applicationNotFound, .instanceNotFound, .instanceRevoked, .instancePending, .invalidDPoPProof, .useDPoPNonce,
        .invalidToken, .licenseExpired, .devModeNotAllowed, .applicationNameTaken, .invalidActivationCode,
        .activationLocked, .activationAttemptsExhausted,
        .unauthenticated, .adminKeyNotFound, .lastAdminKey, .insufficientScope,
        .badRequest, .invalidJSON, .validationFailed, .forbidden, .notFound, .methodNotAllowed, .conflict,
        .payloadTooLarge, .unsupportedMediaType, .rateLimited, .internalError, .databaseUnavailable, .serviceUnavailable,
        .ephemeralStoreFull, .ephemeralStoreUnavailable, .requestTimeout, .issuedBeforeStoreReset,
    ]

    /// Every SDK-only code of this version.
    public static let sdkCodes: Set<Self> = [
        .networkError, .attestationUnavailable, .registrationInProgress, .notConfigured, .walletAttestationUnavailable,
        .secureStorageUnavailable,
        .secureStorageCorrupted, .secureAreaUnavailable, .notRegistered, .invalidResponse,
        .credentialOfferInvalid, .issuerMetadataInvalid, .issuerError, .transactionCodeRequired, .untrustedIssuer,
        .credentialInvalid, .credentialNotFound, .verifierUntrusted, .requestSignatureInvalid, .clientIdMismatch,
        .requestExpired, .requestInvalid, .requestUnsupported, .verifierSessionClosed, .originNotExpected,
        .walletNotProvisioned, .walletAlreadyProvisioned, .lockedWallet, .deletedWallet, .walletDisconnected, .wrongCredentials,
        .credentialsRequired, .patternUnavailable, .userVerificationFailed, .deviceNotEligible, .appSunsetPassed,
    ]
}
