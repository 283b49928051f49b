import CBOR
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE
import MDoc
import OpenID4VP
import X509

/// The tenant verifier's checks on a decrypted response's `vp_token` (docs/server-api.md "Verifier"): the checks of an mdoc
/// reader (ISO/IEC 18013-5 §9.3.1) on each presented document over the session's transcript, what the session asked
/// (`PresentationRequirements`: every required credential and claim shown, nothing shown that was not asked), and
/// the status list. Each refusal is one named check with its code (`PresentationFailureCode`); the session's
/// storage, the request object and the decryption stay with `PresentationSessionService`.
struct PresentationResponseVerifier: Sendable {
    enum ResponseProtocol: Sendable {
        /// OpenID4VP 1.0 §8.1: `vp_token` is an object of credential query id → non-empty array of presentations.
        case openID4VP
        /// ISO/IEC TS 18013-7:2024 B.4.3: `vp_token` is one base64url DeviceResponse.
        case iso18013_7
    }

    /// The status failure of a credential whose MSO has `status`, issued under `iaca` (nil: valid).
    typealias StatusCheck = @Sendable (_ status: MobileSecurityObject.StatusReference?, _ iaca: Certificate) async throws -> PresentationResult.Failure?

    let `protocol`: ResponseProtocol
    let requirements: PresentationRequirements
    /// The SessionTranscript device authentication is checked over; several candidates when the answer came through
    /// the W3C Digital Credentials API from a page that may be served from several origins (each document verifies
    /// under one of them: `MDocVerifier.verify(_:sessionTranscripts:at:)`).
    let transcripts: [SessionTranscript]
    let trust: IssuerTrust

    init(protocol: ResponseProtocol, requirements: PresentationRequirements, transcript: SessionTranscript, trust: IssuerTrust) {
        self.init(protocol: `protocol`, requirements: requirements, transcripts: [transcript], trust: trust)
    }

    init(protocol: ResponseProtocol, requirements: PresentationRequirements, transcripts: [SessionTranscript], trust: IssuerTrust) {
        self.protocol = `protocol`
        self.requirements = requirements
        self.transcripts = transcripts
        self.trust = trust
    }

    /// The result of `vpToken`, after `failures` found before it (the 2024 nonce), at `time`.
    func verify(vpToken: JSONValue?, at time: Date, failures prior: [PresentationResult.Failure] = [],
                status: StatusCheck) async throws -> PresentationResult {
        var failures = prior
        var encoded: [(credentialID: String?, text: String)] = []
        switch self.protocol {
        case .openID4VP:
            guard let token = vpToken?.objectValue else {
                return Self.failed(failures + [.init(code: PresentationFailureCode.malformed, reason: "vp_token is not an object of credential query ids")])
            }
            for (key, value) in token.sorted(by: { $0.key < $1.key }) {
                guard requirements.credential(id: key) != nil else {
                    failures.append(.init(code: PresentationFailureCode.credentialNotRequested,
                                          reason: "vp_token names the credential query \(Self.quoted(key)), which the request does not have",
                                          credentialQueryId: String(key.prefix(256))))
                    continue
                }
                guard let items = value.arrayValue, !items.isEmpty, items.allSatisfy({ $0.stringValue != nil }) else {
                    failures.append(.init(code: PresentationFailureCode.malformed, reason: "vp_token.\(key) is not a non-empty array of presentations",
                                          credentialQueryId: key))
                    continue
                }
                for item in items { if let text = item.stringValue { encoded.append((key, text)) } }
            }
        case .iso18013_7:
            guard let text = vpToken?.stringValue else {
                return Self.failed(failures + [.init(code: PresentationFailureCode.malformed, reason: "vp_token is not a base64url DeviceResponse")])
            }
            encoded.append((nil, text))
        }
        var credentials: [PresentationResult.Credential] = []
        var presented: [PresentationRequirements.Presented] = []
        for (credentialID, text) in encoded {
            guard let bytes = Base64URL.decode(text), let response = try? DeviceResponse(decoding: bytes) else {
                failures.append(.init(code: PresentationFailureCode.malformed, reason: "a vp_token entry is not a base64url DeviceResponse",
                                      credentialQueryId: credentialID))
                continue
            }
            // ISO/IEC 18013-5 §8.3.2.1.2.3: a status other than 0 (OK) is an error the mdoc reports.
            if response.status != DeviceResponse.statusOK {
                failures.append(.init(code: PresentationFailureCode.deviceResponseStatus, reason: "the DeviceResponse's status is \(response.status), not 0",
                                      credentialQueryId: credentialID, value: .integer(Int64(clamping: response.status))))
            }
            // §8.3.2.1.2.2: documentErrors lists documents the mdoc could not return.
            if let errors = response.documentErrors {
                failures.append(.init(code: PresentationFailureCode.documentErrors, reason: "the DeviceResponse carries documentErrors \(Self.rendered(errors))",
                                      credentialQueryId: credentialID, value: ClaimJSON.json(errors)))
            }
            for document in response.documents {
                let requested: PresentationRequirements.Credential?
                if let credentialID {
                    requested = requirements.credential(id: credentialID).flatMap { $0.docType == document.docType ? $0 : nil }
                } else {
                    requested = requirements.credentials.first { $0.docType == document.docType }
                }
                guard let requested else {
                    failures.append(.init(code: PresentationFailureCode.docTypeMismatch, reason: "\(Self.quoted(document.docType)) was not asked for",
                                          credentialQueryId: credentialID))
                    continue
                }
                var shown: [String: [String: JSONValue]] = [:]
                for space in document.issuerSigned.nameSpaces {
                    for item in space.items { shown[space.name, default: [:]][item.elementIdentifier] = ClaimJSON.json(item.elementValue) }
                }
                presented.append(.init(credentialId: requested.id, elements: shown, elementErrors: Self.elementErrors(document.errors)))
                let verified: MDocVerifier.Verified
                do {
                    verified = try await MDocVerifier(trust: trust).verify(document, sessionTranscripts: transcripts, at: time).verified
                } catch {
                    failures.append(named(.init(code: Self.code(error), reason: error.description), requested.id))
                    continue
                }
                var disclosed: [String: [String: JSONValue]] = [:]
                for (space, elements) in shown.sorted(by: { $0.key < $1.key }) {
                    for (element, value) in elements.sorted(by: { $0.key < $1.key }) {
                        guard requested.claims.contains(where: { $0.nameSpace == space && $0.element == element }) else {
                            failures.append(named(.init(code: PresentationFailureCode.elementNotRequested,
                                                        reason: "\(space)/\(element) was not asked for", path: [space, element]), requested.id))
                            continue
                        }
                        disclosed[space, default: [:]][element] = value
                    }
                }
                if let failure = try await status(verified.mso.status, verified.iaca) { failures.append(named(failure, requested.id)) }
                credentials.append(credential(requested.id, document.docType, disclosed, verified))
            }
        }
        for shortfall in requirements.shortfalls(presented) { failures.append(failure(shortfall)) }
        if failures.isEmpty, credentials.allSatisfy(\.claims.isEmpty) {
            failures.append(.init(code: PresentationFailureCode.malformed, reason: "vp_token holds no presentation"))
        }
        return failures.isEmpty ? PresentationResult.verified(credentials) : Self.failed(failures)
    }

