import Foundation

/// Mutations of a compact JWS (RFC 7515 §7.1) for the mutation campaigns (`MutationCampaign`): each byte of the
/// protected header, the payload and the signature flipped without signing again, and each member of the header or
/// the claims removed, for the test to sign again with the honest key (so that only the removal is wrong).
public enum JWSMutations {
    public struct Parts: Sendable {
        public var header: [UInt8]
        public var payload: [UInt8]
        public var signature: [UInt8]

        public init(header: [UInt8], payload: [UInt8], signature: [UInt8]) {
            self.header = header
            self.payload = payload
            self.signature = signature
        }
    }

    public static func parts(_ compact: String) -> Parts? {
        let pieces = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard pieces.count == 3, let header = decode(pieces[0]), let payload = decode(pieces[1]), let signature = decode(pieces[2]) else { return nil }
        return Parts(header: header, payload: payload, signature: signature)
    }

    public static func compact(_ parts: Parts) -> String {
        [parts.header, parts.payload, parts.signature].map(encode).joined(separator: ".")
    }

    /// Every byte of the header, the payload and the signature flipped in turn (signed bytes, not signed again).
    public static func byteFlips(_ compact: String) -> [(name: String, compact: String)] {
        guard let parts = parts(compact) else { return [] }
        var result: [(String, String)] = []
        for (index, flipped) in MutationCampaign.flips(of: parts.header) {
            result.append(("header byte \(index) flipped", Self.compact(Parts(header: flipped, payload: parts.payload, signature: parts.signature))))
        }
        for (index, flipped) in MutationCampaign.flips(of: parts.payload) {
            result.append(("payload byte \(index) flipped", Self.compact(Parts(header: parts.header, payload: flipped, signature: parts.signature))))
        }
        for (index, flipped) in MutationCampaign.flips(of: parts.signature) {
            result.append(("signature byte \(index) flipped", Self.compact(Parts(header: parts.header, payload: parts.payload, signature: flipped))))
        }
        return result
    }

    /// The header and the payload as JSON objects.
    public static func objects(_ compact: String) -> (header: [String: Any], payload: [String: Any])? {
        guard let parts = parts(compact),
              let header = try? JSONSerialization.jsonObject(with: Data(parts.header)) as? [String: Any],
              let payload = try? JSONSerialization.jsonObject(with: Data(parts.payload)) as? [String: Any] else { return nil }
        return (header, payload)
    }

    /// JSON bytes of an object, keys sorted.
    public static func json(_ object: [String: Any]) -> [UInt8] {
        Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data())
    }

    /// A JWS whose header and payload are `header` and `payload`, signed by `sign` over the signing input
    /// (`sign` returns the signature bytes).
    public static func signed(header: [String: Any], payload: [String: Any], sign: ([UInt8]) throws -> [UInt8]) rethrows -> String {
        let input = encode(json(header)) + "." + encode(json(payload))
        return input + "." + encode(try sign(Array(input.utf8)))
    }

    public static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    public static func decode(_ text: String) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64).map(Array.init)
    }
}
