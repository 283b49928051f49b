import CBOR
import Crypto
import Foundation
import HoldfastProtocol
import JOSE
import MDoc
import OpenID4VP
import X509

/// The checks of a presented DeviceResponse, shared by the tenant's verifier (OpenID4VP 1.0, ISO/IEC TS 18013-7
/// Annexes B and C, the W3C Digital Credentials API: docs/server-api.md "Verifier") and the SDK's proximity mdoc
/// reader (ISO/IEC 18013-5), so that both give the same `PresentationResult` after the same checks: the DeviceResponse's
/// `status` and `documentErrors` (§8.3.2.1.2.2, §8.3.2.1.2.3); for each document, the docType asked, the mdoc reader's
/// checks of §9.3.1 (`MDocVerifier`: the document signer's path to a trusted IACA, issuerAuth, digests, docType,
/// validity, device authentication — a signature, or a deviceMac given the reader's ephemeral key — over one of the
/// candidate SessionTranscripts), nothing shown that was not asked, the status list (the caller's closure); then what the
/// requirements say is missing (`PresentationRequirements.shortfalls`). Each refusal is one named check with its code
/// (`PresentationFailureCode`).
///
/// How the DeviceResponses were carried (a `vp_token`, an HPKE-sealed Annex C response, a proximity session message)
/// is the caller's: it gives each DeviceResponse with the credential query it answers, if any (`verify(_:answering:into:)`),
/// and asks for the result (`result(_:nothingPresented:)`).
public struct DeviceResponseVerification: Sendable {
    /// How failures and credentials name what they answer.
    public enum Naming: Sendable, Hashable {
        /// OpenID4VP 1.0: `credentialQueryId` (the DCQL credential query, the `vp_token` key).
        case credentialQuery
        /// ISO/IEC TS 18013-7:2024: `inputDescriptorId` (the input descriptor, its id the docType).
        case inputDescriptor
        /// ISO/IEC 18013-5 proximity: neither (a document request is known by its docType).
        case none
    }

    /// The status failure of a credential whose MSO has `status`, issued under `iaca` (nil: valid).
    public typealias StatusCheck = @Sendable (_ status: MobileSecurityObject.StatusReference?, _ iaca: Certificate) async throws -> PresentationResult.Failure?

    public let requirements: PresentationRequirements
    /// The SessionTranscripts device authentication is checked over: several when the answer came through the W3C
    /// Digital Credentials API from a page that may be served from several origins (each document verifies under one).
    public let transcripts: [SessionTranscript]
    public let trust: IssuerTrust
    /// The reader's ephemeral private key (ISO/IEC 18013-5 §9.1.1.4), with which a deviceMac is verified; nil refuses
    /// a deviceMac (online presentation has no session keys).
    public let readerKey: P256.KeyAgreement.PrivateKey?
    public let naming: Naming
    public let status: StatusCheck
    public let time: Date

    public init(requirements: PresentationRequirements, transcripts: [SessionTranscript], trust: IssuerTrust,
                readerKey: P256.KeyAgreement.PrivateKey? = nil, naming: Naming, at time: Date, status: @escaping StatusCheck) {
        self.requirements = requirements
        self.transcripts = transcripts
        self.trust = trust
        self.readerKey = readerKey
        self.naming = naming
        self.time = time
        self.status = status
    }

    /// What the verification of one or more DeviceResponses gathered, before the requirements are asked.
    public struct Outcome: Sendable {
        public var failures: [PresentationResult.Failure]
        public var credentials: [PresentationResult.Credential] = []
        var presented: [PresentationRequirements.Presented] = []

        /// An outcome starting with `failures` found before (for example a nonce that did not match).
        public init(failures: [PresentationResult.Failure] = []) {
            self.failures = failures
        }
    }

    /// One proximity answer (or any answer of one DeviceResponse that answers no named query): its checks and the result.
    public func verify(_ response: DeviceResponse) async throws -> PresentationResult {
        var outcome = Outcome()
        try await verify(response, answering: nil, into: &outcome)
        return result(outcome, nothingPresented: "the DeviceResponse holds no document")
    }

    /// `verify(_:)` of a DeviceResponse's bytes; bytes that are not a DeviceResponse are `MALFORMED`.
    public func verify(deviceResponse bytes: [UInt8]) async throws -> PresentationResult {
        let response: DeviceResponse
        do { response = try DeviceResponse(decoding: bytes) } catch {
            return Self.failed([.init(code: PresentationFailureCode.malformed, reason: "not a DeviceResponse: \(error.description)")])
        }
        return try await verify(response)
    }

