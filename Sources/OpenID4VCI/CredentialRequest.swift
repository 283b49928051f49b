import Foundation
import JOSE

/// OpenID4VCI 1.0 §8.2 — the credential request: which credential (`credential_identifier` or
/// `credential_configuration_id`) and the key proofs (`proofs`). Only the `jwt` proof type is modelled.
public struct CredentialRequest: Codable, Sendable, Hashable {
    public var credentialConfigurationId: String?
    public var credentialIdentifier: String?
    public var proofs: Proofs?
    /// The single `proof` of the drafts before 1.0, kept so that an issuer can refuse it by name.
    public var proof: JSONValue?

    public init(credentialConfigurationId: String? = nil, credentialIdentifier: String? = nil, proofs: Proofs? = nil,
                proof: JSONValue? = nil) {
        self.credentialConfigurationId = credentialConfigurationId
        self.credentialIdentifier = credentialIdentifier
        self.proofs = proofs
        self.proof = proof
    }

    enum CodingKeys: String, CodingKey {
        case credentialConfigurationId = "credential_configuration_id"
        case credentialIdentifier = "credential_identifier"
        case proofs
        case proof
    }

    /// §8.2 `proofs`: proof type → proofs; `jwt` proofs are compact JWSs (Appendix F.1, `KeyProof`).
    public struct Proofs: Codable, Sendable, Hashable {
        public var jwt: [String]?

        public init(jwt: [String]? = nil) { self.jwt = jwt }
    }

    public static func decode(_ data: Data) throws(OpenID4VCIError) -> CredentialRequest {
        try OpenID4VCIJSON.decode(CredentialRequest.self, from: data, what: "the credential request")
    }
}
