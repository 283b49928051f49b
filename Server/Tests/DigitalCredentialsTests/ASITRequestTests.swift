import CBOR
import DigitalCredentials
import Foundation
import JOSE
import MDoc
import Testing
import TestSupport

/// A-SIT Plus vck's Digital Credentials API request test data
/// (shared/vectors/oid4vp/asit-dcapi-signed-request-and-annex-c-request.json): the digital object with both of its
/// requests, and its `org-iso-mdoc` deviceRequest and encryptionInfo read with these types and written back.
@Suite struct ASITRequestTests {
    let vector: [String: Any]
    let annexC: [String: Any]

    init() throws {
        vector = try TestEnvironment.jsonVector("oid4vp/asit-dcapi-signed-request-and-annex-c-request.json")
        annexC = try #require(vector["annexC"] as? [String: Any])
    }

    /// What the page passes as `digital`, with the two requests of the sample.
    var digitalJSON: [UInt8] {
        get throws {
            let object: [String: Any] = ["requests": [
                ["protocol": "openid4vp-v1-signed", "data": ["request": try #require(vector["signedRequestJws"] as? String)]],
                ["protocol": try #require(annexC["protocol"] as? String),
                 "data": ["deviceRequest": try #require(annexC["deviceRequestBase64Url"] as? String),
                          "encryptionInfo": try #require(annexC["encryptionInfoBase64Url"] as? String)]],
            ]]
            return Array(try JSONSerialization.data(withJSONObject: object))
        }
    }

    @Test func theDigitalObjectReadsWithBothProtocols() throws {
        let options = try DigitalCredentialRequestOptions(json: try digitalJSON)
        #expect(options.requests.map(\.protocol) == [.openID4VPSigned, .orgIsoMdoc])
        #expect(options.requests[0].data["request"]?.stringValue == vector["signedRequestJws"] as? String)
        #expect(options.firstSupported([.orgIsoMdoc])?.protocol == .orgIsoMdoc)
        // The same requests whether a wallet is handed the digital member, the whole options or one request.
        #expect(try DigitalCredentialRequestOptions.requests(fromJSON: try digitalJSON) == options.requests)
        let whole = try JSONSerialization.data(withJSONObject: ["digital": try JSONSerialization.jsonObject(with: Data(try digitalJSON))])
        #expect(try DigitalCredentialRequestOptions.requests(fromJSON: Array(whole)) == options.requests)
        #expect(try DigitalCredentialRequestOptions.requests(fromJSON: try options.requests[1].jsonBytes()) == [options.requests[1]])
        // Written and read again, the same.
        #expect(try DigitalCredentialRequestOptions(json: try options.jsonBytes()) == options)
    }

    @Test func theAnnexCDeviceRequestAndEncryptionInfoRead() throws {
        let options = try DigitalCredentialRequestOptions(json: try digitalJSON)
        let request = try AnnexCRequest(options.requests[1])
        let deviceRequest = request.deviceRequest
        #expect(deviceRequest.version == "1.0")
        let docRequest = try #require(deviceRequest.docRequests.first)
        #expect(deviceRequest.docRequests.count == 1 && docRequest.readerAuth == nil)
        #expect(docRequest.itemsRequest.docType == "org.iso.18013.5.1.mDL")
        #expect(docRequest.itemsRequest.nameSpaces.map(\.name) == ["org.iso.18013.5.1"])
        #expect(docRequest.itemsRequest.nameSpaces[0].elements.map(\.identifier) == [
            "family_name", "given_name", "birth_date", "issue_date", "expiry_date", "issuing_country", "issuing_authority",
            "document_number", "portrait", "driving_privileges", "un_distinguishing_sign",
        ])
        #expect(docRequest.itemsRequest.nameSpaces[0].elements.allSatisfy { !$0.intentToRetain })
        #expect(request.encryptionInfo.nonce == Array("78bc2c30-c46a-429d-9924-197ffadee21f".utf8))
        #expect(request.encryptionInfo.recipientKey.curve == .p256)
        // Kept as received, and written back identically (both structures are in their canonical form).
        #expect(request.deviceRequestBase64URL == annexC["deviceRequestBase64Url"] as? String)
        #expect(request.encryptionInfo.base64URL == annexC["encryptionInfoBase64Url"] as? String)
        #expect(Base64URL.encode(deviceRequest.encoded()) == annexC["deviceRequestBase64Url"] as? String)
        #expect(Base64URL.encode(DeviceRequest(docRequests: [.init(itemsRequest: docRequest.itemsRequest)]).encoded())
            == annexC["deviceRequestBase64Url"] as? String)
        let rebuilt = try EncryptionInfo(recipientPublicKey: request.encryptionInfo.recipientPublicKey, nonce: request.encryptionInfo.nonce)
        #expect(rebuilt.base64URL == annexC["encryptionInfoBase64Url"] as? String)
        #expect(AnnexCRequest(deviceRequest: deviceRequest, encryptionInfo: rebuilt).request == options.requests[1])
        #expect(try request.verifyReaderAuthentication(origin: "http://localhost:8080").isEmpty)
    }

    @Test func theSignedOpenID4VPRequestIsNotAnAnnexCRequest() throws {
        let options = try DigitalCredentialRequestOptions(json: try digitalJSON)
        #expect(throws: DigitalCredentialsError.protocolMismatch(expected: .orgIsoMdoc, found: .openID4VPSigned)) {
            try AnnexCRequest(options.requests[0])
        }
    }
}
