/// Facts about this build of the server.
public enum HoldfastServerInfo {
    /// Reported by `/health` and `holdfast --version`.
    public static let version = "0.1.0"
}
