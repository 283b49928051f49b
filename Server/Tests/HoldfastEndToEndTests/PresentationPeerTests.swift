import CBOR
import COSE
import Crypto
import Foundation
import HoldfastProtocol
@testable import HoldfastSDK
import MDoc
import OpenID4VP
import Testing
import TestSupport

/// The SDK's device signature — made by the secure area, the COSE_Sign1 assembled around it — read by isomdoc of
/// `shared/peers/` over the same SessionTranscript, and refused over another (docs/sdk.md "Holder: presentation").
@Suite(.enabled(if: Peer.isAvailable, Peer.unavailableReason))
struct PresentationPeerTests {
    @Test(arguments: [PresentationProtocol.openID4VP, .iso18013_7])
    func isomdocVerifiesTheSDKsDeviceResponse(_ presentationProtocol: PresentationProtocol) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-present-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let storage = FileSecureStorage(directory: folder, applicationId: "holdfast-sdk")
        let secureArea = SoftwareSecureArea(storage: storage)
        let deviceKey = try await secureArea.createKey(alias: "credential-1")

        let now = Date()
        let iacaKey = P256.Signing.PrivateKey(), signerKey = P256.Signing.PrivateKey()
        let iaca = try MDocCertificates.iaca(key: iacaKey, subject: try MDocCertificates.name(commonName: "Peer test IACA", country: "ZZ"),
                                             notBefore: now.addingTimeInterval(-2 * 86_400), notAfter: now.addingTimeInterval(900 * 86_400))
        let signer = try MDocCertificates.signer(publicKey: signerKey.publicKey, subject: try MDocCertificates.name(commonName: "Peer test DS", country: "ZZ"),
                                                 iaca: iaca, iacaKey: iacaKey, notBefore: now.addingTimeInterval(-86_400),
                                                 notAfter: now.addingTimeInterval(300 * 86_400))
        let signed = Date(timeIntervalSince1970: now.addingTimeInterval(-60).timeIntervalSince1970.rounded(.down))
        let issued = try MDocIssuer(signer: COSESigningKey.p256(signerKey), certificateChain: [try MDocCertificates.der(signer)]).issue(
            docType: "org.iso.18013.5.1.mDL",
            nameSpaces: [.init(name: "org.iso.18013.5.1", elements: [("family_name", .text("Doe")), ("age_over_18", .bool(true)),
                                                                     ("birth_date", .tagged(1004, .text("1990-02-28")))])],
            deviceKey: COSEKey(publicKey: deviceKey), validity: .init(signed: signed, validFrom: signed, validUntil: now.addingTimeInterval(86_400)))

        func transcript(nonce: String) -> SessionTranscript {
            switch presentationProtocol {
            case .openID4VP:
                SessionTranscript.openID4VP(clientId: "x509_hash:abc", nonce: nonce, jwkThumbprint: [1, 2, 3], responseUri: "https://verifier.example/r")
            default: // .iso18013_7, the other protocol these tests are run with
                SessionTranscript.iso18013_7(clientId: "verifier.example", responseUri: "https://verifier.example/r", nonce: nonce,
                                             mdocGeneratedNonce: "mdoc-nonce")
            }
        }
        let deviceSigned = try await OnlinePresentationSession.deviceSigned(docType: "org.iso.18013.5.1.mDL", transcript: transcript(nonce: "n-1"),
                                                                           alias: "credential-1", secureArea: secureArea)
        let response = DeviceResponse(documents: [Document(docType: "org.iso.18013.5.1.mDL",
                                                           issuerSigned: issued.disclosing(["org.iso.18013.5.1": ["family_name"]]),
                                                           deviceSigned: deviceSigned)])
        let responseFile = try Peer.fileArgument(response.encoded(), name: "dr-\(UUID().uuidString).cbor")
        let transcriptFile = try Peer.fileArgument(transcript(nonce: "n-1").encoded, name: "st-\(UUID().uuidString).cbor")
        let accepted = try await Peer.run("peer_mdoc.py", ["verify", "--input", responseFile, "--impl", "isomdoc", "--session-transcript", transcriptFile])
        let object = try accepted.object()
        #expect(accepted.accepted, "\(object)")
        let isomdoc = try #require((object["results"] as? [[String: Any]])?.first { $0["impl"] as? String == "isomdoc" })
        #expect(isomdoc["device_signature_checked"] as? Bool == true && isomdoc["valid"] as? Bool == true, "\(isomdoc)")

        let otherFile = try Peer.fileArgument(transcript(nonce: "n-2").encoded, name: "st-\(UUID().uuidString).cbor")
        #expect(!(try await Peer.run("peer_mdoc.py", ["verify", "--input", responseFile, "--impl", "isomdoc", "--session-transcript", otherFile]).accepted))
    }
}
