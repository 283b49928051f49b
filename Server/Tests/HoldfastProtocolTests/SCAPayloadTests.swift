import Foundation
import HoldfastProtocol
import JOSE
import Testing

/// What an SCA proof signs of a request (docs/server-api.md "SCA wallet (back end)"): the five operations of a card issuer's API that the
/// SCA documentation walks through, each with its policy, and the comparison the tenant makes.
@Suite struct SCAPayloadTests {
    static let base = "https://api.bank.example"

    static func json(_ text: String) throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) }

    /// GET card images: the card id is a query parameter, signed; `accessTag` is transport.
    @Test func getCardImagesSignsTheQueryParameter() throws {
        let policy = SCAPolicy(method: "GET", pathTemplate: "/v1/cardimages", signedFields: .fields(["cardId"]), requiredPatterns: [.pin, .biometry])
        let payload = try SCAPayload(method: "GET", url: "\(Self.base)/v1/cardimages?cardId=12345&accessTag=abc", body: nil, policy: policy)
        #expect(payload.method == "GET" && payload.url == "\(Self.base)/v1/cardimages")
        #expect(payload.body == .object(["cardId": .string("12345")]))
        #expect(SCAPolicy.matching([policy], method: "get", url: URL(string: "\(Self.base)/v1/cardimages?cardId=1")!) == policy)
    }

    /// PUT card activation: nothing in the body, the card is in the path: `{}`.
    @Test func putCardActivationSignsAnEmptyBody() throws {
        let policy = SCAPolicy(method: "PUT", pathTemplate: "/v1/cards/{cardId}/Activate", signedFields: .all, requiredPatterns: [.pin])
        let payload = try SCAPayload(method: "PUT", url: "\(Self.base)/v1/cards/998/Activate", body: nil, policy: policy)
        #expect(payload.method == "PUT" && payload.url == "\(Self.base)/v1/cards/998/Activate" && payload.body == .object([:]))
        #expect(policy.covers(method: "PUT", path: "/v1/cards/998/Activate"))
        #expect(!policy.covers(method: "PUT", path: "/v1/cards//Activate"))
        #expect(!policy.covers(method: "POST", path: "/v1/cards/998/Activate"))
    }

    /// POST beneficiaries: every member of the body but the transport ones.
    @Test func postBeneficiariesSignsTheWholeBody() throws {
        let body = try Self.json(#"{"userId":"100","name":"Alex Martin","iban":"FR7630001007941234567890185","bic":"BDFEFRPPCCT","usableForSct":true,"accessTag":"t-1"}"#)
        let policy = SCAPolicy(method: "POST", pathTemplate: "/v1/beneficiaries", signedFields: .all, requiredPatterns: [.pin, .biometry])
        let payload = try SCAPayload(method: "POST", url: "\(Self.base)/v1/beneficiaries", body: body, policy: policy)
        var expected = body.objectValue!
        expected["accessTag"] = nil
        #expect(payload.method == "POST" && payload.body == .object(expected))
    }

    /// PUT users: only the personal fields the policy names.
    @Test func putUsersSignsTheNamedFields() throws {
        let body = try Self.json(#"{"email":"alex@example.com","phone":"+33612345678","address1":"1 rue de la Paix","title":"MX","accessTag":"t-2"}"#)
        let policy = SCAPolicy(method: "PUT", pathTemplate: "/v1/users/{userId}", signedFields: .fields(["email", "phone", "address1"]),
                               requiredPatterns: [.pin])
        let payload = try SCAPayload(method: "PUT", url: "\(Self.base)/v1/users/100", body: body, policy: policy)
        #expect(payload.method == "PUT")
        #expect(payload.body == .object(["email": .string("alex@example.com"), "phone": .string("+33612345678"),
                                          "address1": .string("1 rue de la Paix")]))
    }

    /// PUT card limits: numbers stay numbers.
    @Test func putCardLimitsSignsTheLimits() throws {
        let body = try Self.json(#"{"limitPaymentDay":500,"limitPaymentMonth":2000,"limitAtmWeek":300}"#)
        let policy = SCAPolicy(method: "PUT", pathTemplate: "/v1/cards/{cardId}/Limits", signedFields: .all, requiredPatterns: [.pin, .biometry])
        let payload = try SCAPayload(method: "PUT", url: "\(Self.base)/v1/cards/998/Limits?accessTag=x", body: body, policy: policy)
        #expect(payload.method == "PUT" && payload.url == "\(Self.base)/v1/cards/998/Limits")
        #expect(payload.isSigned(by: "\(Self.base)/v1/cards/998/Limits",
                                 body: try Self.json(#"{"limitAtmWeek":300.0, "limitPaymentMonth": 2000,"limitPaymentDay":500}"#)))
        #expect(!payload.isSigned(by: "\(Self.base)/v1/cards/998/Limits", body: try Self.json(#"{"limitAtmWeek":"300","limitPaymentMonth":2000,"limitPaymentDay":500}"#)))
        #expect(!payload.isSigned(by: "\(Self.base)/v1/cards/998/Limits", body: try Self.json(#"{"limitPaymentMonth":2000,"limitPaymentDay":500}"#)))
        #expect(!payload.isSigned(by: "\(Self.base)/v1/cards/999/Limits", body: payload.body))
    }

    /// DELETE and PUT of the same resource with the same empty body: the same url and body, never the same payload.
    @Test func theMethodIsSigned() throws {
        let url = "\(Self.base)/v1/cards/998"
        let delete = try SCAPayload(method: "delete", url: url, body: nil, policy: nil)
        let put = try SCAPayload(method: "PUT", url: url, body: .object([:]), policy: nil)
        #expect(delete.url == put.url && delete.body == put.body)
        #expect(delete.method == "DELETE" && delete != put)
        #expect(delete.isSigned(byMethod: "DELETE") && !delete.isSigned(byMethod: "PUT") && !delete.isSigned(byMethod: "delete"))
    }

    @Test func canonicalComparison() throws {
        #expect(CanonicalJSON.equal(try Self.json(#"{"a":[1,{"b":null}],"c":true}"#), try Self.json(#"{ "c" : true , "a" : [1.0, {"b": null}] }"#)))
        #expect(!CanonicalJSON.equal(try Self.json(#"{"a":[1,2]}"#), try Self.json(#"{"a":[2,1]}"#)))
        #expect(!CanonicalJSON.equal(try Self.json(#"{"a":null}"#), try Self.json(#"{}"#)))
        #expect(!CanonicalJSON.equal(try Self.json(#"{"a":true}"#), try Self.json(#"{"a":1}"#)))
    }

    @Test func malformedRequestsAreRefused() {
        #expect(throws: SCAPayload.Failure.self) { try SCAPayload(method: "GET", url: "/v1/cardimages", body: nil, policy: nil) }
        #expect(throws: SCAPayload.Failure.self) { try SCAPayload(method: "POST", url: "https://a.example/x", body: .array([]), policy: nil) }
        #expect(throws: SCAPayload.Failure.self) { try SCAPayload(method: "GET", url: "https://a.example/x?id=1&id=2", body: nil, policy: nil) }
        #expect(throws: (any Error).self) { try JSONDecoder().decode(SCAPolicy.SignedFields.self, from: Data(#""some""#.utf8)) }
    }

    @Test func proofClaimsHaveExactlyTheDocumentedMembers() throws {
        let claims = SCAProofClaims(method: "POST", url: "https://a.example/x", body: .object([:]), message: "Add Alex", pattern: .pin,
                                    signatureInputData: .null, walletId: "w1", iat: 1_700_000_000, jti: "j1", counter: 7)
        let object = try #require(try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(claims)).objectValue)
        #expect(Set(object.keys) == SCAProofClaims.memberNames)
        #expect(SCAProofClaims(members: object) == claims)
        var extra = object
        extra["amount"] = .integer(5)
        #expect(SCAProofClaims(members: extra) == nil)
        var wrongType = object
        wrongType["iat"] = .string("1700000000")
        #expect(SCAProofClaims(members: wrongType) == nil)
        var withoutMethod = object
        withoutMethod["method"] = nil
        #expect(SCAProofClaims(members: withoutMethod) == nil)
        // The counter is a whole number above 0.
        for counter: JSONValue in [.integer(0), .integer(-1), .string("7"), .number(7.5)] {
            var wrongCounter = object
            wrongCounter["counter"] = counter
            #expect(SCAProofClaims(members: wrongCounter) == nil)
        }
    }
}
