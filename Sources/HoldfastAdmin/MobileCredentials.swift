import Foundation

/// One item of `GET /v1/credentials/mobile/iacas` (README "API"): an IACA certificate of the tenant that verifiers
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

/// `PUT /v1/credentials/mobile/status-list-settings` (README "Credentials"): the `ttl` of every status list token
/// (how long a verifier may keep it before fetching again) and its lifetime (`exp` − `iat`), in seconds.
public struct StatusListSettings: Codable, Sendable, Hashable {
    public var ttlSeconds: Int64
    public var expSeconds: Int64

    public init(ttlSeconds: Int64, expSeconds: Int64) {
        self.ttlSeconds = ttlSeconds
        self.expSeconds = expSeconds
    }
}
