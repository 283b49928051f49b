import CBOR
import COSE
import Crypto
import Foundation
import MDoc
import OpenID4VP
import Testing
import TestSupport
import X509

/// mDocs issued by the peers (pymdoccbor, isomdoc, openid4vci's `mso_mdoc` adapter; shared/peers/peer_mdoc.py)
/// verify in `MDoc`, and ours verify in pymdoccbor and isomdoc, the device signature included.
@Suite(.enabled(if: Peer.isAvailable, Peer.unavailableReason))
struct MDocPeerTests {
    static let docType = "org.iso.18013.5.1.mDL"
    static let elements = #"{"org.iso.18013.5.1": {"family_name": "Doe", "birth_date": {"$date": "1990-01-01"}, "document_number": "X1", "portrait": {"$hex": "ffd8ffe0"}}}"#

    func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mdoc-peer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test(arguments: ["pymdoccbor", "isomdoc", "openid4vci"])
    func peerIssuedMDocVerifiesHere(_ implementation: String) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pki = try await Peer.run("peer_pki.py", ["mdoc", "--out", directory.path])
        #expect(pki.accepted, "\(pki.stderr)")
        var arguments = ["issue", "--impl", implementation, "--doctype", Self.docType, "--elements", Self.elements,
                         "--issuer-key", directory.appendingPathComponent("ds_key.pem").path,
                         "--issuer-cert", directory.appendingPathComponent("ds.pem").path,
                         "--device-key", directory.appendingPathComponent("device_pub.pem").path]
        if implementation == "pymdoccbor" { arguments += ["--status-uri", "https://issuer.example/status/1", "--status-idx", "77"] }
        let issued = try await Peer.run("peer_mdoc.py", arguments)
        #expect(issued.accepted, "\(issued.stderr)")
        let bytes = hexBytes(try #require(try issued.object()["issuer_signed_hex"] as? String))
        let trust = try IssuerTrust(pem: try String(contentsOf: directory.appendingPathComponent("iaca.pem"), encoding: .utf8))

        let issuerSigned = try IssuerSigned(decoding: bytes)
        let verified = try await MDocVerifier(trust: trust).verify(issuerSigned, docType: Self.docType, at: Date().addingTimeInterval(3600))
        #expect(issuerSigned.value("family_name", in: "org.iso.18013.5.1") == .text("Doe"))
        #expect(issuerSigned.value("birth_date", in: "org.iso.18013.5.1") == .tagged(1004, .text("1990-01-01")))
        #expect(issuerSigned.value("portrait", in: "org.iso.18013.5.1") == .bytes([0xFF, 0xD8, 0xFF, 0xE0]))
        let devicePub = try P256.Signing.PublicKey(pemRepresentation: String(contentsOf: directory.appendingPathComponent("device_pub.pem"), encoding: .utf8))
        #expect(verified.mso.deviceKey == COSEKey(publicKey: devicePub))
        if implementation == "pymdoccbor" {
            #expect(verified.mso.status == MobileSecurityObject.StatusReference(index: 77, uri: "https://issuer.example/status/1"))
        }
        // A changed element fails here as it does there.
        var mutated = bytes
        let at = try #require(mutated.firstRange(of: Array("X1".utf8))).lowerBound
        mutated[at] = UInt8(ascii: "Y")
        await #expect(throws: MDocError.digestMismatch(nameSpace: "org.iso.18013.5.1", elementIdentifier: "document_number")) {
            try await MDocVerifier(trust: trust).verify(try IssuerSigned(decoding: mutated), at: Date().addingTimeInterval(3600))
        }
    }

    @Test func ourMDocVerifiesInPymdoccborAndIsomdocWithTheDeviceSignature() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The peers check validity against their own clock: issue around now.
        let now = Date()
        let test = try TestIssuer(signerNotBefore: now.addingTimeInterval(-86_400), signerNotAfter: now.addingTimeInterval(300 * 86_400),
                                  iacaTransform: { key, name in
                                      try MDocCertificates.iaca(key: key, subject: name, notBefore: now.addingTimeInterval(-2 * 86_400),
                                                                notAfter: now.addingTimeInterval(900 * 86_400))
                                  })
        let deviceKey = P256.Signing.PrivateKey()
        let issued = try test.issueMDL(deviceKey: deviceKey, signed: now.addingTimeInterval(-60))
        let transcript = SessionTranscript.openID4VP(clientId: "x509_hash:abc", nonce: "nonce-1", jwkThumbprint: [9, 9],
                                                     responseUri: "https://verifier.example/response")
        let disclosed = issued.disclosing([TestIssuer.mdlNameSpace: ["family_name", "age_over_18", "birth_date"]])
        let deviceSigned = try DeviceSigned.sign(docType: Self.docType, sessionTranscript: transcript, signer: COSESigningKey.p256(deviceKey))
        let response = DeviceResponse(documents: [Document(docType: Self.docType, issuerSigned: disclosed, deviceSigned: deviceSigned)])

        let iacaPEM = directory.appendingPathComponent("iaca.pem")
        try test.iaca.serializeAsPEM().pemString.write(to: iacaPEM, atomically: true, encoding: .utf8)
        let responseFile = try Peer.fileArgument(response.encoded(), name: "dr-\(UUID().uuidString).cbor")
        let transcriptFile = try Peer.fileArgument(transcript.encoded, name: "st-\(UUID().uuidString).cbor")
        let result = try await Peer.run("peer_mdoc.py", ["verify", "--input", responseFile, "--impl", "all",
                                                         "--session-transcript", transcriptFile, "--trust-root", iacaPEM.path])
        let object = try result.object()
        #expect(result.accepted, "\(object)")
        let results = try #require(object["results"] as? [[String: Any]])
        let isomdoc = try #require(results.first { $0["impl"] as? String == "isomdoc" })
        #expect(isomdoc["device_signature_checked"] as? Bool == true)
        #expect(isomdoc["valid"] as? Bool == true)
        #expect(results.first { $0["impl"] as? String == "pymdoccbor" }?["valid"] as? Bool == true)

        // Another transcript: isomdoc refuses the device signature.
        let otherTranscript = SessionTranscript.openID4VP(clientId: "x509_hash:abc", nonce: "nonce-2", jwkThumbprint: [9, 9],
                                                          responseUri: "https://verifier.example/response")
        let otherFile = try Peer.fileArgument(otherTranscript.encoded, name: "st-\(UUID().uuidString).cbor")
        let refused = try await Peer.run("peer_mdoc.py", ["verify", "--input", responseFile, "--impl", "isomdoc",
                                                          "--session-transcript", otherFile])
        #expect(!refused.accepted)
    }

    /// Our two online SessionTranscripts equal the peers' (glue written from the same specs).
    @Test func sessionTranscriptsMatchThePeerGlue() async throws {
        let openID = try await Peer.run("peer_mdoc.py", ["session-transcript", "--profile", "oid4vp", "--client-id", "x509_hash:Zm9v",
                                                         "--nonce", "n0", "--response-uri", "https://v.example/r", "--jwk-thumbprint", "0a0b"])
        #expect(hexBytes(try #require(try openID.object()["session_transcript_hex"] as? String))
            == SessionTranscript.openID4VP(clientId: "x509_hash:Zm9v", nonce: "n0", jwkThumbprint: [0x0A, 0x0B],
                                           responseUri: "https://v.example/r").encoded)
        let iso = try await Peer.run("peer_mdoc.py", ["session-transcript", "--profile", "iso18013-7", "--client-id", "v.example",
                                                      "--nonce", "n1", "--response-uri", "https://v.example/r", "--mdoc-generated-nonce", "mgn"])
        #expect(hexBytes(try #require(try iso.object()["session_transcript_hex"] as? String))
            == SessionTranscript.iso18013_7(clientId: "v.example", responseUri: "https://v.example/r", nonce: "n1", mdocGeneratedNonce: "mgn").encoded)
    }
}
