import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE
import SQLKit

/// Wallet providers besides this tenant whose client attestations the token endpoint accepts (README
/// "Credentials"): an admin adds each with the `iss` its attestations carry and the public keys that sign them.
struct WalletProviderService: Sendable {
    static let maximumKeys = 20

    let database: HoldfastDatabase
    let publicURL: @Sendable () -> String

    func create(_ request: TrustedWalletProvider, now: Date) async throws -> TrustedWalletProvider {
        var provider = try validated(request)
        provider.id = UUID().uuidString.lowercased()
        let created = Timestamp.milliseconds(now)
        provider.createdAt = Timestamp.date(created)
        let document = String(decoding: try HoldfastJSON.encode(provider), as: UTF8.self)
        let inserted = try await database.sql.insert(into: "trusted_wallet_providers")
            .columns("id", "issuer", "document", "created_at")
            .values(SQLBind(provider.id ?? ""), SQLBind(provider.issuer), SQLBind(document), SQLBind(created))
            .ignoringConflicts().returning("id").all()
        guard !inserted.isEmpty else {
            throw ProblemError(status: .conflict, code: .conflict, title: "Wallet provider exists",
                               detail: "a wallet provider with issuer \(provider.issuer.prefix(200)) exists")
        }
        return provider
    }

    func list() async throws -> TrustedWalletProviderList {
        let rows = try await database.sql.select().column("document").from("trusted_wallet_providers")
            .orderBy("created_at").orderBy("id").all()
        return TrustedWalletProviderList(data: try rows.map(Self.provider))
    }

    func delete(id: String) async throws {
        guard UUID(uuidString: id) != nil,
              !(try await database.sql.delete(from: "trusted_wallet_providers").where("id", .equal, id)
                .returning("id").all()).isEmpty else {
            throw ProblemError(status: .notFound, code: .notFound, title: "Wallet provider not found",
                               detail: "no wallet provider \(id.prefix(64))")
        }
    }

    /// The provider whose attestations carry `iss`, if an admin trusts one.
    func provider(issuer: String) async throws -> TrustedWalletProvider? {
        guard issuer.utf8.count <= 2_048 else { return nil }
        return try await database.sql.select().column("document").from("trusted_wallet_providers")
            .where("issuer", .equal, issuer).first().map(Self.provider)
    }

    static func provider(_ row: any SQLRow) throws -> TrustedWalletProvider {
        try HoldfastJSON.decode(TrustedWalletProvider.self, from: Data(try row.decode(column: "document", as: String.self).utf8))
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
        where key.hasPrivateKey || key.kty != "EC" || (try? JWSVerificationKey(jwk: key)) == nil {
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
