import CBOR
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE
import MDoc
import OpenID4VP
import PresentationVerification
import X509

/// The tenant verifier's reading of a decrypted response's `vp_token` (docs/server-api.md "Verifier"): the protocol's
/// part only — `vp_token` of OpenID4VP 1.0 (credential query id → DeviceResponses) or ISO/IEC TS 18013-7:2024 (one
/// DeviceResponse) into DeviceResponses with the credential query each answers. Every check of a DeviceResponse, and the
/// result, are the shared `DeviceResponseVerification`'s (the SDK's proximity reader makes the same). Every protocol's
/// answer reaches it through `PresentationPipeline`; the decryption and the handover are the protocol's.
struct PresentationResponseVerifier: Sendable {
    /// The status failure of a credential whose MSO has `status`, issued under `iaca` (nil: valid).
    typealias StatusCheck = DeviceResponseVerification.StatusCheck

    /// The protocol the answer follows (`PresentationProtocol`'s values, switched over): OpenID4VP 1.0 §8.1 — and its
    /// Appendix A over the Digital Credentials API — has `vp_token` an object of credential query id → non-empty array
    /// of presentations; ISO/IEC TS 18013-7:2024 B.4.3 (and its Annex C answer) one base64url DeviceResponse.
    let `protocol`: PresentationProtocol.Known
    let requirements: PresentationRequirements
    /// The SessionTranscript device authentication is checked over; several candidates when the answer came through
    /// the W3C Digital Credentials API from a page that may be served from several origins (each document verifies
    /// under one of them: `MDocVerifier.verify(_:sessionTranscripts:at:)`).
    let transcripts: [SessionTranscript]
    let trust: IssuerTrust

    init(protocol: PresentationProtocol.Known, requirements: PresentationRequirements, transcript: SessionTranscript, trust: IssuerTrust) {
        self.init(protocol: `protocol`, requirements: requirements, transcripts: [transcript], trust: trust)
    }

    init(protocol: PresentationProtocol.Known, requirements: PresentationRequirements, transcripts: [SessionTranscript], trust: IssuerTrust) {
        self.protocol = `protocol`
        self.requirements = requirements
        self.transcripts = transcripts
        self.trust = trust
    }

    /// The result of `vpToken`, after `failures` found before it (the 2024 nonce), at `time`.
    func verify(vpToken: JSONValue?, at time: Date, failures prior: [PresentationResult.Failure] = [],
                status: @escaping StatusCheck) async throws -> PresentationResult {
        let verification = DeviceResponseVerification(requirements: requirements, transcripts: transcripts, trust: trust,
                                                      naming: Self.naming(self.protocol),
                                                      at: time, status: status)
        var outcome = DeviceResponseVerification.Outcome(failures: prior)
        var encoded: [(credentialID: String?, text: String)] = []
        switch self.protocol {
        case .openID4VP, .dcAPI:
            guard let token = vpToken?.objectValue else {
                return DeviceResponseVerification.failed(outcome.failures + [.init(code: PresentationFailureCode.malformed,
                                                                                   reason: "vp_token is not an object of credential query ids")])
            }
            for (key, value) in token.sorted(by: { $0.key < $1.key }) {
                guard requirements.credential(id: key) != nil else {
                    outcome.failures.append(.init(code: PresentationFailureCode.credentialNotRequested,
                                                  reason: "vp_token names the credential query \(DeviceResponseVerification.quoted(key)), which the request does not have",
                                                  credentialQueryId: String(key.prefix(256))))
                    continue
                }
                guard let items = value.arrayValue, !items.isEmpty, items.allSatisfy({ $0.stringValue != nil }) else {
                    outcome.failures.append(.init(code: PresentationFailureCode.malformed, reason: "vp_token.\(key) is not a non-empty array of presentations",
                                                  credentialQueryId: key))
                    continue
                }
                for item in items { if let text = item.stringValue { encoded.append((key, text)) } }
            }
        case .iso18013_7:
            guard let text = vpToken?.stringValue else {
                return DeviceResponseVerification.failed(outcome.failures + [.init(code: PresentationFailureCode.malformed,
                                                                                   reason: "vp_token is not a base64url DeviceResponse")])
            }
            encoded.append((nil, text))
        }
        for (credentialID, text) in encoded {
            guard let bytes = Base64URL.decode(text), let response = try? DeviceResponse(decoding: bytes) else {
                outcome.failures.append(.init(code: PresentationFailureCode.malformed, reason: "a vp_token entry is not a base64url DeviceResponse",
                                              credentialQueryId: credentialID))
                continue
            }
            try await verification.verify(response, answering: credentialID, into: &outcome)
        }
        return verification.result(outcome, nothingPresented: "vp_token holds no presentation")
    }

    /// What a document's failures are named after: OpenID4VP's credential query ids, 18013-7:2024's input descriptors.
    static func naming(_ protocol: PresentationProtocol.Known) -> DeviceResponseVerification.Naming {
        switch `protocol` {
        case .openID4VP, .dcAPI: .credentialQuery
        case .iso18013_7: .inputDescriptor
        }
    }
}
