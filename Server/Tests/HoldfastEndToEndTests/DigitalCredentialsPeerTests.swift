import DigitalCredentials
import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import holdfast
import JOSE
import Testing
import TestSupport
import X509

/// ISO/IEC TS 18013-7 Annex C answers read by implementations that share no code with Holdfast's: the SDK's answer
/// (`holdfast device present-digital`) opened by pyhpke with its own SessionTranscript (Server/Tests/Peers/annex_c_hpke.py,
/// cbor2) and its DeviceResponse's device signature verified by Google's isomdoc over that transcript
/// (shared/peers/peer_mdoc.py); and the other way round, a DeviceResponse made by isomdoc's builder for a mDoc the peers
/// issued, sealed by pyhpke, answered to the tenant's `dc-api` session and verified there.
@Suite(.serialized) struct DigitalCredentialsPeerTests {
    static func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test(.enabled(if: Peer.isAvailable, Peer.unavailableReason))
    func theSDKsAnnexCAnswerOpensInPyhpkeAndVerifiesInIsomdoc() async throws {
        try await EndToEndBackend.sqlite.withTenant { tenant in
            try await CredentialsEndToEndTests.configure(tenant)
            let iacaPEM = try #require(try await tenant.admin.iacas().data.first).certificatePem
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            let state = tenant.scratch.appendingPathComponent("peer-present-digital").path
            let tethered = try DeviceOptions.parse(["--state", state, "--tenant", tenant.baseURL, "--application", applicationId])
            #expect(await DeviceSession(options: tethered).perform(.register).ok)
            _ = try await DeviceIssuers.Add.output(try DeviceOptions.parse(["--state", state]), pem: iacaPEM)
            _ = try await DeviceClaim.output(tethered, uri: try await CredentialsEndToEndTests.offer(tenant, txCode: false).offerUri, txCode: nil)
            let page = try DigitalCredentialsPage(iaca: try Certificate(pemEncoded: iacaPEM))
            let request = try page.annexCRequest()
            let (answer, _) = try await DevicePresentDigitalEndToEndTests.presentDigital(state: state, request: try request.request.jsonBytes(),
                                                                                         in: tenant.scratch, ["--yes"])
            let sealed = try #require(answer.data["response"]?.stringValue)

            // pyhpke opens it with the page's key, for the page's origin, with a transcript of its own making.
            let opened = try await Peer.run(script: Peer.projectScriptsDirectory.appendingPathComponent("annex_c_hpke.py"), [
                "open", request.encryptionInfo.base64URL, DigitalCredentialsPage.origin, Self.hex(page.encryptionKey.rawRepresentation), sealed,
            ])
            let object = try opened.object()
            #expect(opened.accepted, "\(object)")
            let plaintext = try #require(object["plaintext_hex"] as? String)
            let transcript = try #require(object["session_transcript_hex"] as? String)
            #expect(transcript == Self.hex(request.sessionTranscript(origin: DigitalCredentialsPage.origin).encoded))

            // isomdoc verifies the DeviceResponse, its device signature over that transcript included.
            let verified = try await Peer.run("peer_mdoc.py", ["verify", "--input", plaintext, "--impl", "isomdoc",
                                                               "--session-transcript", transcript])
            let results = try #require(try verified.object()["results"] as? [[String: Any]])
            #expect(verified.accepted && results.first?["device_signature_checked"] as? Bool == true
                    && results.first?["valid"] as? Bool == true, "\(results)")

            // For another origin pyhpke cannot open it: the origin is bound into the encryption.
            let elsewhere = try await Peer.run(script: Peer.projectScriptsDirectory.appendingPathComponent("annex_c_hpke.py"), [
                "open", request.encryptionInfo.base64URL, "https://other.example", Self.hex(page.encryptionKey.rawRepresentation), sealed,
            ])
            #expect(!elsewhere.accepted)
        }
    }

    /// The other way round: the peers issue an mDL (peer_pki.py's IACA and document signer, isomdoc's issuer), build
    /// its DeviceResponse over the Annex C transcript of the tenant's `dc-api` request (isomdoc's builder; the
    /// transcript made by annex_c_hpke.py), and pyhpke seals it to the request's key; the tenant, trusting that IACA,
    /// opens and verifies it.
    @Test(.enabled(if: Peer.isAvailable, Peer.unavailableReason))
    func anAnnexCAnswerMadeByThePeersIsVerifiedByTheTenant() async throws {
        try await PresentationEndToEndTests.withLocalhostTenant(.sqlite) { tenant in
            let directory = tenant.scratch.appendingPathComponent("peer-mdoc-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let pki = try await Peer.run("peer_pki.py", ["mdoc", "--out", directory.path])
            #expect(pki.accepted, "\(pki.stderr)")
            let iacaPEM = try String(contentsOf: directory.appendingPathComponent("iaca.pem"), encoding: .utf8)
            _ = try await tenant.admin.addTrustedIssuer(PresentationTrustedIssuer(certificatePem: iacaPEM))
            let hourAgo = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-3_600))
            let issued = try await Peer.run("peer_mdoc.py", [
                "issue", "--impl", "isomdoc", "--doctype", "org.iso.18013.5.1.mDL",
                "--elements", #"{"org.iso.18013.5.1": {"family_name": "Doe", "age_over_18": true}}"#,
                "--issuer-key", directory.appendingPathComponent("ds_key.pem").path,
                "--issuer-cert", directory.appendingPathComponent("ds.pem").path,
                "--device-key", directory.appendingPathComponent("device_pub.pem").path,
                "--valid-from", hourAgo, "--signed", hourAgo,
            ])
            let issuerSigned = try #require(try issued.object()["issuer_signed_hex"] as? String, "\(issued.stdout) \(issued.stderr)")

            let created = try await DigitalCredentialsEndToEndTests.session(tenant, protocols: ["org-iso-mdoc"])
            let data = try #require(created.digital.requests.first?.data)
            let encryptionInfo = try #require(data["encryptionInfo"]?.stringValue)
            let script = Peer.projectScriptsDirectory.appendingPathComponent("annex_c_hpke.py")
            let transcript = try #require(try await Peer.run(script: script, ["transcript", encryptionInfo, DigitalCredentialsEndToEndTests.origin])
                .object()["session_transcript_hex"] as? String)
            let presented = try await Peer.run("peer_mdoc.py", [
                "present", "--issuer-signed", issuerSigned, "--device-key", directory.appendingPathComponent("device_key.pem").path,
                "--session-transcript", transcript, "--doctype", "org.iso.18013.5.1.mDL",
            ])
            let presentedObject = try presented.object()
            let deviceResponse = try #require(presentedObject["device_response_hex"] as? String,
                                              "\(presentedObject)")
            let sealed = try await Peer.run(script: script, ["seal", encryptionInfo, DigitalCredentialsEndToEndTests.origin, deviceResponse])
            let response = try #require(try sealed.object()["response"] as? String, "\(sealed.stdout)")

            let answer = #"{"protocol":"org-iso-mdoc","data":{"response":"\#(response)"}}"#
            let answered = try await DigitalCredentialsEndToEndTests.answer(tenant, sessionId: created.sessionId, Data(answer.utf8))
            #expect(answered.status == 200, "\(answered.body)")
            let result = try await PresentationEndToEndTests.result(tenant, created.sessionId)
            #expect(result.status == .verified, "\(result)")
            #expect(result.credentials?.first?.claims["org.iso.18013.5.1"]?["family_name"] == .string("Doe"), "\(result)")
        }
    }
}
