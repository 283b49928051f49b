import DigitalCredentials
import Foundation
import JOSE
import Testing

/// W3C Digital Credentials `{protocol, data}` requests and responses: read strictly, `data` as an object or (the
/// way Android passes it) a JSON string holding the object, anything else refused with MALFORMED.
@Suite struct DigitalCredentialJSONTests {
    @Test func aResponseReadsWithDataAsAnObjectOrAsAString() throws {
        let object = try DigitalCredentialResponse(json: Array(#"{"protocol":"org-iso-mdoc","data":{"response":"gmVk"}}"#.utf8))
        let string = try DigitalCredentialResponse(json: Array(#"{"protocol":"org-iso-mdoc","data":"{\"response\":\"gmVk\"}"}"#.utf8))
        #expect(object == string)
        #expect(object.protocol == .orgIsoMdoc && object.data == ["response": .string("gmVk")])
        // Codable reads both forms too, and writes the object.
        let decoded = try JSONDecoder().decode(DigitalCredentialResponse.self, from: Data(#"{"protocol":"openid4vp-v1-signed","data":"{\"response\":\"a.b.c.d.e\"}"}"#.utf8))
        #expect(decoded.protocol == .openID4VPSigned && decoded.data["response"] == .string("a.b.c.d.e"))
        #expect(try DigitalCredentialResponse(json: Array(try JSONEncoder().encode(decoded))) == decoded)
        #expect(try DigitalCredentialResponse(json: try decoded.jsonBytes()) == decoded)
    }

    @Test(arguments: [
        "", "[]", "null", #"{"data":{}}"#, #"{"protocol":"org-iso-mdoc"}"#, #"{"protocol":7,"data":{}}"#,
        #"{"protocol":"org-iso-mdoc","data":[]}"#, #"{"protocol":"org-iso-mdoc","data":"[1]"}"#,
        #"{"protocol":"org-iso-mdoc","data":"not json"}"#, #"{"protocol":"org-iso-mdoc","data":{},"protocol":"x"}"#,
        #"{"protocol":"org-iso-mdoc","data":{}} trailing"#,
    ])
    func aMalformedResponseIsRefused(_ text: String) {
        #expect(throws: DigitalCredentialsError.self, "\(text)") { try DigitalCredentialResponse(json: Array(text.utf8)) }
        do { _ = try DigitalCredentialResponse(json: Array(text.utf8)) } catch { #expect(error.code == "MALFORMED") }
    }

    @Test(arguments: [
        "{}", #"{"requests":[]}"#, #"{"requests":{}}"#, #"{"requests":[1]}"#, #"{"requests":[{"protocol":"org-iso-mdoc"}]}"#,
        #"{"requests":[{"protocol":"org-iso-mdoc","data":"{}"}]}"#,
    ])
    func aMalformedDigitalObjectIsRefused(_ text: String) {
        do { _ = try DigitalCredentialRequestOptions(json: Array(text.utf8)); Issue.record("accepted \(text)") } catch {
            #expect(error.code == "MALFORMED")
        }
    }

    @Test func anUnknownProtocolReadsAndIsPassedOver() throws {
        let options = try DigitalCredentialRequestOptions(json: Array(#"{"requests":[{"protocol":"openid4vp","data":{}},{"protocol":"openid4vp-v1-unsigned","data":{"nonce":"n"}}]}"#.utf8))
        #expect(!options.requests[0].protocol.isKnown && options.requests[1].protocol.isKnown)
        #expect(options.firstSupported()?.protocol == .openID4VPUnsigned)
        #expect(options.firstSupported([.orgIsoMdoc]) == nil)
        #expect(DigitalCredentialProtocol.all.map(\.rawValue) == ["openid4vp-v1-signed", "openid4vp-v1-unsigned", "org-iso-mdoc"])
    }

    @Test func anAnnexCResponseOfAnotherProtocolOrShapeIsRefused() throws {
        let openID = DigitalCredentialResponse(protocol: .openID4VPUnsigned, data: ["vp_token": .object([:])])
        #expect(throws: DigitalCredentialsError.protocolMismatch(expected: .orgIsoMdoc, found: .openID4VPUnsigned)) { try AnnexCResponse(openID) }
        #expect(throws: DigitalCredentialsError.malformed("the org-iso-mdoc data has no response")) { try AnnexCResponse(data: [:]) }
        do { _ = try AnnexCResponse(data: ["response": .string("gmVk==")]); Issue.record("padding accepted") } catch {
            #expect(error.code == "ENCRYPTED_RESPONSE_MALFORMED")
        }
    }

    @Test func anAnnexCRequestWithoutItsMembersIsRefused() throws {
        #expect(throws: DigitalCredentialsError.malformed("the org-iso-mdoc data has no deviceRequest")) {
            try AnnexCRequest(data: ["encryptionInfo": .string("x")])
        }
        do { _ = try AnnexCRequest(data: ["deviceRequest": .string("oA"), "encryptionInfo": .string("x")]); Issue.record("accepted") } catch {
            #expect(error.code == "DEVICE_REQUEST_MALFORMED")
        }
    }
}
