import HoldfastProtocol
import Hummingbird

/// Why an issuance admin request failed (docs/server-api.md "Credentials"); codes are `HoldfastErrorCode`s (STYLE habit 5). What
/// a wallet sends to the OpenID4VCI endpoints is refused in OAuth's own shape (`OAuthError`), not here.
public enum IssuanceError: Error, Sendable, Equatable, ProblemConvertible {
    case configurationExists(id: String)
    case configurationNotFound(id: String)
    case walletProviderExists(issuer: String)
    case walletProviderNotFound(id: String)
    case issuedCredentialNotFound(id: String)
    /// The credential was issued without a status list entry, so its status cannot change.
    case credentialNotRevocable
    /// The credential is revoked, which is final.
    case credentialRevoked

    public var problemStatus: HTTPResponse.Status {
        switch self {
        case .configurationNotFound, .walletProviderNotFound, .issuedCredentialNotFound: .notFound
        case .configurationExists, .walletProviderExists, .credentialNotRevocable, .credentialRevoked: .conflict
        }
    }

    public var problemCode: HoldfastErrorCode {
        switch self {
        case .configurationNotFound, .walletProviderNotFound, .issuedCredentialNotFound: .notFound
        case .configurationExists, .walletProviderExists, .credentialNotRevocable, .credentialRevoked: .conflict
        }
    }

    public var problemTitle: String {
        switch self {
        case .configurationExists: "Configuration exists"
        case .configurationNotFound: "Configuration not found"
        case .walletProviderExists: "Wallet provider exists"
        case .walletProviderNotFound: "Wallet provider not found"
        case .issuedCredentialNotFound: "Credential not found"
        case .credentialNotRevocable: "Not revocable"
        case .credentialRevoked: "Revoked"
        }
    }

    public var problemDetail: String? {
        switch self {
        case .configurationExists(let id): "a credential configuration with id \(id) exists"
        case .configurationNotFound(let id): "no credential configuration \(id.prefix(CredentialConfigurationService.maximumIDLength))"
        case .walletProviderExists(let issuer): "a wallet provider with issuer \(issuer.prefix(200)) exists"
        case .walletProviderNotFound(let id): "no wallet provider \(id.prefix(64))"
        case .issuedCredentialNotFound(let id): "no issued credential \(id.prefix(64))"
        case .credentialNotRevocable: "the credential was issued without a status list entry"
        case .credentialRevoked: "the credential is revoked; revocation is final"
        }
    }
}

extension IssuanceError: CustomStringConvertible {
    public var description: String { "\(problemCode.rawValue) (\(problemStatus.code)): \(problemDetail ?? problemTitle)" }
}
