/// A configuration value that cannot be used: which variable or flag, and what it must be.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public static let code = "INVALID_CONFIGURATION"

    /// The environment variable or flag at fault (`HOLDFAST_PORT`, `--port`).
    public let variable: String
    public let reason: String

    public init(variable: String, reason: String) {
        self.variable = variable
        self.reason = reason
    }

    public var description: String { "invalid configuration: \(variable) \(reason)" }
}
