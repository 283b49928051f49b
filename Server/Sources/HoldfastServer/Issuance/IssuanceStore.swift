import Foundation
import HoldfastAdmin
import HoldfastProtocol
import SQLKit

/// SQL for what issuance keeps besides offers (docs/server-api.md "Credentials"): `credential_configurations` and
/// `trusted_wallet_providers` (each row a JSON document under its id, read and written here as the values they hold),
/// and `issued_credentials` (IssuedCredentialStore.swift). An issuance, or a status change with its status list
/// entry, is one `transaction`, whose `Transaction` offers the statements allowed inside it: issued credentials',
/// the offer's (`offers`) and the status lists' (`statusLists`), all on its connection.
struct IssuanceStore: TransactionalStore, PagedStore {
    let database: HoldfastDatabase

    /// The statements of an issuance or a status change with its status list entry, on one transaction's connection
    /// (`transaction`).
    struct Transaction: StoreTransaction {
        let db: any SQLDatabase
        /// The offer's statements in this transaction.
        let offers: CredentialOfferStore.Transaction
        /// The status lists' statements in this transaction.
        let statusLists: StatusListStore.Transaction

        init(session: HoldfastDatabase.Session, dialect: HoldfastDatabase.Dialect) {
            db = session
            offers = CredentialOfferStore.Transaction(db: session)
            statusLists = StatusListStore.Transaction(session: session, dialect: dialect)
        }

        /// The configuration with this id, read in the transaction; nil when there is none.
        func configuration(id: String) async throws -> CredentialConfiguration? {
            try await IssuanceStore.configuration(id: id, on: db)
        }
    }

    // MARK: issued credentials (IssuedCredentialStore.swift)

    /// An issued credential as stored.
    struct IssuedRow: Sendable {
        let id: String
        let configurationId: String
        let docType: String
        let instanceId: String?
        let offerId: String?
        let status: IssuedCredentialStatus
        let statusListID: String?
        let statusIndex: Int?
        let issuedAt: Date
        let validUntil: Date
        var walletEvent: WalletNotificationEvent?
        var walletEventAt: Date?
        var walletEventDescription: String?
    }

    // MARK: credential configurations

    /// Stores the configuration (its `createdAt` the time it is stored at); nil when its id is taken. Returns it as
    /// stored (`createdAt` to the millisecond).
    func insertConfiguration(_ configuration: CredentialConfiguration, createdAt: Date) async throws -> CredentialConfiguration? {
        try await insertDocument(configuration, createdAt: createdAt, at: \.createdAt, into: "credential_configurations",
                                 id: configuration.id ?? "", key: ("doc_type", configuration.docType))
    }

    /// Stores `value` (its `createdAt`, at `path`, set to `createdAt` as stored) as the document of a new row of `table`
    /// with `id` and the `key` column; nil when a row with either exists.
    private func insertDocument<Value: Encodable>(_ value: Value, createdAt: Date, at path: WritableKeyPath<Value, Date?>,
                                                  into table: String, id: String,
                                                  key: (column: String, value: String)) async throws -> Value? {
        let stamp = Timestamp.milliseconds(createdAt)
        var stored = value
        stored[keyPath: path] = Timestamp.date(stamp)
        let document = String(decoding: try HoldfastJSON.encode(stored), as: UTF8.self)
        let inserted = !(try await database.sql.insert(into: table)
            .columns("id", key.column, "document", "created_at")
            .values(SQLBind(id), SQLBind(key.value), SQLBind(document), SQLBind(stamp))
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
        try await insertDocument(provider, createdAt: createdAt, at: \.createdAt, into: "trusted_wallet_providers",
                                 id: provider.id ?? "", key: ("issuer", provider.issuer))
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
