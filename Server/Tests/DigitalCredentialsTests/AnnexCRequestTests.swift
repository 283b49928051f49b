import COSE
import Crypto
import DigitalCredentials
import Foundation
import JOSE
import MDoc
import Testing
import TestSupport

/// ISO/IEC TS 18013-7 Annex C requests made here: `{deviceRequest, encryptionInfo}` with readerAuth over the Annex C
/// SessionTranscript of the page's origin (ISO/IEC 18013-5 §9.1.4), read back as a wallet reads them.
@Suite struct AnnexCRequestTests {
    static let itemsRequest = ItemsRequest(docType: "org.iso.18013.5.1.mDL", nameSpaces: [
        .init("org.iso.18013.5.1", elements: [.init("family_name"), .init("age_over_18", intentToRetain: true)]),
    ])

    @Test func aReaderAuthenticatedRequestVerifiesForItsOriginOnly() throws {
        let pki = try TestPKI(defect: .none, at: Date(), intermediate: false, usage: nil)
        let recipient = P256.KeyAgreement.PrivateKey()
        let info = try EncryptionInfo(recipientPublicKey: recipient.publicKey)
        let made = try AnnexCRequest(itemsRequests: [Self.itemsRequest], encryptionInfo: info, origin: "https://shop.example",
                                     readerSigner: COSESigningKey.p256(pki.leaf.key), certificateChain: pki.chainDER)
        let json = try DigitalCredentialRequestOptions(requests: [made.request]).jsonBytes()
        let read = try AnnexCRequest(try #require(try DigitalCredentialRequestOptions(json: json).firstSupported()))
        #expect(read.deviceRequest.docRequests.map { $0.itemsRequest } == [Self.itemsRequest])
        #expect(read.encryptionInfo.base64URL == info.base64URL)
        #expect(try read.verifyReaderAuthentication(origin: "https://shop.example") == [pki.chainDER])
        #expect(throws: DigitalCredentialsError.readerAuthenticationFailed(.readerSignatureInvalid)) {
            try read.verifyReaderAuthentication(origin: "https://evil.example")
        }
    }

    @Test func aWalletAnswersARequestAndTheVerifierOpensIt() throws {
        let recipient = P256.KeyAgreement.PrivateKey()
        let info = try EncryptionInfo(recipientPublicKey: recipient.publicKey)
        let made = AnnexCRequest(itemsRequests: [Self.itemsRequest], encryptionInfo: info)
        // The wallet: reads the request as the page passed it, seals to its EncryptionInfo for the caller's origin.
        let received = try AnnexCRequest(try DigitalCredentialRequest(json: try made.request.jsonBytes()))
        let deviceResponse = DeviceResponse(documents: [], status: 10).encoded()
        let answer = AnnexCResponse(encryptedResponse: try AnnexCEncryption.seal(deviceResponse: deviceResponse, to: received.encryptionInfo,
                                                                                     origin: "https://shop.example")).response
        // The verifier: the answer as the page posts it (data as a string, the way Android passes it).
        let posted = #"{"protocol":"org-iso-mdoc","data":"# + String(decoding: try JSONEncoder().encode(String(decoding: try compactJSON(answer.data), as: UTF8.self)), as: UTF8.self) + "}"
        let response = try AnnexCResponse(try DigitalCredentialResponse(json: Array(posted.utf8)))
        let opened = try AnnexCEncryption.open(response.encryptedResponse, recipientKey: recipient, encryptionInfo: made.encryptionInfo.base64URL,
                                               origins: ["https://shop.example"])
        #expect(try DeviceResponse(decoding: opened.deviceResponse).status == 10)
    }
}

/// The compact JSON of a data member.
func compactJSON(_ data: [String: JSONValue]) throws -> [UInt8] { try JSONValue.object(data).jsonBytes() }
