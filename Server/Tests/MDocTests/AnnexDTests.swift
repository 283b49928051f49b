import CBOR
import COSE
import Crypto
import Foundation
import MDoc
import Testing
import TestSupport
import X509

/// ISO/IEC 18013-5 Annex D (shared/vectors/mdoc/iso18013-5-annex-d.json) read and verified by `MDoc`.
@Suite struct AnnexDTests {
    let vector: [String: Any]
    let hex: [String: String]

    init() throws {
        vector = try TestEnvironment.jsonVector("mdoc/iso18013-5-annex-d.json")
        hex = try #require(vector["hex"] as? [String: String])
    }

    func bytes(_ name: String) throws -> [UInt8] { hexBytes(try #require(hex[name])) }

    var trust: IssuerTrust {
        get throws {
            let certificates = try #require(vector["certificates"] as? [String: Any])
            let iaca = try Certificate(derEncoded: hexBytes(try #require(certificates["iacaDerHex"] as? String)))
            return IssuerTrust(iacas: [iaca])
        }
    }

    /// A moment inside the DS certificate's and the MSO's validity.
    let inValidity = try! Date("2021-01-01T00:00:00Z", strategy: .iso8601)

    @Test func readsTheDeviceResponse() async throws {
        let response = try DeviceResponse(decoding: try bytes("DEVICE_RESPONSE"))
        #expect(response.version == "1.0")
        #expect(response.status == 0)
        let document = try #require(response.documents.first)
        #expect(document.docType == "org.iso.18013.5.1.mDL")
        let issuerSigned = document.issuerSigned
        #expect(issuerSigned.value("family_name", in: "org.iso.18013.5.1") == .text("Doe"))
        #expect(issuerSigned.value("document_number", in: "org.iso.18013.5.1") == .text("123456789"))
        #expect(issuerSigned.value("issue_date", in: "org.iso.18013.5.1") == .tagged(1004, .text("2019-10-20")))
        #expect(issuerSigned.value("portrait", in: "org.iso.18013.5.1") == .bytes(try bytes("DEVICE_RESPONSE_PORTRAIT_DATA")))
        let mso = issuerSigned.mso
        #expect(mso.digestAlgorithm == .sha256)
        #expect(mso.validityInfo.signed == (try Date("2020-10-01T13:30:02Z", strategy: .iso8601)))
        #expect(mso.validityInfo.validUntil == (try Date("2021-10-01T13:30:02Z", strategy: .iso8601)))
        #expect(mso.deviceKey.x == (try bytes("STATIC_DEVICE_KEY_X")))
        #expect(mso.deviceKey.y == (try bytes("STATIC_DEVICE_KEY_Y")))
        // Every part is written back with the bytes it came with.
        #expect(response.encoded() == (try bytes("DEVICE_RESPONSE")))
    }

    @Test func verifiesIssuerAuthChainAndEveryDigest() async throws {
        let document = try #require(try DeviceResponse(decoding: try bytes("DEVICE_RESPONSE")).documents.first)
        let verified = try await MDocVerifier(trust: try trust).verify(document.issuerSigned, docType: document.docType, at: inValidity)
        #expect(verified.mso.docType == "org.iso.18013.5.1.mDL")
        #expect(verified.documentSigner.subject.description.contains("utopia ds"))
        #expect(document.issuerSigned.nameSpaces.flatMap(\.items).count == 6)
    }

    @Test func todayTheDocumentSignerHasExpired() async throws {
        let document = try #require(try DeviceResponse(decoding: try bytes("DEVICE_RESPONSE")).documents.first)
        await #expect(throws: MDocError.issuerCertificateExpired) {
            try await MDocVerifier(trust: try trust).verify(document.issuerSigned, docType: document.docType, at: Date())
        }
    }

    /// Annex D authenticates the device with a MAC; a verifier without the reader's ephemeral key (online
    /// presentation) refuses it.
    @Test func deviceMacIsReportedAsUnsupported() async throws {
        let document = try #require(try DeviceResponse(decoding: try bytes("DEVICE_RESPONSE")).documents.first)
        let transcript = try SessionTranscript(taggedBytes: try bytes("SESSION_TRANSCRIPT_BYTES"))
        await #expect(throws: MDocError.deviceMacNotSupported) {
            try await MDocVerifier(trust: try trust).verify(document, sessionTranscript: transcript, at: inValidity)
        }
    }

    /// With the reader's ephemeral key (EReaderKey, Annex D's), the deviceMac verifies (§9.1.3.5); under another
    /// reader key, or over another transcript, it is `deviceMacInvalid`.
    @Test func deviceMacVerifiesWithTheReaderKey() async throws {
        let document = try #require(try DeviceResponse(decoding: try bytes("DEVICE_RESPONSE")).documents.first)
        let transcript = try SessionTranscript(taggedBytes: try bytes("SESSION_TRANSCRIPT_BYTES"))
        let readerKey = try P256.KeyAgreement.PrivateKey(rawRepresentation: try bytes("EPHEMERAL_READER_KEY_D"))
        let verified = try await MDocVerifier(trust: try trust, readerKey: readerKey).verify(document, sessionTranscript: transcript, at: inValidity)
        #expect(verified.mso.docType == document.docType)
        await #expect(throws: MDocError.deviceMacInvalid) {
            try await MDocVerifier(trust: try trust, readerKey: P256.KeyAgreement.PrivateKey()).verify(document, sessionTranscript: transcript, at: inValidity)
        }
        await #expect(throws: MDocError.deviceMacInvalid) {
            try await MDocVerifier(trust: try trust, readerKey: readerKey).verify(document, sessionTranscript: SessionTranscript(handover: .null), at: inValidity)
        }
    }

