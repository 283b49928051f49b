import CBOR
import Crypto
import Foundation
import HoldfastProtocol
import JOSE
import MDoc
import OpenID4VP
import PresentationVerification
import Testing
import TestSupport
import X509

/// ISO/IEC 18013-5 Annex D (shared/vectors/mdoc/iso18013-5-annex-d.json) verified in full by the shared checks, as the
/// proximity reader makes them: the DeviceRequest's requirements, the chain to the Annex D IACA, issuerAuth, every
/// digest, validity, and the deviceMac (§9.1.3.5) under EMacKey of the reader's ephemeral key and the MSO's device key.
@Suite struct AnnexDVerificationTests {
    let hex: [String: String]
    let vector: [String: Any]

    init() throws {
        vector = try TestEnvironment.jsonVector("mdoc/iso18013-5-annex-d.json")
        hex = try #require(vector["hex"] as? [String: String])
    }

    func bytes(_ name: String) throws -> [UInt8] { hexBytes(try #require(hex[name])) }

    var iaca: Certificate {
        get throws {
            let certificates = try #require(vector["certificates"] as? [String: Any])
            return try Certificate(derEncoded: hexBytes(try #require(certificates["iacaDerHex"] as? String)))
        }
    }

    /// Inside the window the vector gives: [MSO validFrom 2020-10-01T13:30:02Z, DS notAfter 2021-10-01T00:00:00Z).
    let inValidity = try! Date("2021-01-01T00:00:00Z", strategy: .iso8601)

    var readerKey: P256.KeyAgreement.PrivateKey { get throws { try P256.KeyAgreement.PrivateKey(rawRepresentation: try bytes("EPHEMERAL_READER_KEY_D")) } }

    func verification(transcript: SessionTranscript? = nil, readerKey: P256.KeyAgreement.PrivateKey? = nil) throws -> DeviceResponseVerification {
        DeviceResponseVerification(requirements: PresentationRequirements(deviceRequest: try DeviceRequest(decoding: try bytes("DEVICE_REQUEST"))),
                                   transcripts: [try transcript ?? SessionTranscript(taggedBytes: try bytes("SESSION_TRANSCRIPT_BYTES"))],
                                   trust: IssuerTrust(iacas: [try iaca], paths: DocumentSignerPaths()),
                                   readerKey: try readerKey ?? self.readerKey, naming: .none, at: inValidity) { _, _ in nil }
    }

    @Test func eMacKeyIsTheVectors() throws {
        let expected = try #require(((vector["expected"] as? [String: Any])?["deviceResponse"] as? [String: Any])?["eMacKey"] as? [String: Any])
        let document = try #require(try DeviceResponse(decoding: try bytes("DEVICE_RESPONSE")).documents.first)
        let transcript = try SessionTranscript(taggedBytes: try bytes("SESSION_TRANSCRIPT_BYTES"))
        let deviceKey = try EMacKey.agreementKey(document.issuerSigned.mso.deviceKey)
        let key = try EMacKey.derive(readerKey: try readerKey, deviceKey: deviceKey, sessionTranscript: transcript)
        #expect(key.withUnsafeBytes { Array($0) } == hexBytes(try #require(expected["valueHex"] as? String)))
        // The mdoc's side (its static device key, the reader's public key) derives the same key.
        let mdocSide = try EMacKey.derive(deviceKey: try P256.KeyAgreement.PrivateKey(rawRepresentation: try bytes("STATIC_DEVICE_KEY_D")),
                                          readerKey: try readerKey.publicKey, sessionTranscript: transcript)
        #expect(mdocSide == key)
    }

    @Test func theAnnexDResponseVerifiesInFullWithItsDeviceMac() async throws {
        let result = try await verification().verify(deviceResponse: try bytes("DEVICE_RESPONSE"))
        #expect(result.status == .verified, "\(result)")
        let credential = try #require(result.credentials?.first)
        #expect(credential.docType == "org.iso.18013.5.1.mDL")
        #expect(credential.claims["org.iso.18013.5.1"]?["family_name"] == .string("Doe"))
        #expect(credential.claims["org.iso.18013.5.1"]?["document_number"] == .string("123456789"))
        #expect(credential.claims["org.iso.18013.5.1"]?.count == 6)
        #expect(credential.issuer.subject.contains("utopia ds") && credential.issuer.iaca.contains("utopia iaca"))
    }

    @Test func underAnotherTranscriptTheDeviceMacIsRefused() async throws {
        let other = SessionTranscript(handover: .array([.text("another session")]))
        let result = try await verification(transcript: other).verify(deviceResponse: try bytes("DEVICE_RESPONSE"))
        #expect(result.codes == [.deviceSignatureInvalid], "\(result)")
    }

    @Test func underAnotherReaderKeyTheDeviceMacIsRefused() async throws {
        let result = try await verification(readerKey: P256.KeyAgreement.PrivateKey()).verify(deviceResponse: try bytes("DEVICE_RESPONSE"))
        #expect(result.codes == [.deviceSignatureInvalid], "\(result)")
    }

    /// The deviceMac, made again by the mdoc's side with the Annex D keys, is the one Annex D carries.
    @Test func theMdocSideMakesTheAnnexDMac() throws {
        let document = try #require(try DeviceResponse(decoding: try bytes("DEVICE_RESPONSE")).documents.first)
        let received = try #require(document.deviceSigned)
        let made = try DeviceSigned.mac(docType: document.docType, sessionTranscript: try SessionTranscript(taggedBytes: try bytes("SESSION_TRANSCRIPT_BYTES")),
                                        nameSpacesBytes: received.nameSpacesBytes,
                                        deviceKey: try P256.KeyAgreement.PrivateKey(rawRepresentation: try bytes("STATIC_DEVICE_KEY_D")),
                                        readerKey: try readerKey.publicKey)
        #expect(made.encoded() == received.encoded())
    }
}
