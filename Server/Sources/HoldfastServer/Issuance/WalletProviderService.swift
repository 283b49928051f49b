import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE

/// Wallet providers besides this tenant whose client attestations the token endpoint accepts (docs/server-api.md
/// "Credentials"): an admin adds each with the `iss` its attestations carry and the public keys that sign them.
struct WalletProviderService: Sendable {
    static let maximumKeys = 20

    let store: IssuanceStore
    /// Draws the providers' ids.
    let random: any RandomSource
    let publicURL: @Sendable () -> String

    func create(_ request: TrustedWalletProvider, now: Date) async throws -> TrustedWalletProvider {
        var provider = try validated(request)
        provider.id = random.identifier()
        guard let stored = try await store.insertWalletProvider(provider, createdAt: now) else {
            throw IssuanceError.walletProviderExists(issuer: provider.issuer)
        }
        return stored
    }

    func list() async throws -> TrustedWalletProviderList {
        TrustedWalletProviderList(data: try await store.walletProviders())
    }

    func delete(id: String) async throws {
        guard UUID(uuidString: id) != nil, try await store.deleteWalletProvider(id: id) else {
            throw IssuanceError.walletProviderNotFound(id: id)
        }
    }

    /// The provider whose attestations carry `iss`, if an admin trusts one.
    func provider(issuer: String) async throws -> TrustedWalletProvider? {
        guard issuer.utf8.count <= 2_048 else { return nil }
        return try await store.walletProvider(issuer: issuer)
    }

    private func validated(_ request: TrustedWalletProvider) throws -> TrustedWalletProvider {
        var errors: [ProblemDetails.FieldError] = []
        if request.name.isEmpty || request.name.unicodeScalars.count > 100 {
            errors.append(.init(field: "name", code: ProblemDetails.FieldError.invalidLength, detail: "1 to 100 characters"))
        }
        if request.issuer.isEmpty || request.issuer.unicodeScalars.count > 2_048 || !CredentialConfigurationService.hasScheme(request.issuer) {
            errors.append(.init(field: "issuer", code: ProblemDetails.FieldError.invalidValue,
                                detail: "the attestations' iss: an absolute URI of at most 2,048 characters"))
        } else if request.issuer == publicURL() {
            errors.append(.init(field: "issuer", code: ProblemDetails.FieldError.invalidValue,
                                detail: "this tenant's own attestations are always trusted"))
        }
        if request.jwks.keys.isEmpty || request.jwks.keys.count > Self.maximumKeys {
            errors.append(.init(field: "jwks.keys", code: ProblemDetails.FieldError.invalidLength,
                                detail: "1 to \(Self.maximumKeys) keys"))
        }
        for (index, key) in request.jwks.keys.enumerated()
        where key.hasPrivateKey || key.kty.known != .ec || (try? JWSVerificationKey(jwk: key)) == nil {
            errors.append(.init(field: "jwks.keys[\(index)]", code: ProblemDetails.FieldError.invalidValue,
                                detail: "a public EC key (P-256 or P-384)"))
        }
        guard errors.isEmpty else { throw ProblemError.validation(errors) }
        var provider = request
        provider.id = nil
        provider.createdAt = nil
        provider.jwks = JWKSet(keys: request.jwks.keys.map(\.publicKey))
        return provider
    }
}
