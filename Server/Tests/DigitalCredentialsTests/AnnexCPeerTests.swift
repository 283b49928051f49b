import Crypto
import DigitalCredentials
import Foundation
import JOSE
import MDoc
import Plumbing
import Testing
import TestSupport

/// Annex C response encryption against a second implementation (Tests/Peers/annex_c_hpke.py: pyhpke for RFC 9180,
/// cbor2 for the structures and its own SessionTranscript): what this side seals opens there, what that side seals
/// opens here, both over the same transcript bytes, and neither for another origin.
@Suite(.enabled(if: Peer.isAvailable, Peer.unavailableReason))
struct AnnexCPeerTests {
    static let script = Peer.projectScriptsDirectory.appendingPathComponent("annex_c_hpke.py")
    static let origin = "https://shop.example"

    let recipientKey = P256.KeyAgreement.PrivateKey()

    /// Annex D's DeviceResponse, a real one of some size.
    var deviceResponse: [UInt8] {
        get throws {
            let hex = try #require(try TestEnvironment.jsonVector("mdoc/iso18013-5-annex-d.json")["hex"] as? [String: String])
            return hexBytes(try #require(hex["DEVICE_RESPONSE"]))
        }
    }

    @Test func whatIsSealedHereOpensInPyhpke() async throws {
        let info = try EncryptionInfo(recipientPublicKey: recipientKey.publicKey)
        let sealed = try AnnexCEncryption.seal(deviceResponse: try deviceResponse, to: info, origin: Self.origin)
        let response = try #require(AnnexCResponse(encryptedResponse: sealed).data["response"]?.stringValue)
        let key = Hex.encode(Array(recipientKey.rawRepresentation))
        let result = try await Peer.run(script: Self.script, ["open", info.base64URL, Self.origin, key, response])
        #expect(result.accepted, "\(result.stdout) \(result.stderr)")
        let object = try result.object()
        #expect(object["plaintext_hex"] as? String == Hex.encode(try deviceResponse))
        #expect(object["session_transcript_hex"] as? String
            == Hex.encode(SessionTranscript.dcapi(encryptionInfo: info.base64URL, origin: Self.origin).encoded))
        let elsewhere = try await Peer.run(script: Self.script, ["open", info.base64URL, "https://evil.example", key, response])
        #expect(!elsewhere.accepted)
    }

    @Test func whatPyhpkeSealsOpensHere() async throws {
        let info = try EncryptionInfo(recipientPublicKey: recipientKey.publicKey)
        let result = try await Peer.run(script: Self.script, ["seal", info.base64URL, Self.origin, Hex.encode(try deviceResponse)])
        #expect(result.accepted, "\(result.stdout) \(result.stderr)")
        let object = try result.object()
        let response = try AnnexCResponse(data: ["response": .string(try #require(object["response"] as? String))])
        let opened = try AnnexCEncryption.open(response.encryptedResponse, recipientKey: recipientKey, encryptionInfo: info.base64URL,
                                               origins: ["https://other.example", Self.origin])
        #expect(opened.deviceResponse == (try deviceResponse) && opened.origin == Self.origin)
        #expect(object["session_transcript_hex"] as? String == Hex.encode(opened.sessionTranscript.encoded))
        #expect(throws: DigitalCredentialsError.decryptionFailed) {
            try AnnexCEncryption.open(response.encryptedResponse, recipientKey: recipientKey, encryptionInfo: info.base64URL,
                                      origins: ["https://evil.example"])
        }
    }
}
