import DigitalCredentials
import Foundation
import JOSE
import Testing
import TestSupport

/// OpenID4VP 1.0 Appendix A.3 and A.4: the `data` of OpenID4VP requests and responses through the Digital
/// Credentials API, A-SIT's signed request among them.
@Suite struct OpenID4VPDCAPIDataTests {
    @Test func aSignedRequestIsItsCompactJWS() throws {
        let vector = try TestEnvironment.jsonVector("oid4vp/asit-dcapi-signed-request-and-annex-c-request.json")
        let jws = try #require(vector["signedRequestJws"] as? String)
        let request = DigitalCredentialRequest(protocol: .openID4VPSigned, data: ["request": .string(jws)])
        let read = try OpenID4VPDCAPIRequest(request)
        #expect(read == .signed(requestObject: jws))
        #expect(read.request == request && read.protocol == .openID4VPSigned)
    }

    @Test func anUnsignedRequestIsItsParameters() throws {
        let parameters: [String: JSONValue] = ["response_type": .string("vp_token"), "response_mode": .string("dc_api"), "nonce": .string("n")]
        let read = try OpenID4VPDCAPIRequest(DigitalCredentialRequest(protocol: .openID4VPUnsigned, data: parameters))
        #expect(read == .unsigned(parameters: parameters))
    }

    @Test func malformedOpenID4VPRequestsAreRefused() {
        let cases: [(DigitalCredentialRequest, String)] = [
            (.init(protocol: .openID4VPSigned, data: [:]), "MALFORMED"),
            (.init(protocol: .openID4VPSigned, data: ["request": .string("a.b")]), "MALFORMED"),
            (.init(protocol: .openID4VPSigned, data: ["request": .integer(1)]), "MALFORMED"),
            (.init(protocol: .openID4VPSigned, data: ["request": .object(["payload": .string("x"), "signatures": .array([])])]), "UNSUPPORTED"),
            (.init(protocol: .openID4VPUnsigned, data: ["request": .string("a.b.c")]), "MALFORMED"),
            (.init(protocol: .orgIsoMdoc, data: ["request": .string("a.b.c")]), "PROTOCOL_MISMATCH"),
        ]
        for (request, code) in cases {
            do { _ = try OpenID4VPDCAPIRequest(request); Issue.record("accepted \(request)") } catch { #expect(error.code == code, "\(request)") }
        }
    }

    @Test func responsesAreEncryptedClearOrAnError() throws {
        let jwe = "eyJhbGciOiJFQ0RILUVTIn0..aXY.Y3Q.dGFn"
        let encrypted = try OpenID4VPDCAPIResponse(try DigitalCredentialResponse(json: Array(#"{"protocol":"openid4vp-v1-signed","data":"{\"response\":\"\#(jwe)\"}"}"#.utf8)))
        #expect(encrypted == .encrypted(jwe: jwe))
        #expect(encrypted.response(protocol: .openID4VPSigned).data == ["response": .string(jwe)])
        let clear = try OpenID4VPDCAPIResponse(DigitalCredentialResponse(protocol: .openID4VPUnsigned, data: ["vp_token": .object(["q": .array([.string("AA")])])]))
        #expect(clear == .clear(parameters: ["vp_token": .object(["q": .array([.string("AA")])])]))
        let declined = try OpenID4VPDCAPIResponse(DigitalCredentialResponse(protocol: .openID4VPSigned, data: ["error": .string("access_denied")]))
        #expect(declined == .error(code: "access_denied", description: nil))
        #expect(declined.data == ["error": .string("access_denied")])
    }

    @Test func malformedOpenID4VPResponsesAreRefused() {
        let cases: [(DigitalCredentialResponse, String)] = [
            (.init(protocol: .openID4VPSigned, data: [:]), "MALFORMED"),
            (.init(protocol: .openID4VPSigned, data: ["response": .string("a.b.c")]), "MALFORMED"),
            (.init(protocol: .openID4VPSigned, data: ["error": .integer(5)]), "MALFORMED"),
            (.init(protocol: .orgIsoMdoc, data: ["vp_token": .string("x")]), "PROTOCOL_MISMATCH"),
        ]
        for (response, code) in cases {
            do { _ = try OpenID4VPDCAPIResponse(response); Issue.record("accepted \(response)") } catch { #expect(error.code == code, "\(response)") }
        }
    }
}
