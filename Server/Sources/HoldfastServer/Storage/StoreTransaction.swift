/// A store's transaction as a value (`SCAWalletStore.Transaction` is the model, DESIGN §4 "Storage"): made on the
/// transaction's connection, it offers only the statements allowed inside the transaction, so that a service never
/// holds the connection itself.
protocol StoreTransaction: Sendable {
    init(session: HoldfastDatabase.Session, dialect: HoldfastDatabase.Dialect)
}

/// A store whose changes that go together are made in one `transaction`, through its `Transaction`.
protocol TransactionalStore: Sendable {
    associatedtype Transaction: StoreTransaction
    var database: HoldfastDatabase { get }
}

extension TransactionalStore {
    /// Runs `body` in one transaction (`HoldfastDatabase.transaction(_:)`: committed when it returns, rolled back when
    /// it throws), handing it the store's `Transaction` on the transaction's connection.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (Transaction) async throws -> T) async throws -> T {
        let dialect = database.dialect
        return try await database.transaction { (session: HoldfastDatabase.Session) in
            try await body(Transaction(session: session, dialect: dialect))
        }
    }
}
