import Foundation
import HoldfastAdmin
import HoldfastProtocol
import SQLKit

/// SQL for what issuance keeps besides offers (docs/server-api.md "Credentials"): `credential_configurations` and
/// `trusted_wallet_providers` (each row a JSON document under its id, read and written here as the values they hold),
/// and `issued_credentials` (IssuedCredentialStore.swift). An issuance, or a status change with its status list
/// entry, is one `transaction`, whose `Transaction` offers the statements allowed inside it: issued credentials',
/// the offer's (`offers`) and the status lists' (`statusLists`), all on its connection.
struct IssuanceStore: Sendable {
    let database: HoldfastDatabase

    /// Runs `body` in one transaction: an issuance, or a status change with its status list entry.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (Transaction) async throws -> T) async throws -> T {
        let dialect = database.dialect
        return try await database.transaction { db in try await body(Transaction(db: db, dialect: dialect)) }
    }

    /// The statements of an issuance or a status change, on one transaction's connection.
    struct Transaction: Sendable {
        let db: any SQLDatabase
        let dialect: HoldfastDatabase.Dialect

        /// The offer's statements in this transaction.
        var offers: CredentialOfferStore.Transaction { CredentialOfferStore.Transaction(db: db) }
        /// The status lists' statements in this transaction.
        var statusLists: StatusListStore.Transaction { StatusListStore.Transaction(db: db, dialect: dialect) }

        /// The configuration with this id, read in the transaction; nil when there is none.
        func configuration(id: String) async throws -> CredentialConfiguration? {
            try await IssuanceStore.configuration(id: id, on: db)
        }
    }

    // MARK: credential configurations

    /// Stores the configuration (its `createdAt` the time it is stored at); nil when its id is taken. Returns it as
    /// stored (`createdAt` to the millisecond).
    func insertConfiguration(_ configuration: CredentialConfiguration, createdAt: Date) async throws -> CredentialConfiguration? {
        let stamp = Timestamp.milliseconds(createdAt)
        var stored = configuration
        stored.createdAt = Timestamp.date(stamp)
        let document = String(decoding: try HoldfastJSON.encode(stored), as: UTF8.self)
        let inserted = !(try await database.sql.insert(into: "credential_configurations")
            .columns("id", "doc_type", "document", "created_at")
            .values(SQLBind(stored.id ?? ""), SQLBind(stored.docType), SQLBind(document), SQLBind(stamp))
            .ignoringConflicts().returning("id").all()).isEmpty
        return inserted ? stored : nil
    }

    /// Every configuration, oldest first.
    func configurations() async throws -> [CredentialConfiguration] {
        try await database.sql.select().column("document").from("credential_configurations")
            .orderBy("created_at").orderBy("id").all().map { try Self.configuration(try $0.decode(column: "document", as: String.self)) }
    }

    /// The configuration with this id, or nil.
    func configuration(id: String) async throws -> CredentialConfiguration? {
        try await Self.configuration(id: id, on: database.sql)
    }

    private static func configuration(id: String, on db: any SQLDatabase) async throws -> CredentialConfiguration? {
        try await db.select().column("document").from("credential_configurations").where("id", .equal, id).first()
            .map { try configuration(try $0.decode(column: "document", as: String.self)) }
    }

    private static func configuration(_ document: String) throws -> CredentialConfiguration {
        var configuration = try HoldfastJSON.decode(CredentialConfiguration.self, from: Data(document.utf8))
        // Stored before the field existed: the default.
        configuration.clientAttestation = configuration.clientAttestation ?? .required
        return configuration
    }

    /// Deletes the configuration; false when there was none.
    func deleteConfiguration(id: String) async throws -> Bool {
        !(try await database.sql.delete(from: "credential_configurations").where("id", .equal, id)
            .returning("id").all()).isEmpty
    }

    // MARK: trusted wallet providers

    /// Stores the provider (its `createdAt` the time it is stored at); nil when one with its `issuer` (or id) exists.
    /// Returns it as stored (`createdAt` to the millisecond).
    func insertWalletProvider(_ provider: TrustedWalletProvider, createdAt: Date) async throws -> TrustedWalletProvider? {
        let stamp = Timestamp.milliseconds(createdAt)
        var stored = provider
        stored.createdAt = Timestamp.date(stamp)
        let document = String(decoding: try HoldfastJSON.encode(stored), as: UTF8.self)
        let inserted = !(try await database.sql.insert(into: "trusted_wallet_providers")
            .columns("id", "issuer", "document", "created_at")
            .values(SQLBind(stored.id ?? ""), SQLBind(stored.issuer), SQLBind(document), SQLBind(stamp))
            .ignoringConflicts().returning("id").all()).isEmpty
        return inserted ? stored : nil
    }

    /// Every provider, oldest first.
    func walletProviders() async throws -> [TrustedWalletProvider] {
        try await database.sql.select().column("document").from("trusted_wallet_providers")
            .orderBy("created_at").orderBy("id").all().map { try Self.walletProvider(try $0.decode(column: "document", as: String.self)) }
    }

    /// Deletes the provider; false when there was none.
    func deleteWalletProvider(id: String) async throws -> Bool {
        !(try await database.sql.delete(from: "trusted_wallet_providers").where("id", .equal, id)
            .returning("id").all()).isEmpty
    }

    /// The provider whose attestations carry `issuer`, or nil.
    func walletProvider(issuer: String) async throws -> TrustedWalletProvider? {
        try await database.sql.select().column("document").from("trusted_wallet_providers")
            .where("issuer", .equal, issuer).first().map { try Self.walletProvider(try $0.decode(column: "document", as: String.self)) }
    }

    private static func walletProvider(_ document: String) throws -> TrustedWalletProvider {
        try HoldfastJSON.decode(TrustedWalletProvider.self, from: Data(document.utf8))
    }
}
