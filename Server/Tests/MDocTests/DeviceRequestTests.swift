import CBOR
import COSE
import Crypto
import Foundation
import MDoc
import Testing
import TestSupport

/// ISO/IEC 18013-5 §8.3.2.1.2.1 DeviceRequest / ItemsRequest and §9.1.4 reader authentication, against Annex D
/// (shared/vectors/mdoc/iso18013-5-annex-d.json): every structure reproduced or verified byte for byte.
@Suite struct DeviceRequestTests {
    let hex: [String: String]

    init() throws {
        hex = try #require(try TestEnvironment.jsonVector("mdoc/iso18013-5-annex-d.json")["hex"] as? [String: String])
    }

    func bytes(_ name: String) throws -> [UInt8] { hexBytes(try #require(hex[name])) }

    /// Annex D's ItemsRequest, written from its values in its order.
    static let annexDItemsRequest = ItemsRequest(docType: "org.iso.18013.5.1.mDL", nameSpaces: [
        .init("org.iso.18013.5.1", elements: [
            .init("family_name", intentToRetain: true), .init("document_number", intentToRetain: true),
            .init("driving_privileges", intentToRetain: true), .init("issue_date", intentToRetain: true),
            .init("expiry_date", intentToRetain: true), .init("portrait", intentToRetain: false),
        ]),
    ])

    @Test func theItemsRequestIsWrittenAsAnnexDHasIt() throws {
        #expect(Self.annexDItemsRequest.encoded() == (try bytes("ITEMS_REQUEST")))
        #expect(try ItemsRequest(decoding: try bytes("ITEMS_REQUEST")) == Self.annexDItemsRequest)
    }

    @Test func theDeviceRequestIsReadAndWrittenBackUnchanged() throws {
        let request = try DeviceRequest(decoding: try bytes("DEVICE_REQUEST"))
        #expect(request.version == "1.0")
        let docRequest = try #require(request.docRequests.first)
        #expect(request.docRequests.count == 1)
        #expect(docRequest.itemsRequest == Self.annexDItemsRequest)
        #expect(docRequest.itemsRequestBytes == CBOR.embeddedEncoding(of: try bytes("ITEMS_REQUEST")))
        #expect(docRequest.readerAuth?.encoded(tagged: false) == (try bytes("READER_AUTH")))
        #expect(request.encoded() == (try bytes("DEVICE_REQUEST")))
    }

    /// §9.1.4: Annex D's readerAuth verifies over ReaderAuthenticationBytes made here from its SessionTranscript and
    /// ItemsRequestBytes, with the key of READER_CERT, which is its x5chain.
    @Test func annexDReaderAuthVerifiesOverReaderAuthenticationBuiltHere() throws {
        let docRequest = try #require(try DeviceRequest(decoding: try bytes("DEVICE_REQUEST")).docRequests.first)
        let transcript = try SessionTranscript(taggedBytes: try bytes("SESSION_TRANSCRIPT_BYTES"))
        #expect(try docRequest.verifyReaderAuthentication(sessionTranscript: transcript) == [try bytes("READER_CERT")])
        let other = SessionTranscript(handover: .array([.text("other")]))
        #expect(throws: MDocError.readerSignatureInvalid) { try docRequest.verifyReaderAuthentication(sessionTranscript: other) }
    }

    @Test func aReaderAuthMadeHereVerifiesAndNamesItsChain() throws {
        let key = P256.Signing.PrivateKey()
        let transcript = SessionTranscript(handover: .array([.text("dcapi"), .bytes([1, 2, 3])]))
        let chain: [[UInt8]] = [try bytes("READER_CERT"), [0x30, 0x00]]
        let signed = try DeviceRequest.DocRequest(itemsRequest: Self.annexDItemsRequest, sessionTranscript: transcript,
                                                  signer: COSESigningKey.p256(key), certificateChain: chain)
        let request = DeviceRequest(docRequests: [signed])
        let read = try #require(try DeviceRequest(decoding: request.encoded()).docRequests.first)
        #expect(try read.readerAuth?.algorithm() == .es256)
        #expect(try read.readerAuth?.unprotected.x5chain() == chain)
        #expect(read.readerAuth?.payload == nil)
        // READER_CERT's key is not the one that signed: refused; the signature itself holds with the signer's key.
        #expect(throws: MDocError.readerSignatureInvalid) { try read.verifyReaderAuthentication(sessionTranscript: transcript) }
        let payload = ReaderAuthentication.taggedBytes(sessionTranscript: transcript, itemsRequestBytes: read.itemsRequestBytes)
        try #require(read.readerAuth).verify(using: COSEVerificationKey.p256(key.publicKey), detachedPayload: payload)
    }

    @Test func aDocRequestWithoutReaderAuthIsReportedAsSuch() throws {
        let request = DeviceRequest(docRequests: [.init(itemsRequest: Self.annexDItemsRequest)])
        let read = try #require(try DeviceRequest(decoding: request.encoded()).docRequests.first)
        #expect(read.readerAuth == nil)
        #expect(throws: MDocError.readerAuthenticationMissing) {
            try read.verifyReaderAuthentication(sessionTranscript: SessionTranscript(handover: .null))
        }
    }

    @Test func aReaderAuthWithoutX5chainIsRefused() throws {
        let key = P256.Signing.PrivateKey()
        let transcript = SessionTranscript(handover: .null)
        let itemsRequestBytes = Self.annexDItemsRequest.taggedBytes()
        let signature = try COSESign1.sign(payload: ReaderAuthentication.taggedBytes(sessionTranscript: transcript, itemsRequestBytes: itemsRequestBytes),
                                           detached: true, signer: COSESigningKey.p256(key))
        let bytes = CBOR.map([
            .init("version", "1.0"),
            .init("docRequests", .array([.map([.init("itemsRequest", .tagged(24, .bytes(Self.annexDItemsRequest.encoded()))),
                                               .init("readerAuth", signature.cbor(tagged: false))])])),
        ]).encoded()
        let read = try #require(try DeviceRequest(decoding: bytes).docRequests.first)
        #expect(throws: MDocError.readerCertificateMissing) { try read.verifyReaderAuthentication(sessionTranscript: transcript) }
        #expect(throws: MDocError.readerCertificateMissing) {
            try DeviceRequest.DocRequest(itemsRequest: Self.annexDItemsRequest, sessionTranscript: transcript,
                                         signer: COSESigningKey.p256(key), certificateChain: [])
        }
    }

    @Test(arguments: [
        ("a16b646f63526571756573747380", "no version"),
        ("a26776657273696f6e63322e306b646f63526571756573747380", "version 2.0"),
        ("a26776657273696f6e63312e306b646f63526571756573747380", "no docRequests"),
    ])
    func malformedDeviceRequestsAreRefused(_ hexInput: String, _ what: String) {
        #expect(throws: MDocError.self, "\(what)") { try DeviceRequest(decoding: hexBytes(hexInput)) }
    }

    @Test func anItemsRequestAskingTwiceForAnElementIsRefused() {
        let twice = CBOR.map([.init("docType", "d"), .init("nameSpaces", .map([.init("ns", .map([.init("a", true), .init("a", false)]))]))])
        do { _ = try ItemsRequest(decoding: twice.encoded()); Issue.record("a twice-asked element was accepted") } catch {
            #expect(error.code == "MDOC_MALFORMED")
        }
        let notBool = CBOR.map([.init("docType", "d"), .init("nameSpaces", .map([.init("ns", .map([.init("a", 1)]))]))])
        #expect(throws: MDocError.self) { try ItemsRequest(decoding: notBool.encoded()) }
    }
}
