/// Facts about this build of the SDK.
public enum HoldfastSDKInfo {
    public static let version = "0.1.0"

    /// Whether the dev bypass is compiled into this build (`true` only in debug builds).
    public static var developmentBypassCompiled: Bool {
        #if DEBUG
        true
        #else
        false
        #endif
    }
}
