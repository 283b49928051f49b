import CBOR
import COSE
import Foundation
import MDoc
import StatusList
import X509

/// mDocs (ISO/IEC 18013-5 §8.3.2.1: `IssuerSigned`, `DeviceResponse`, the `MobileSecurityObject`) and Status List
/// Tokens (draft-ietf-oauth-status-list, CWT and JWT) laid out for reading by `holdfast inspect`: claims, validity,
/// the status reference, and for a status list its bits, size and how many entries hold each value. Nothing is
/// verified.
enum CredentialRendering {
    static func render(_ issuerSigned: IssuerSigned, indent: String = "") -> String {
        let mso = issuerSigned.mso
        var lines = ["\(indent)docType: \(mso.docType)"]
        lines += validity(mso, indent: indent)
        if let status = mso.status {
            lines.append("\(indent)status: index \(status.index) in \(status.uri)")
        } else {
            lines.append("\(indent)status: none (not revocable)")
        }
        lines.append("\(indent)digest algorithm: \(mso.digestAlgorithm.rawValue)")
        lines.append("\(indent)device key: \(mso.deviceKey.curve.name)")
        for certificate in issuerSigned.issuerAuth.unprotectedCertificates {
            lines.append("\(indent)document signer: \(certificate)")
        }
        for space in issuerSigned.nameSpaces {
            lines.append("\(indent)\(space.name) (\(space.items.count) of \(mso.valueDigests[space.name]?.count ?? 0) signed elements):")
            for item in space.items {
                lines.append("\(indent)  \(item.elementIdentifier) = \(item.elementValue.diagnosticNotation.abbreviated(120))")
            }
        }
        return lines.joined(separator: "\n")
    }

    static func render(_ mso: MobileSecurityObject) -> String {
        var lines = ["docType: \(mso.docType)", "version: \(mso.version)"]
        lines += validity(mso, indent: "")
        if let status = mso.status { lines.append("status: index \(status.index) in \(status.uri)") }
        lines.append("digest algorithm: \(mso.digestAlgorithm.rawValue)")
        lines.append("device key: \(mso.deviceKey.curve.name)")
        for (space, digests) in mso.valueDigests.sorted(by: { $0.key < $1.key }) {
            lines.append("\(space): \(digests.count) digests")
        }
        return lines.joined(separator: "\n")
    }

    static func render(_ response: DeviceResponse) -> String {
        var lines = ["version: \(response.version)", "status: \(response.status)", "documents: \(response.documents.count)"]
        for (index, document) in response.documents.enumerated() {
            lines.append("document \(index): \(document.docType)\(document.deviceSigned == nil ? "" : ", device signed")")
            lines.append(render(document.issuerSigned, indent: "  "))
        }
        return lines.joined(separator: "\n")
    }

    static func render(_ signed: SignedStatusListToken) -> String {
        let token = signed.token
        var lines = ["format: \(signed.format == .cwt ? "CWT (COSE_Sign1)" : "JWT")", "sub: \(token.subject)",
                     "iat: \(timestamp(token.issuedAt))"]
        if let expiresAt = token.expiresAt { lines.append("exp: \(timestamp(expiresAt))") }
        if let ttl = token.timeToLive { lines.append("ttl: \(ttl) s") }
        if let issuer = token.issuer { lines.append("iss: \(issuer)") }
        lines.append("bits: \(token.list.bits)")
        lines.append("size: \(token.list.count) entries")
        let names: [UInt8: String] = [0: "valid", 1: "invalid", 2: "suspended"]
        for (value, count) in token.list.valueCounts().sorted(by: { $0.key < $1.key }) {
            lines.append("  \(value) (\(names[value] ?? "other")): \(count)")
        }
        lines.append("certificates: \(signed.certificateChain.count) (not verified)")
        return lines.joined(separator: "\n")
    }

    private static func validity(_ mso: MobileSecurityObject, indent: String) -> [String] {
        let info = mso.validityInfo
        var lines = ["\(indent)signed: \(timestamp(info.signed))", "\(indent)valid from: \(timestamp(info.validFrom))",
                     "\(indent)valid until: \(timestamp(info.validUntil))"]
        if let update = info.expectedUpdate { lines.append("\(indent)expected update: \(timestamp(update))") }
        return lines
    }

    private static func timestamp(_ date: Date) -> String { date.formatted(Date.ISO8601FormatStyle()) }
}

extension COSESign1 {
    /// The subjects of the `x5chain` certificates (label 33), leaf first.
    var unprotectedCertificates: [String] {
        let chain = (try? x5chain()) ?? []
        return chain.compactMap { der in (try? Certificate(derEncoded: der)).map { "\($0.subject)" } }
    }
}
