import CBOR
import Foundation
import MDoc
import StatusList

/// `holdfast inspect`: recognises what a person pasted — a Status List Token (CWT or JWT), an mDoc's IssuerSigned,
/// DeviceResponse or MSO, a JWS/JWT or JWE in compact form, a COSE_Sign1, or any other CBOR item — and renders it
/// for reading. Nothing is verified here; inspection is for looking.
enum Inspector {
    /// What the input was recognised as.
    enum Kind: String {
        case cbor = "CBOR"
        case coseSign1 = "COSE_Sign1"
        case jws = "JWS"
        case jwe = "JWE"
        case appAttest = "App Attest attestation object"
        case statusListToken = "Status List Token"
        case issuerSigned = "mDoc IssuerSigned"
        case deviceResponse = "mDoc DeviceResponse"
        case mso = "mDoc MobileSecurityObject"
    }

    struct Report {
        let kind: Kind
        let text: String
    }

    static func inspect(_ argument: String, pretty: Bool) throws -> Report {
        let text = try? ByteInput.text(argument).trimmingCharacters(in: .whitespacesAndNewlines)
        if let text, let compact = CompactJOSE(text) {
            if let token = try? SignedStatusListToken(jwt: text) {
                return Report(kind: .statusListToken, text: CredentialRendering.render(token))
            }
            return compact.report()
        }
        let (bytes, form) = try ByteInput.anyForm(argument)
        let decoded: CBOR.Decoded
        do {
            decoded = try CBOR.decode(bytes)
        } catch {
            // Say how the text was read: hex and base64 overlap, so a person can see when the guess was wrong.
            throw CommandFailure(.failure, "read as \(form.rawValue) (\(bytes.count) bytes), it is not a JWS, JWE, COSE_Sign1 "
                + "or CBOR item: \(error)")
        }
        if let report = credential(bytes, decoded) { return report }
        if let sign1 = try? COSESign1Rendering(decoded) {
            return Report(kind: .coseSign1, text: sign1.render())
        }
        if let attestation = AppAttestRendering(decoded) {
            return Report(kind: .appAttest, text: attestation.render())
        }
        let notation = pretty ? decoded.prettyDiagnostic() : decoded.diagnosticNotation
        return Report(kind: .cbor, text: notation)
    }

    /// The credential formats, most specific first; a `MobileSecurityObject` is usually met inside tag 24.
    private static func credential(_ bytes: [UInt8], _ decoded: CBOR.Decoded) -> Report? {
        if let token = try? SignedStatusListToken(cwt: bytes) {
            return Report(kind: .statusListToken, text: CredentialRendering.render(token))
        }
        if let response = try? DeviceResponse(decoding: bytes) {
            return Report(kind: .deviceResponse, text: CredentialRendering.render(response))
        }
        if let issuerSigned = try? IssuerSigned(decoding: bytes) {
            return Report(kind: .issuerSigned, text: CredentialRendering.render(issuerSigned))
        }
        var item = decoded
        if let (tag, content) = try? decoded.tag(), tag == 24, let inner = try? content.bytes(), let embedded = try? CBOR.decode(Array(inner)) {
            item = embedded
        }
        if let mso = try? MobileSecurityObject(item: item) {
            return Report(kind: .mso, text: CredentialRendering.render(mso))
        }
        return nil
    }
}
