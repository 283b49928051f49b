import Attestation
import Crypto
import Foundation
import Plumbing

/// The admin API key format: `hfk_<id>_<secret>`, `id` 12 random bytes and `secret` 32 random bytes
/// (256 bits), both lower-case hex. The database keeps only SHA-256(secret); a presented key is looked up by
/// its id and its secret's hash compared in constant time.
struct AdminKeyToken: Sendable, Equatable {
    static let prefix = "hfk_"
    static let idBytes = 12
    static let secretBytes = 32

    let id: String
    let secret: String

    static func generate(random: any RandomSource) -> AdminKeyToken {
        AdminKeyToken(id: Hex.encode(random.bytes(idBytes)), secret: Hex.encode(random.bytes(secretBytes)))
    }

    /// Parses the exact format; anything else is nil (and authenticates as nobody).
    init?(_ text: String) {
        let parts = text.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "hfk",
              parts[1].utf8.count == Self.idBytes * 2, Self.isLowerHex(parts[1]),
              parts[2].utf8.count == Self.secretBytes * 2, Self.isLowerHex(parts[2]) else { return nil }
        self.id = String(parts[1])
        self.secret = String(parts[2])
    }

    private init(id: String, secret: String) {
        self.id = id
        self.secret = secret
    }

    var text: String { "\(Self.prefix)\(id)_\(secret)" }

    /// Hex SHA-256 of the secret's characters, as stored in `admin_api_keys.secret_hash`.
    var secretHash: String { Hex.encode(SHA256.hash(data: Data(secret.utf8))) }

    /// Constant-time comparison of two hashes of equal length (the length is not secret).
    static func constantTimeEquals(_ left: String, _ right: String) -> Bool {
        ConstantTime.equal(left.utf8, right.utf8)
    }

    static func isValidID(_ id: String) -> Bool {
        id.utf8.count == idBytes * 2 && isLowerHex(Substring(id))
    }

    private static func isLowerHex(_ text: Substring) -> Bool {
        text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }
}
