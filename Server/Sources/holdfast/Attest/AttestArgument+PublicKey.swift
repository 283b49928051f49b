import Foundation

extension AttestArgument {
    /// The stored App Attest public key for `--public-key`: a hex X9.62 uncompressed P-256 point (65 bytes, `04…`),
    /// base64 SubjectPublicKeyInfo DER, PEM `PUBLIC KEY` text, or `@file` holding any of those (or binary DER).
    /// Hex means a point and base64 means SPKI: the two spellings never overlap for real keys (SPKI base64 starts
    /// `MFkw`, which is not hex).
    static func publicKey(_ argument: String, option: String = "public-key") throws(Invalid) -> [UInt8] {
        guard argument.hasPrefix("@") else { return try publicKeyText(argument, option: option) }
        let data = try file(argument, option: option)
        guard let text = String(data: data, encoding: .utf8) else { return [UInt8](data) }
        return try publicKeyText(text, option: option)
    }

    private static func publicKeyText(_ text: String, option: String) throws(Invalid) -> [UInt8] {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.contains("-----BEGIN") {
            guard let der = pemBody(trimmed, label: "PUBLIC KEY") else {
                throw Invalid("--\(option): the PEM text holds no PUBLIC KEY block")
            }
            return der
        }
        if let point = ByteInput.hex(trimmed) {
            guard point.count == 65, point.first == 0x04 else {
                throw Invalid("--\(option): a hex key must be an uncompressed P-256 point (65 bytes starting 04), got \(point.count) bytes")
            }
            return point
        }
        if let der = ByteInput.base64Either(trimmed) { return der }
        throw Invalid("--\(option) must be a hex point, base64 SubjectPublicKeyInfo, PEM, or @file")
    }
}
