/// A storage failure with a stable code: start-up reports these as they are; at request time they map to
/// 503 `DATABASE_UNAVAILABLE` without the underlying message.
public struct StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code {
        public static let unavailable = "DATABASE_UNAVAILABLE"
        public static let migrationFailed = "MIGRATION_FAILED"
        public static let invalidMigrations = "INVALID_MIGRATIONS"
    }

    public let code: String
    public let message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
