import Foundation
import JOSE

/// A JWS (3 segments) or JWE (5 segments) in compact serialization, split for reading. Unlike `JOSE.JWS` it
/// accepts any `alg`, so that tokens from other systems (RS256, EdDSA…) can still be looked at.
struct CompactJOSE {
    let segments: [Substring]

    init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 || parts.count == 5 else { return nil }
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        guard !parts[0].isEmpty, parts.allSatisfy({ $0.allSatisfy(alphabet.contains) }),
              let header = Base64URL.decode(parts[0]),
              (try? JSONSerialization.jsonObject(with: Data(header))) is [String: Any] else { return nil }
        segments = parts
    }

    func report() -> Inspector.Report {
        var lines: [String] = []
        let header = Self.json(segments[0]) ?? "(header is not JSON)"
        if segments.count == 5 {
            lines.append("JWE (compact, \(segments.count) segments)")
            lines.append("header:")
            lines.append(header)
            lines.append("encrypted key: \(Base64URL.decode(segments[1])?.count ?? 0) bytes")
            lines.append("iv: \(Base64URL.decode(segments[2])?.count ?? 0) bytes")
            lines.append("ciphertext: \(Base64URL.decode(segments[3])?.count ?? 0) bytes")
            lines.append("tag: \(Base64URL.decode(segments[4])?.count ?? 0) bytes")
            return Inspector.Report(kind: .jwe, text: lines.joined(separator: "\n"))
        }
        lines.append("JWS (compact)")
        lines.append("header:")
        lines.append(header)
        if let payload = Base64URL.decode(segments[1]) {
            if let claims = Self.json(segments[1]) {
                lines.append("claims:")
                lines.append(claims)
                lines.append(contentsOf: Self.timeClaims(payload))
            } else {
                lines.append("payload: \(payload.count) bytes (not JSON)")
            }
        } else {
            lines.append("payload: not base64url")
        }
        lines.append("signature: \(Base64URL.decode(segments[2])?.count ?? 0) bytes (not verified)")
        return Inspector.Report(kind: .jws, text: lines.joined(separator: "\n"))
    }

    private static func json(_ segment: Substring) -> String? {
        guard let bytes = Base64URL.decode(segment),
              let object = try? JSONSerialization.jsonObject(with: Data(bytes)),
              object is [String: Any] || object is [Any],
              let pretty = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return nil }
        return String(decoding: pretty, as: UTF8.self)
    }

    /// `iat`, `nbf`, `exp` as dates, for people.
    private static func timeClaims(_ payload: [UInt8]) -> [String] {
        guard let claims = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any] else { return [] }
        let formatter = ISO8601DateFormatter()
        return ["iat", "nbf", "exp"].compactMap { name in
            guard let seconds = (claims[name] as? NSNumber)?.doubleValue else { return nil }
            return "\(name): \(formatter.string(from: Date(timeIntervalSince1970: seconds)))"
        }
    }
}
