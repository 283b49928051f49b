/// The database the configuration points at holds no tenant: an SQLite file that does not exist, or a database
/// that neither `holdfast serve` nor `holdfast migrate` has prepared (docs/command-line.md "The `holdfast` command"). Tools that
/// work on an existing tenant (`holdfast admin`) stop here, having created nothing.
public struct TenantNotFoundError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable code the command line prints.
    public static let code = "TENANT_NOT_FOUND"

    /// The database, without password (`sqlite /data/holdfast.sqlite`).
    public let database: String

    public init(database: String) {
        self.database = database
    }

    public var description: String { "no Holdfast tenant in \(database)" }
}
