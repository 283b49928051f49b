import Foundation

/// One item of `GET /v1/presentations/verifier-cas` (README "Verifier"): the CA of the tenant verifier's
/// request-signing certificates, which wallets add as a trusted verifier.
public struct VerifierCA: Codable, Sendable, Hashable {
    public var id: String
    public var certificatePem: String

    public init(id: String, certificatePem: String) {
        self.id = id
        self.certificatePem = certificatePem
    }
}

public struct VerifierCAList: Codable, Sendable, Hashable {
    public var data: [VerifierCA]

    public init(data: [VerifierCA]) { self.data = data }
}

/// `POST /v1/presentations/trusted-issuers` (README "Verifier"): an IACA the verifier trusts beside the tenant's
/// own. Only `certificatePem` is sent; the rest is answered.
public struct PresentationTrustedIssuer: Codable, Sendable, Hashable {
    public var id: String?
    public var certificatePem: String
    public var commonName: String?
    public var notBefore: Date?
    public var notAfter: Date?
    public var createdAt: Date?

    public init(id: String? = nil, certificatePem: String, commonName: String? = nil, notBefore: Date? = nil,
                notAfter: Date? = nil, createdAt: Date? = nil) {
        self.id = id
        self.certificatePem = certificatePem
        self.commonName = commonName
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.createdAt = createdAt
    }
}

public struct PresentationTrustedIssuerList: Codable, Sendable, Hashable {
    public var data: [PresentationTrustedIssuer]

    public init(data: [PresentationTrustedIssuer]) { self.data = data }
}
