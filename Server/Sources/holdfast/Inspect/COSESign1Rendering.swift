import CBOR
import COSE
import Foundation
import Plumbing
import X509

/// A COSE_Sign1 (RFC 9052 §4.2) laid out for reading: headers in diagnostic notation, the payload decoded when it
/// is CBOR or text, and each `x5chain` certificate summarised. The signature is not verified.
struct COSESign1Rendering {
    let message: COSESign1
    let tagged: Bool

    /// Succeeds only for items shaped like a COSE_Sign1: tag 18, or an untagged 4-element array whose first
    /// element is a byte string and second a map.
    init(_ item: CBOR.Decoded) throws {
        if let (tag, _) = try? item.tag() {
            guard tag == COSESign1.tag else { throw CommandFailure(.failure, "tag \(tag) is not COSE_Sign1") }
            tagged = true
        } else {
            let elements = try item.array()
            guard elements.count == 4, elements[0].majorType == 2, elements[1].majorType == 5 else {
                throw CommandFailure(.failure, "not shaped like a COSE_Sign1")
            }
            tagged = false
        }
        message = try COSESign1(item: item)
    }

    func render() -> String {
        var lines = ["COSE_Sign1 (\(tagged ? "tag 18" : "untagged"))"]
        let protectedText = (try? CBOR.decode(message.protectedBytes).diagnosticNotation) ?? "h''"
        lines.append("protected: \(protectedText)\(algorithmNote)")
        lines.append("unprotected: \(CBOR.map(message.unprotected.pairs).diagnosticNotation.abbreviated(200))")
        lines.append(contentsOf: payloadLines)
        lines.append("signature: \(message.signature.count) bytes (not verified)")
        lines.append(contentsOf: certificateLines)
        return lines.joined(separator: "\n")
    }

    private var algorithmNote: String {
        guard let algorithm = try? message.algorithm() else { return "" }
        return "  (alg \(algorithm))"
    }

    private var payloadLines: [String] {
        guard let payload = message.payload else { return ["payload: detached"] }
        if let decoded = try? CBOR.decode(payload) {
            return ["payload: \(payload.count) bytes of CBOR:", decoded.prettyDiagnostic()]
        }
        if let text = String(bytes: payload, encoding: .utf8),
           text.unicodeScalars.allSatisfy({ $0.properties.generalCategory != .control || "\n\r\t".unicodeScalars.contains($0) }) {
            return ["payload: \(payload.count) bytes of text:", text]
        }
        return ["payload: \(payload.count) bytes"]
    }

    private var certificateLines: [String] {
        guard let chain = try? message.x5chain(), !chain.isEmpty else { return [] }
        return chain.enumerated().map { index, der in Self.certificateSummary("x5chain[\(index)]", der) }
    }
}

extension COSESign1Rendering {
    /// A certificate in four lines: subject, issuer, serial, validity.
    static func certificateSummary(_ label: String, _ der: [UInt8]) -> String {
        guard let certificate = try? Certificate(derEncoded: der) else {
            return "\(label): \(der.count) bytes (not a parsable X.509 certificate)"
        }
        let formatter = ISO8601DateFormatter()
        return """
        \(label): subject \(certificate.subject)
          issuer \(certificate.issuer)
          serial \(serial(certificate.serialNumber))
          valid \(formatter.string(from: certificate.notValidBefore)) … \(formatter.string(from: certificate.notValidAfter))
        """
    }
}

extension COSESign1Rendering {
    /// Every byte of the serial as two hex digits (`02:dc:05`): swift-certificates' own description drops a byte's
    /// leading zero, which makes `02 dc 05` read as `2:dc:5`.
    static func serial(_ serial: Certificate.SerialNumber) -> String {
        serial.bytes.map { Hex.encode([$0]) }.joined(separator: ":")
    }
}

extension String {
    /// The string cut to `limit` characters with an ellipsis, for long byte strings in one-line fields.
    func abbreviated(_ limit: Int) -> String {
        count <= limit ? self : String(prefix(limit)) + "…"
    }
}
