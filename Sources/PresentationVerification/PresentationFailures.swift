import CBOR
import Foundation
import HoldfastProtocol
import JOSE
import MDoc
import OpenID4VP

extension DeviceResponseVerification {
    /// The failure code of an mdoc reader's check (ISO/IEC 18013-5 §9.3.1) that refused a document.
    public static func code(_ error: MDocError) -> PresentationFailureCode {
        switch error {
        case .issuerCertificateMissing, .issuerCertificateMalformed, .issuerCertificateUntrusted, .issuerCertificateNotYetValid,
             .issuerCertificateExpired, .issuerCertificateProfile, .iacaNotYetValid, .iacaExpired, .iacaProfile,
             .issuerCertificatePath: PresentationFailureCode.issuerUntrusted
        case .issuerSignatureInvalid, .signedOutsideCertificateValidity: PresentationFailureCode.issuerSignatureInvalid
        case .digestMismatch, .digestMissing, .duplicateItem: PresentationFailureCode.digestMismatch
        case .deviceAuthenticationMissing, .deviceMacNotSupported, .deviceMacInvalid, .deviceKeyUnsupported, .deviceSignatureInvalid:
            PresentationFailureCode.deviceSignatureInvalid
        case .docTypeMismatch: PresentationFailureCode.docTypeMismatch
        case .expired: PresentationFailureCode.expired
        case .notYetValid: PresentationFailureCode.notYetValid
        default: PresentationFailureCode.malformed
        }
    }

    /// What a requirement is called in a reason.
    private var noun: String {
        switch naming {
        case .credentialQuery: "credential query"
        case .inputDescriptor: "input descriptor"
        case .none: "document request"
        }
    }

    /// The failure of what a response falls short of (`PresentationRequirements.shortfalls`).
    func failure(_ shortfall: PresentationRequirements.Shortfall) -> PresentationResult.Failure {
        switch shortfall {
        case .credentialMissing(let id):
            return named(.init(code: PresentationFailureCode.credentialMissing,
                               reason: "the \(noun) \(Self.quoted(id)) is required and no credential was presented for it"), id)
        case .claimMissing(let id, let path, let errorCode):
            let given = errorCode.map { ", the document gave error code \($0) for it" } ?? ""
            return named(.init(code: PresentationFailureCode.claimMissing,
                               reason: "the \(noun) \(Self.quoted(id)) requires \(path.joined(separator: "/")), which was not presented\(given)",
                               path: path, value: errorCode.map { .integer($0) }), id)
        case .claimValueMismatch(let id, let path):
            return named(.init(code: PresentationFailureCode.claimValueMismatch,
                               reason: "the \(noun) \(Self.quoted(id)) asks \(path.joined(separator: "/")) for one of its values, and another was presented",
                               path: path), id)
        case .tooManyPresentations(let id, let count):
            return named(.init(code: PresentationFailureCode.tooManyPresentations,
                               reason: "the \(noun) \(Self.quoted(id)) takes one presentation (no multiple), \(count) were presented"), id)
        }
    }

    /// `Document.errors` (ISO/IEC 18013-5 §8.3.2.1.2.2: namespace → element → error code) as far as it is well formed.
    static func elementErrors(_ errors: CBOR?) -> [String: [String: Int64]] {
        guard case .map(let spaces)? = errors else { return [:] }
        var result: [String: [String: Int64]] = [:]
        for space in spaces {
            guard case .text(let name) = space.key, case .map(let elements) = space.value else { continue }
            for element in elements {
                guard case .text(let identifier) = element.key, case .integer(let code) = ClaimJSON.json(element.value) else { continue }
                result[name, default: [:]][identifier] = code
            }
        }
        return result
    }

    static func rendered(_ value: CBOR) -> String {
        let text = (try? JSONEncoder().encode(ClaimJSON.json(value))).map { String(decoding: $0, as: UTF8.self) } ?? "?"
        return String(text.prefix(512))
    }

    /// Text the wallet chose, bounded and quoted, for a reason.
    public static func quoted(_ text: String) -> String { "\"" + String(text.prefix(256)) + "\"" }
}

extension DeviceResponseVerification {
    /// The status decision of a verifier (docs/server-api.md "Verifier"), the tenant's and the SDK reader's alike: the
    /// value a verified status list gives for the credential (draft-ietf-oauth-status-list §7.1) — 0 VALID passes,
    /// 1 INVALID is `STATUS_REVOKED`, 2 SUSPENDED `STATUS_SUSPENDED`, any other value `STATUS_UNKNOWN` (nothing says the
    /// credential is valid).
    public static func statusFailure(value: UInt8) -> PresentationResult.Failure? {
        switch value {
        case 0: nil
        case 1: .init(code: PresentationFailureCode.statusRevoked, reason: "the credential is revoked")
        case 2: .init(code: PresentationFailureCode.statusSuspended, reason: "the credential is suspended")
        default: .init(code: PresentationFailureCode.statusUnknown, reason: "status value \(value)")
        }
    }
}