    /// A device signature by the Annex D static device key over the Annex D transcript verifies against the MSO's
    /// device key, and not over another transcript.
    @Test func deviceSignatureOverTheAnnexDTranscript() async throws {
        let response = try DeviceResponse(decoding: try bytes("DEVICE_RESPONSE"))
        let document = try #require(response.documents.first)
        let transcript = try SessionTranscript(taggedBytes: try bytes("SESSION_TRANSCRIPT_BYTES"))
        let deviceKey = try P256.Signing.PrivateKey(rawRepresentation: try bytes("STATIC_DEVICE_KEY_D"))
        let deviceSigned = try DeviceSigned.sign(docType: document.docType, sessionTranscript: transcript,
                                                 nameSpacesBytes: try #require(document.deviceSigned).nameSpacesBytes,
                                                 signer: COSESigningKey.p256(deviceKey))
        let signedDocument = Document(docType: document.docType, issuerSigned: document.issuerSigned, deviceSigned: deviceSigned)
        let verified = try await MDocVerifier(trust: try trust).verify(signedDocument, sessionTranscript: transcript, at: inValidity)
        #expect(verified.mso.docType == document.docType)

        // The signed bytes are DeviceAuthenticationBytes with the transcript as received.
        let expected = CBOR.embeddedEncoding(of: CBOR.head(major: 4, argument: 4) + CBOR.text("DeviceAuthentication").encoded()
            + transcript.encoded + CBOR.text(document.docType).encoded() + [0xD8, 0x18, 0x41, 0xA0])
        #expect(DeviceAuthentication.taggedBytes(sessionTranscript: transcript, docType: document.docType,
                                                 deviceNameSpacesBytes: [0xD8, 0x18, 0x41, 0xA0]) == expected)

        let other = SessionTranscript(handover: .array([.text("other")]))
        await #expect(throws: MDocError.deviceSignatureInvalid) {
            try await MDocVerifier(trust: try trust).verify(signedDocument, sessionTranscript: other, at: inValidity)
        }
    }
}
