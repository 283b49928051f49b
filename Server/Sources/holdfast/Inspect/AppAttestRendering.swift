import CBOR
import Foundation
import Plumbing

/// An App Attest attestation object (Apple's "Validating Apps That Connect to Your Server": a CBOR map with `fmt`
/// `apple-appattest`, `attStmt {x5c, receipt}` and `authData`) laid out for reading: the authenticator data's
/// fields (WebAuthn §6.1), the certificates in four lines each, and the receipt's length — instead of one
/// 10,000-character line of diagnostic notation. Nothing is verified here (`holdfast attest apple` does that).
struct AppAttestRendering {
    let authData: [UInt8]
    let certificates: [[UInt8]]
    let receipt: [UInt8]

    init?(_ decoded: CBOR.Decoded) {
        guard (try? decoded.value(forKey: "fmt").text()) == "apple-appattest",
              let statement = try? decoded.value(forKey: "attStmt"),
              let authData = try? decoded.value(forKey: "authData").bytes(),
              let x5c = try? statement.value(forKey: "x5c").array() else { return nil }
        self.authData = Array(authData)
        self.certificates = x5c.compactMap { try? Array($0.bytes()) }
        self.receipt = (try? statement.value(forKey: "receipt").bytes()).map(Array.init) ?? []
    }

    func render() -> String {
        var lines = ["App Attest attestation object (fmt apple-appattest)"]
        lines += authDataLines()
        for (index, der) in certificates.enumerated() {
            let role = index == 0 ? " (credential certificate)" : index == 1 ? " (intermediate)" : ""
            lines.append(COSESign1Rendering.certificateSummary("attStmt.x5c[\(index)]\(role)", der))
        }
        lines.append("attStmt.receipt: \(receipt.count) bytes (a PKCS #7 message for Apple's fraud-risk service)")
        return lines.joined(separator: "\n")
    }

    private func authDataLines() -> [String] {
        var lines = ["authData: \(authData.count) bytes"]
        guard authData.count >= 37 else {
            lines.append("  (shorter than the 37 bytes of rpIdHash, flags and signCount)")
            return lines
        }
        let flags = authData[32]
        var names: [String] = []
        if flags & 0x01 != 0 { names.append("UP") }
        if flags & 0x04 != 0 { names.append("UV") }
        if flags & 0x40 != 0 { names.append("AT") }
        if flags & 0x80 != 0 { names.append("ED") }
        let signCount = authData[33..<37].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        lines.append("  rpIdHash: \(Self.hex(authData[0..<32])) (SHA-256 of TEAMID.bundleId)")
        lines.append("  flags: 0x\(Self.hex([flags])) (\(names.joined(separator: ", ")))")
        lines.append("  signCount: \(signCount)")
        guard authData.count >= 55 else { return lines }
        let aaguid = Array(authData[37..<53])
        let aaguidName = switch aaguid {
        case Array("appattestdevelop".utf8): "appattestdevelop (development)"
        case Array("appattest".utf8) + [UInt8](repeating: 0, count: 7): "appattest (production)"
        default: "unknown"
        }
        lines.append("  aaguid: \(Self.hex(aaguid)) — \(aaguidName)")
        let idLength = Int(authData[53]) << 8 | Int(authData[54])
        guard authData.count >= 55 + idLength else {
            lines.append("  credentialId: \(idLength) bytes announced, fewer present")
            return lines
        }
        lines.append("  credentialId: \(Self.hex(authData[55..<(55 + idLength)])) (\(idLength) bytes; the key id)")
        let keyBytes = Array(authData[(55 + idLength)...])
        if let key = try? CBOR.decodePrefix(keyBytes) {
            lines.append("  credentialPublicKey (COSE_Key): \(key.diagnosticNotation)")
        }
        return lines
    }

    static func hex(_ bytes: some Collection<UInt8>) -> String {
        Hex.encode(bytes)
    }
}
