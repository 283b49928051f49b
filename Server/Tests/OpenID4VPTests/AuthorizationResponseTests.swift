import Foundation
import JOSE
import OpenID4VP
import Testing

/// OpenID4VP 1.0 §8: the authorization response, the `direct_post.jwt` body and the verifier's reply.
@Suite struct AuthorizationResponseTests {
    static func json(_ data: Data) throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: data) }

    @Test func theResponseIsWrittenWithItsWireNames() throws {
        let response = AuthorizationResponse(vpToken: .string("AA"), state: "s", presentationSubmission: PresentationSubmission(
            id: "sub", definitionId: "pd", descriptorMap: [.init(id: "org.iso.18013.5.1.mDL", format: "mso_mdoc", path: "$")]))
        #expect(try Self.json(try response.payload()) == Self.json(Data(#"""
            {"vp_token":"AA","state":"s","presentation_submission":{"id":"sub","definition_id":"pd",
            "descriptor_map":[{"id":"org.iso.18013.5.1.mDL","format":"mso_mdoc","path":"$"}]}}
            """#.utf8)))
        #expect(try Self.json(try AuthorizationResponse(state: "s", error: "access_denied").payload())
            == .object(["state": .string("s"), "error": .string("access_denied")]))
    }

    /// §8.5: any `error` member counts, whatever its type; a `state` of another type is absent.
    @Test func anErrorOfAnyTypeCounts() {
        #expect(AuthorizationResponse(members: ["error": .string("access_denied")]).error == "access_denied")
        #expect(AuthorizationResponse(members: ["error": .integer(5)]).error == "5")
        #expect(AuthorizationResponse(members: ["error": .null]).error == "null")
        #expect(AuthorizationResponse(members: ["vp_token": .object([:])]).error == nil)
        #expect(AuthorizationResponse(members: ["state": .integer(1)]).state == nil)
        #expect(AuthorizationResponse(members: ["vp_token": .array([.string("x")])]).vpToken == .array([.string("x")]))
    }

    /// §8.3: exactly one `response` parameter (RFC 6749 §3.2).
    @Test func theFormHasOneResponse() throws {
        #expect(try DirectPostJWT(form: ["response": ["a.b.c.d.e"]]).response == "a.b.c.d.e")
        for form in [[:], ["response": ["a", "b"]], ["vp_token": ["x"]]] as [[String: [String]]] {
            #expect(throws: OpenID4VPError(.parameterCount, "one response parameter is required", parameter: "response")) {
                try DirectPostJWT(form: form)
            }
        }
        #expect(DirectPostJWT(response: "jwe").formParameters.map { "\($0.name)=\($0.value)" } == ["response=jwe"])
    }

    /// §8.2: `{}` or `{redirect_uri}`, the redirect carrying the `response_code`.
    @Test func theReplyCarriesTheRedirect() throws {
        #expect(String(decoding: try JSONEncoder().encode(ResponseEndpointReply()), as: UTF8.self) == "{}")
        #expect(try Self.json(try JSONEncoder().encode(ResponseEndpointReply(redirectUri: "https://a.example/x")))
            == .object(["redirect_uri": .string("https://a.example/x")]))
        #expect(ResponseEndpointReply.redirectUri("https://a.example/x", responseCode: "c") == "https://a.example/x?response_code=c")
        #expect(ResponseEndpointReply.redirectUri("https://a.example/x?y=1", responseCode: "c") == "https://a.example/x?y=1&response_code=c")
        #expect(ResponseEndpointReply.decodeIfPresent(Data(#"{"redirect_uri":"https://a.example/x"}"#.utf8))?.redirectUri == "https://a.example/x")
        #expect(ResponseEndpointReply.decodeIfPresent(Data(#"{"redirect_uri":5}"#.utf8))?.redirectUri == nil)
        #expect(ResponseEndpointReply.decodeIfPresent(Data("[]".utf8)) == nil)
    }
}

/// The verifier reads a decrypted payload's members as the JSON decoding reads them.
@Suite struct AuthorizationResponseMembersTests {
    @Test(arguments: [
        #"{"vp_token":{"q":["AA"]},"state":"s"}"#, #"{"vp_token":"AA","state":5,"error":null}"#, #"{"error":{"a":1},"error_description":"x"}"#,
        #"{"vp_token":null,"presentation_submission":{"id":"i","definition_id":"d","descriptor_map":[{"id":"x","format":"mso_mdoc","path":"$"}]}}"#,
        #"{"presentation_submission":{"id":1}}"#,
    ])
    func readingTheMembersIsReadingTheJSON(_ text: String) throws {
        let members = try #require(try JSONValue(json: Array(text.utf8)).objectValue)
        #expect(AuthorizationResponse(members: members) == (try JSONDecoder().decode(AuthorizationResponse.self, from: Data(text.utf8))))
    }
}
