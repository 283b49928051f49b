import Crypto
import Foundation
import HoldfastProtocol
import MDoc
import OpenID4VP
import Plumbing
import SwiftASN1
import PresentationVerification
import X509

extension MobileCredentialReader {
    /// A proximity answer's checks (docs/sdk.md "Reader"): the tenant verifier's (`DeviceResponseVerification`) over
    /// this session's transcript, device MAC keyed with the reader's ephemeral key, every element asked required. A
    /// DeviceResponse of status 10 without documents is the holder's decline (as the Digital Credentials API's is).
    func verify(_ bytes: [UInt8], asked: [ProximityReadRequest], transcript: SessionTranscript,
                readerKey: P256.KeyAgreement.PrivateKey) async -> PresentationResult {
        if let response = try? DeviceResponse(decoding: bytes), response.documents.isEmpty, response.documentErrors == nil,
           response.status == Self.declinedStatus {
            return PresentationResult(status: .declined)
        }
        let requirements = PresentationRequirements(itemsRequests: asked.map(\.itemsRequest))
        let statusLists = statusLists
        let verification = DeviceResponseVerification(
            requirements: requirements, transcripts: [transcript], trust: IssuerTrust(iacas: trustedIACAs), readerKey: readerKey,
            naming: .none, at: clock.now()) { reference, iaca in
                await Self.statusFailure(reference, iaca: iaca, statusLists: statusLists)
            }
        do {
            return try await verification.verify(deviceResponse: bytes)
        } catch {
            return DeviceResponseVerification.failed([.init(code: .statusUnknown, reason: "the status check failed: \(error)")])
        }
    }

    /// ISO/IEC 18013-5 §8.3.2.1.2.3 status 10, what a holder's decline carries.
    static let declinedStatus: UInt64 = 10

    /// The status list's word on a credential (draft-ietf-oauth-status-list), fetched and cached as the holder's are
    /// (`StatusListCache`), checked against the IACA the credential chained to; offline (no cache) a credential that
    /// names a list is `STATUS_UNKNOWN`, as at the tenant.
    static func statusFailure(_ reference: MobileSecurityObject.StatusReference?, iaca: Certificate,
                              statusLists: StatusListCache?) async -> PresentationResult.Failure? {
        guard let reference else { return nil }
        guard let statusLists else {
            return .init(code: .statusUnknown, reason: "the credential names the status list \(reference.uri.prefix(256)) and the reader is offline")
        }
        var serializer = DER.Serializer()
        try? serializer.serialize(iaca)
        let anchorID = Hex.encode(Array(SHA256.hash(data: serializer.serializedBytes)))
        switch await statusLists.status(of: reference, trust: StatusTrust(id: anchorID, anchors: [iaca]), online: true) {
        case .valid: return DeviceResponseVerification.statusFailure(value: 0)
        case .revoked: return DeviceResponseVerification.statusFailure(value: 1)
        case .suspended: return DeviceResponseVerification.statusFailure(value: 2)
        case .other(let value): return DeviceResponseVerification.statusFailure(value: value)
        case .unknown(let why): return .init(code: .statusUnknown, reason: "the status list \(reference.uri.prefix(256)) could not be read (\(why.rawValue))")
        }
    }
}
