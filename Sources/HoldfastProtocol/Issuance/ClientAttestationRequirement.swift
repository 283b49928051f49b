/// Whether an issuer demands OAuth client attestation (a wallet attestation, draft-ietf-oauth-attestation-based-
/// client-auth) at its token endpoint for a credential configuration (docs/server-api.md "Credentials"): the configuration's
/// `clientAttestation`, `required` by default. With `optional` a wallet whose SDK is not tethered may claim it
/// (docs/sdk.md "Holder: tethering is optional"); a client attestation that is sent is checked all the same.
public struct ClientAttestationRequirement: WireValueSet {
    /// The values this version names (openapi.json lists the same): switch over `known` to decide on one.
    public enum Known: String, CaseIterable, Sendable {
        case required, optional
    }

    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let required = Self(.required)
    public static let optional = Self(.optional)

    /// Whether a client without attestation may use the configuration: only when it is `optional`; a requirement this
    /// version does not name is kept as `required`, the default.
    public var waivesAttestation: Bool {
        switch known {
        case .optional?: true
        case .required?, nil: false
        }
    }
}
