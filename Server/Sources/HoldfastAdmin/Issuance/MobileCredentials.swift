import Foundation
import HoldfastProtocol
import JOSE
import OpenID4VCI

/// One item of `GET /v1/credentials/mobile/iacas` (docs/server-api.md "API"): an IACA certificate of the tenant that verifiers
/// should trust. `active` is the one issuing the current signers; the others still verify what they issued.
public struct MobileIACA: Codable, Sendable, Hashable {
    public var id: String
    public var certificatePem: String
    public var notBefore: Date
    public var notAfter: Date
    public var active: Bool

    public init(id: String, certificatePem: String, notBefore: Date, notAfter: Date, active: Bool) {
        self.id = id
        self.certificatePem = certificatePem
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.active = active
    }
}

/// `{data: [...]}`: a whole list, never paged.
public struct MobileIACAList: Codable, Sendable, Hashable {
    public var data: [MobileIACA]

    public init(data: [MobileIACA]) { self.data = data }
}

/// `PUT /v1/credentials/mobile/status-list-settings` (docs/server-api.md "Credentials"): the `ttl` of every status list token
/// (how long a verifier may keep it before fetching again) and its lifetime (`exp` − `iat`), in seconds.
public struct StatusListSettings: Codable, Sendable, Hashable {
    public var ttlSeconds: Int64
    public var expSeconds: Int64

    public init(ttlSeconds: Int64, expSeconds: Int64) {
        self.ttlSeconds = ttlSeconds
        self.expSeconds = expSeconds
    }
}

// MARK: credential configurations, offers and issued credentials (docs/server-api.md "Credentials")

/// `POST /v1/credentials/mobile/configurations`: an mDoc the tenant issues. `nameSpaces`, when given, lists every
/// element an offer may carry; `validForDays` defaults to 365 and `revocable` to true (the mDoc then carries a
/// status list reference); `clientAttestation` (`required` by default) says whether the token endpoint demands a
/// client attestation for it. `id` may be chosen (letters, digits, `.`, `_`, `-`); `createdAt` is the server's.
public struct CredentialConfiguration: Codable, Sendable, Hashable {
    public var id: String?
    public var docType: String
    public var nameSpaces: [String: [String]]?
    public var display: CredentialDisplay
    public var validForDays: Int?
    public var revocable: Bool?
    public var clientAttestation: ClientAttestationRequirement?
    public var createdAt: Date?

    public init(id: String? = nil, docType: String, nameSpaces: [String: [String]]? = nil, display: CredentialDisplay,
                validForDays: Int? = nil, revocable: Bool? = nil, clientAttestation: ClientAttestationRequirement? = nil,
                createdAt: Date? = nil) {
        self.id = id
        self.docType = docType
        self.nameSpaces = nameSpaces
        self.display = display
        self.validForDays = validForDays
        self.revocable = revocable
        self.clientAttestation = clientAttestation
        self.createdAt = createdAt
    }
}

/// `{data: [...]}`: every configuration, oldest first.
public struct CredentialConfigurationList: Codable, Sendable, Hashable {
    public var data: [CredentialConfiguration]

    public init(data: [CredentialConfiguration]) { self.data = data }
}

/// `POST /v1/credentials/mobile/offers`: an offer of one credential of `configurationId` with these claim values
/// (namespace → element → value). A value is plain JSON, or `{"$type": "full-date" | "tdate" | "bytes", "value": …}`
/// for CBOR tag 1004, tag 0 and a byte string (standard base64). With `txCode` the offer needs a transaction code
/// (OpenID4VCI 1.0 §4.1.1), made by the server and returned once.
public struct CredentialOfferRequest: Codable, Sendable, Hashable {
    public struct TxCode: Codable, Sendable, Hashable {
        /// Digits or characters of the code, 4 to 12 (default 6).
        public var length: Int?
        /// `numeric` (default) or `text` (OpenID4VCI 1.0 §4.1.1 `tx_code.input_mode`).
        public var inputMode: CredentialOffer.TransactionCode.InputMode?
        /// Shown by the wallet next to the input, at most 300 characters.
        public var description: String?

        public init(length: Int? = nil, inputMode: CredentialOffer.TransactionCode.InputMode? = nil, description: String? = nil) {
            self.length = length
            self.inputMode = inputMode
            self.description = description
        }
    }

    public var configurationId: String
    public var claims: [String: [String: JSONValue]]
    public var txCode: TxCode?
    /// How long the pre-authorized code may be redeemed, 60 to 2,592,000 seconds (default 86,400).
    public var expiresInSeconds: Int?

    public init(configurationId: String, claims: [String: [String: JSONValue]], txCode: TxCode? = nil,
                expiresInSeconds: Int? = nil) {
        self.configurationId = configurationId
        self.claims = claims
        self.txCode = txCode
        self.expiresInSeconds = expiresInSeconds
    }
}