    /// The checks of one DeviceResponse that answers the credential query `credentialID` (nil: each document answers
    /// the requirement of its docType), added to `outcome`. Throws only what the status check throws.
    public func verify(_ response: DeviceResponse, answering credentialID: String?, into outcome: inout Outcome) async throws {
        // ISO/IEC 18013-5 §8.3.2.1.2.3: a status other than 0 (OK) is an error the mdoc reports.
        if response.status != DeviceResponse.statusOK {
            outcome.failures.append(named(.init(code: PresentationFailureCode.deviceResponseStatus,
                                                reason: "the DeviceResponse's status is \(response.status), not 0",
                                                value: .integer(Int64(clamping: response.status))), credentialID))
        }
        // §8.3.2.1.2.2: documentErrors lists documents the mdoc could not return.
        if let errors = response.documentErrors {
            outcome.failures.append(named(.init(code: PresentationFailureCode.documentErrors,
                                                reason: "the DeviceResponse carries documentErrors \(Self.rendered(errors))",
                                                value: ClaimJSON.json(errors)), credentialID))
        }
        for document in response.documents {
            let requested: PresentationRequirements.Credential?
            if let credentialID {
                requested = requirements.credential(id: credentialID).flatMap { $0.docType == document.docType ? $0 : nil }
            } else {
                requested = requirements.credentials.first { $0.docType == document.docType }
            }
            guard let requested else {
                outcome.failures.append(named(.init(code: PresentationFailureCode.docTypeMismatch,
                                                    reason: "\(Self.quoted(document.docType)) was not asked for"), credentialID))
                continue
            }
            // Each namespace's elements gathered apart, then stored once (not a nested lookup per element).
            var shown: [String: [String: JSONValue]] = Dictionary(minimumCapacity: document.issuerSigned.nameSpaces.count)
            for space in document.issuerSigned.nameSpaces {
                var elements = shown.removeValue(forKey: space.name) ?? Dictionary(minimumCapacity: space.items.count)
                for item in space.items { elements[item.elementIdentifier] = ClaimJSON.json(item.elementValue) }
                shown[space.name] = elements
            }
            outcome.presented.append(.init(credentialId: requested.id, elements: shown, elementErrors: Self.elementErrors(document.errors)))
            let verified: MDocVerifier.Verified
            do {
                verified = try await MDocVerifier(trust: trust, readerKey: readerKey).verify(document, sessionTranscripts: transcripts, at: time).verified
            } catch {
                outcome.failures.append(named(.init(code: Self.code(error), reason: error.description), requested.id))
                continue
            }
            var disclosed: [String: [String: JSONValue]] = Dictionary(minimumCapacity: shown.count)
            for (space, elements) in shown.sorted(by: { $0.key < $1.key }) {
                var kept: [String: JSONValue] = Dictionary(minimumCapacity: elements.count)
                for (element, value) in elements.sorted(by: { $0.key < $1.key }) {
                    guard requested.claims.contains(where: { $0.nameSpace == space && $0.element == element }) else {
                        outcome.failures.append(named(.init(code: PresentationFailureCode.elementNotRequested,
                                                            reason: "\(space)/\(element) was not asked for", path: [space, element]), requested.id))
                        continue
                    }
                    kept[element] = value
                }
                if !kept.isEmpty { disclosed[space] = kept }
            }
            if let failure = try await status(verified.mso.status, verified.iaca) { outcome.failures.append(named(failure, requested.id)) }
            outcome.credentials.append(credential(requested.id, document.docType, disclosed, verified))
        }
    }

    /// The result of what `outcome` gathered: its failures and what the requirements say is missing; a response
    /// that passed everything yet shows no claim at all fails `MALFORMED` with `nothingPresented`.
    public func result(_ outcome: Outcome, nothingPresented: String) -> PresentationResult {
        var failures = outcome.failures
        for shortfall in requirements.shortfalls(outcome.presented) { failures.append(failure(shortfall)) }
        if failures.isEmpty, outcome.credentials.allSatisfy({ $0.claims.isEmpty }) {
            failures.append(.init(code: PresentationFailureCode.malformed, reason: nothingPresented))
        }
        return failures.isEmpty ? PresentationResult.verified(outcome.credentials) : Self.failed(failures)
    }

    /// A failed result of `failures`.
    public static func failed(_ failures: [PresentationResult.Failure]) -> PresentationResult {
        PresentationResult(status: .failed, failures: failures)
    }

    /// One presented document as the result shows it (docs/server-api.md "Verifier"), apart from any other, with the
    /// credential query (or input descriptor) it answered. Its status passed the check before: `valid` when the MSO
    /// names a status list, which then said 0.
    private func credential(_ credentialID: String, _ docType: String, _ claims: [String: [String: JSONValue]],
                            _ verified: MDocVerifier.Verified) -> PresentationResult.Credential {
        var credential = PresentationResult.Credential(
            docType: docType, claims: claims,
            issuer: .init(subject: verified.documentSignerSubject, iaca: verified.iacaSubject),
            status: verified.mso.status == nil ? .notRevocable : .valid)
        switch naming {
        case .credentialQuery: credential.credentialQueryId = credentialID
        case .inputDescriptor: credential.inputDescriptorId = credentialID
        case .none: break
        }
        return credential
    }

    /// A failure about one credential query (or input descriptor) names it, as `naming` says.
    public func named(_ failure: PresentationResult.Failure, _ credentialID: String?) -> PresentationResult.Failure {
        guard let credentialID else { return failure }
        var named = failure
        switch naming {
        case .credentialQuery: named.credentialQueryId = credentialID
        case .inputDescriptor: named.inputDescriptorId = credentialID
        case .none: break
        }
        return named
    }
}
