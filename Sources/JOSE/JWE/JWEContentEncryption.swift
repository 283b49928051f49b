/// RFC 7518 §5.3 — the `enc` values this module implements: AES-GCM with a 96-bit IV and a 128-bit tag.
public enum JWEContentEncryption: String, Sendable, Hashable, CaseIterable, Codable {
    case a128gcm = "A128GCM"
    case a256gcm = "A256GCM"

    /// The content encryption key length in bits (the Concat KDF's `keydatalen`).
    public var keyBitCount: Int {
        switch self {
        case .a128gcm: 128
        case .a256gcm: 256
        }
    }
}