    /// One presented document as the result shows it (docs/server-api.md "Verifier"), apart from any other, with the credential
    /// query (or input descriptor) it answered. Its status passed the check before: `valid` when the MSO names a
    /// status list, which then said 0.
    private func credential(_ credentialID: String, _ docType: String, _ claims: [String: [String: JSONValue]],
                            _ verified: MDocVerifier.Verified) -> PresentationResult.Credential {
        var credential = PresentationResult.Credential(
            docType: docType, claims: claims,
            issuer: .init(subject: verified.documentSigner.subject.description, iaca: verified.iaca.subject.description),
            status: verified.mso.status == nil ? .notRevocable : .valid)
        switch self.protocol {
        case .openID4VP: credential.credentialQueryId = credentialID
        case .iso18013_7: credential.inputDescriptorId = credentialID
        }
        return credential
    }

    /// The failure code of an mdoc reader's check (ISO/IEC 18013-5 §9.3.1) that refused a document.
    static func code(_ error: MDocError) -> PresentationFailureCode {
        switch error {
        case .issuerCertificateMissing, .issuerCertificateMalformed, .issuerCertificateUntrusted, .issuerCertificateNotYetValid,
             .issuerCertificateExpired, .issuerCertificateProfile, .iacaNotYetValid, .iacaExpired, .iacaProfile,
             .issuerCertificatePath: PresentationFailureCode.issuerUntrusted
        case .issuerSignatureInvalid, .signedOutsideCertificateValidity: PresentationFailureCode.issuerSignatureInvalid
        case .digestMismatch, .digestMissing, .duplicateItem: PresentationFailureCode.digestMismatch
        case .deviceAuthenticationMissing, .deviceMacNotSupported, .deviceKeyUnsupported, .deviceSignatureInvalid: PresentationFailureCode.deviceSignatureInvalid
        case .docTypeMismatch: PresentationFailureCode.docTypeMismatch
        case .expired: PresentationFailureCode.expired
        case .notYetValid: PresentationFailureCode.notYetValid
        default: PresentationFailureCode.malformed
        }
    }

    private static func failed(_ failures: [PresentationResult.Failure]) -> PresentationResult {
        PresentationResult(status: .failed, failures: failures)
    }

    /// A failure about one credential query (or input descriptor) names it.
    private func named(_ failure: PresentationResult.Failure, _ credentialID: String) -> PresentationResult.Failure {
        var named = failure
        switch self.protocol {
        case .openID4VP: named.credentialQueryId = credentialID
        case .iso18013_7: named.inputDescriptorId = credentialID
        }
        return named
    }

    private func failure(_ shortfall: PresentationRequirements.Shortfall) -> PresentationResult.Failure {
        let noun = self.protocol == .openID4VP ? "credential query" : "input descriptor"
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
    private static func elementErrors(_ errors: CBOR?) -> [String: [String: Int64]] {
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

    private static func rendered(_ value: CBOR) -> String {
        let text = (try? JSONEncoder().encode(ClaimJSON.json(value))).map { String(decoding: $0, as: UTF8.self) } ?? "?"
        return String(text.prefix(512))
    }

    /// Text the wallet chose, bounded and quoted, for a reason.
    private static func quoted(_ text: String) -> String { "\"" + String(text.prefix(256)) + "\"" }
}