/// `201` to `POST /v1/credentials/mobile/offers`: `offerUri` for the wallet (a QR code or a link) and, when the
/// offer has one, the transaction code for the user, to be sent by another channel; it is not shown again.
public struct CredentialOfferCreated: Codable, Sendable, Hashable {
    public var id: String
    public var offerUri: String
    public var txCode: String?
    public var expiresAt: Date

    public init(id: String, offerUri: String, txCode: String?, expiresAt: Date) {
        self.id = id
        self.offerUri = offerUri
        self.txCode = txCode
        self.expiresAt = expiresAt
    }
}

/// Where an issued credential's status is published: a status list token URI and the credential's index in it.
public struct CredentialStatusListReference: Codable, Sendable, Hashable {
    public var uri: String
    public var idx: Int

    public init(uri: String, idx: Int) {
        self.uri = uri
        self.idx = idx
    }
}

/// One item of `GET /v1/credentials/mobile`: an issued mDoc, without its claim values (the server does not keep
/// them). `statusList` is absent for a credential that is not revocable.
public struct IssuedCredential: Codable, Sendable, Hashable {
    public var id: String
    public var configurationId: String
    public var docType: String
    public var instanceId: String?
    public var status: IssuedCredentialStatus
    public var statusList: CredentialStatusListReference?
    public var issuedAt: Date
    public var validUntil: Date
    /// What the wallet last told the notification endpoint about this credential (OpenID4VCI 1.0 §11); absent until
    /// it does.
    public var walletNotification: WalletNotification?

    public init(id: String, configurationId: String, docType: String, instanceId: String?, status: IssuedCredentialStatus,
                statusList: CredentialStatusListReference?, issuedAt: Date, validUntil: Date,
                walletNotification: WalletNotification? = nil) {
        self.id = id
        self.configurationId = configurationId
        self.docType = docType
        self.instanceId = instanceId
        self.status = status
        self.statusList = statusList
        self.issuedAt = issuedAt
        self.validUntil = validUntil
        self.walletNotification = walletNotification
    }

    /// The wallet's last notification (docs/server-api.md "Credentials"): its `event`, when it arrived, and its description.
    public struct WalletNotification: Codable, Sendable, Hashable {
        public var event: WalletNotificationEvent
        public var at: Date
        public var description: String?

        public init(event: WalletNotificationEvent, at: Date, description: String? = nil) {
            self.event = event
            self.at = at
            self.description = description
        }
    }
}

/// The `event` of an OpenID4VCI 1.0 §11.1 notification, as `IssuedCredential.walletNotification` shows it. A
/// credential the wallet refused (`credential_failure`) or deleted (`credential_deleted`) is revoked by the tenant.
public struct WalletNotificationEvent: WireValueSet {
    /// The values this version names (openapi.json lists the same): switch over `known` to decide on one.
    public enum Known: String, CaseIterable, Sendable {
        case credentialAccepted = "credential_accepted", credentialFailure = "credential_failure", credentialDeleted = "credential_deleted"
    }

    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let credentialAccepted = Self(.credentialAccepted)
    public static let credentialFailure = Self(.credentialFailure)
    public static let credentialDeleted = Self(.credentialDeleted)
}

/// `{data, nextCursor}`: a page of issued credentials, oldest first.
public struct IssuedCredentialPage: Codable, Sendable, Hashable {
    public var data: [IssuedCredential]
    public var nextCursor: String?

    public init(data: [IssuedCredential], nextCursor: String?) {
        self.data = data
        self.nextCursor = nextCursor
    }
}

/// `POST /v1/credentials/mobile/{credentialId}/status`: `revoked` (final), `suspended` or `valid`.
public struct CredentialStatusChange: Codable, Sendable, Hashable {
    public var status: IssuedCredentialStatus

    public init(status: IssuedCredentialStatus) { self.status = status }
}

/// `POST /v1/credentials/mobile/wallet-providers` (docs/server-api.md "Credentials"): a wallet provider other than this tenant
/// whose client attestations (draft-ietf-oauth-attestation-based-client-auth) the token endpoint accepts — `issuer`
/// is the attestations' `iss`, `jwks` the public keys they are signed with.
public struct TrustedWalletProvider: Codable, Sendable, Hashable {
    public var id: String?
    public var name: String
    public var issuer: String
    public var jwks: JWKSet
    public var createdAt: Date?

    public init(id: String? = nil, name: String, issuer: String, jwks: JWKSet, createdAt: Date? = nil) {
        self.id = id
        self.name = name
        self.issuer = issuer
        self.jwks = jwks
        self.createdAt = createdAt
    }
}

/// `{data: [...]}`: every trusted wallet provider, oldest first.
public struct TrustedWalletProviderList: Codable, Sendable, Hashable {
    public var data: [TrustedWalletProvider]

    public init(data: [TrustedWalletProvider]) { self.data = data }
}
