import Foundation
import OpenID4VP
import JOSE
import Testing

/// What a response must show for a query (OpenID4VP 1.0 §6.4, ISO/IEC TS 18013-7:2024 Annex B), one rule a test.
@Suite struct PresentationRequirementsTests {
    typealias Presented = PresentationRequirements.Presented
    static let space = "org.iso.18013.5.1"

    static func dcql(_ text: String) throws -> PresentationRequirements {
        try PresentationRequirements(dcql: try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))
    }

    static func mdl(_ id: String = "mdl", claims: String = #"[{"path":["org.iso.18013.5.1","family_name"]}]"#, extra: String = "") -> String {
        #"{"id":"\#(id)","format":"mso_mdoc","meta":{"doctype_value":"org.iso.18013.5.1.mDL"},"claims":\#(claims)\#(extra)}"#
    }

    static func shown(_ id: String, _ elements: [String: JSONValue]) -> Presented {
        Presented(credentialId: id, elements: [space: elements])
    }

    @Test func withoutCredentialSetsEveryCredentialQueryIsRequired() throws {
        let query = try Self.dcql(#"{"credentials":[\#(Self.mdl("a")),\#(Self.mdl("b"))]}"#)
        #expect(query.shortfalls([Self.shown("a", ["family_name": .string("Doe")]), Self.shown("b", ["family_name": .string("Doe")])]).isEmpty)
        #expect(query.shortfalls([Self.shown("a", ["family_name": .string("Doe")])]) == [.credentialMissing(credentialId: "b")])
        #expect(query.shortfalls([]) == [.credentialMissing(credentialId: "a"), .credentialMissing(credentialId: "b")])
    }

    @Test func aRequiredCredentialSetNeedsOneOptionWhole() throws {
        let query = try Self.dcql(#"{"credentials":[\#(Self.mdl("a")),\#(Self.mdl("b")),\#(Self.mdl("c"))],"credential_sets":[{"options":[["a","b"],["c"]]}]}"#)
        let name: [String: JSONValue] = ["family_name": .string("Doe")]
        #expect(query.shortfalls([Self.shown("c", name)]).isEmpty)
        #expect(query.shortfalls([Self.shown("a", name), Self.shown("b", name)]).isEmpty)
        // Half of the first option: the option closest to being shown names what is missing.
        #expect(query.shortfalls([Self.shown("a", name)]) == [.credentialMissing(credentialId: "b")])
        // Nothing: the first of the equally close options (c alone is closer than a and b).
        #expect(query.shortfalls([]) == [.credentialMissing(credentialId: "c")])
    }

    @Test func aCredentialSetThatIsNotRequiredMayBeLeftOut() throws {
        let query = try Self.dcql(#"{"credentials":[\#(Self.mdl("a")),\#(Self.mdl("b"))],"credential_sets":[{"options":[["a"]]},{"options":[["b"]],"required":false}]}"#)
        #expect(query.shortfalls([Self.shown("a", ["family_name": .string("Doe")])]).isEmpty)
        #expect(query.shortfalls([Self.shown("b", ["family_name": .string("Doe")])]) == [.credentialMissing(credentialId: "a")])
    }

    @Test func withoutClaimSetsEveryClaimIsRequired() throws {
        let query = try Self.dcql(#"{"credentials":[\#(Self.mdl(claims: #"[{"path":["org.iso.18013.5.1","family_name"]},{"path":["org.iso.18013.5.1","age_over_18"]}]"#))]}"#)
        #expect(query.shortfalls([Self.shown("mdl", ["family_name": .string("Doe"), "age_over_18": .bool(true)])]).isEmpty)
        #expect(query.shortfalls([Self.shown("mdl", ["family_name": .string("Doe")])])
                == [.claimMissing(credentialId: "mdl", path: [Self.space, "age_over_18"], errorCode: nil)])
        // An element shown in another namespace is not the one asked for.
        #expect(query.shortfalls([Presented(credentialId: "mdl", elements: [Self.space: ["family_name": .string("Doe")], "other": ["age_over_18": .bool(true)]])])
                == [.claimMissing(credentialId: "mdl", path: [Self.space, "age_over_18"], errorCode: nil)])
    }

    @Test func theDocumentsErrorForAMissingClaimIsKept() throws {
        let query = try Self.dcql(#"{"credentials":[\#(Self.mdl())]}"#)
        let withError = Presented(credentialId: "mdl", elements: [:], elementErrors: [Self.space: ["family_name": 1]])
        #expect(query.shortfalls([withError]) == [.claimMissing(credentialId: "mdl", path: [Self.space, "family_name"], errorCode: 1)])
    }

    @Test func claimSetsNeedOneOptionWhole() throws {
        let claims = #"[{"id":"a","path":["org.iso.18013.5.1","family_name"]},{"id":"b","path":["org.iso.18013.5.1","age_over_18"]},{"id":"c","path":["org.iso.18013.5.1","birth_date"]}]"#
        let query = try Self.dcql(#"{"credentials":[\#(Self.mdl(claims: claims, extra: #","claim_sets":[["a","c"],["b"]]"#))]}"#)
        #expect(query.shortfalls([Self.shown("mdl", ["age_over_18": .bool(true)])]).isEmpty)
        #expect(query.shortfalls([Self.shown("mdl", ["family_name": .string("Doe"), "birth_date": .string("1990-02-28")])]).isEmpty)
        // family_name alone: [a, c] lacks c, [b] lacks b; equals, so the first option (the query's preference) names c.
        #expect(query.shortfalls([Self.shown("mdl", ["family_name": .string("Doe")])])
                == [.claimMissing(credentialId: "mdl", path: [Self.space, "birth_date"], errorCode: nil)])
    }

    @Test func aClaimWithValuesMatchesOnlyThoseValues() throws {
        let query = try Self.dcql(#"{"credentials":[\#(Self.mdl(claims: #"[{"path":["org.iso.18013.5.1","age_over_18"],"values":[true]}]"#))]}"#)
        #expect(query.shortfalls([Self.shown("mdl", ["age_over_18": .bool(true)])]).isEmpty)
        #expect(query.shortfalls([Self.shown("mdl", ["age_over_18": .bool(false)])]) == [.claimValueMismatch(credentialId: "mdl", path: [Self.space, "age_over_18"])])
        // Type and value both: the string "true" is not the boolean true.
        #expect(query.shortfalls([Self.shown("mdl", ["age_over_18": .string("true")])]) == [.claimValueMismatch(credentialId: "mdl", path: [Self.space, "age_over_18"])])
    }

    @Test func onePresentationUnlessMultiple() throws {
        let name: [String: JSONValue] = ["family_name": .string("Doe")]
        let single = try Self.dcql(#"{"credentials":[\#(Self.mdl())]}"#)
        #expect(single.shortfalls([Self.shown("mdl", name), Self.shown("mdl", name)]) == [.tooManyPresentations(credentialId: "mdl", count: 2)])
        let multiple = try Self.dcql(#"{"credentials":[\#(Self.mdl(extra: #","multiple":true"#))]}"#)
        #expect(multiple.shortfalls([Self.shown("mdl", name), Self.shown("mdl", name)]).isEmpty)
        // Every presentation of a multiple query shows what the query asks.
        #expect(multiple.shortfalls([Self.shown("mdl", name), Self.shown("mdl", [:])])
                == [.claimMissing(credentialId: "mdl", path: [Self.space, "family_name"], errorCode: nil)])
    }

    @Test func aPresentationDefinitionRequiresEveryFieldThatIsNotOptional() throws {
        let definition = try JSONDecoder().decode(JSONValue.self, from: Data(#"""
            {"id":"s","input_descriptors":[{"id":"org.iso.18013.5.1.mDL","constraints":{"fields":[
              {"path":["$['org.iso.18013.5.1']['family_name']"]},{"path":["$['org.iso.18013.5.1']['portrait']"],"optional":true}]}}]}
            """#.utf8))
        let query = try PresentationRequirements(presentationDefinition: definition)
        #expect(query.credentials.map(\.docType) == ["org.iso.18013.5.1.mDL"])
        #expect(query.shortfalls([Self.shown("org.iso.18013.5.1.mDL", ["family_name": .string("Doe")])]).isEmpty)
        #expect(query.shortfalls([Self.shown("org.iso.18013.5.1.mDL", ["portrait": .string("x")])])
                == [.claimMissing(credentialId: "org.iso.18013.5.1.mDL", path: [Self.space, "family_name"], errorCode: nil)])
        #expect(query.shortfalls([]) == [.credentialMissing(credentialId: "org.iso.18013.5.1.mDL")])
    }

    @Test func requestsRequireEveryElement() {
        let query = PresentationRequirements(requests: [RequestedCredential(id: "credential", docType: "org.iso.18013.5.1.mDL",
                                                                              nameSpaces: [Self.space: ["family_name": true, "age_over_18": false]])])
        #expect(query.shortfalls([Self.shown("credential", ["family_name": .string("Doe")])])
                == [.claimMissing(credentialId: "credential", path: [Self.space, "age_over_18"], errorCode: nil)])
    }

    @Test(arguments: [
        #"{"credentials":[]}"#,
        #"{"credentials":[\#(mdl()),\#(mdl())]}"#,
        #"{"credentials":[\#(mdl("a b"))]}"#,
        #"{"credentials":[\#(mdl(extra: #","multiple":1"#))]}"#,
        #"{"credentials":[\#(mdl(claims: "[]"))]}"#,
        #"{"credentials":[\#(mdl(claims: #"[{"path":["org.iso.18013.5.1"]}]"#))]}"#,
        #"{"credentials":[\#(mdl(claims: #"[{"path":["n","e"]},{"path":["n","e"]}]"#))]}"#,
        #"{"credentials":[\#(mdl(claims: #"[{"path":["n","e"],"values":[]}]"#))]}"#,
        #"{"credentials":[\#(mdl(claims: #"[{"path":["n","e"],"values":[1.5]}]"#))]}"#,
        #"{"credentials":[\#(mdl(claims: #"[{"id":"a","path":["n","e"]},{"path":["n","f"]}]"#, extra: #","claim_sets":[["a"]]"#))]}"#,
        #"{"credentials":[\#(mdl(claims: #"[{"id":"a","path":["n","e"]}]"#, extra: #","claim_sets":[["b"]]"#))]}"#,
        #"{"credentials":[\#(mdl(claims: #"[{"id":"a","path":["n","e"]}]"#, extra: #","claim_sets":[[]]"#))]}"#,
        #"{"credentials":[\#(mdl())],"credential_sets":[]}"#,
        #"{"credentials":[\#(mdl())],"credential_sets":[{"options":[["mdl","pid"]]}]}"#,
        #"{"credentials":[\#(mdl())],"credential_sets":[{"options":[["mdl"]],"required":"no"}]}"#,
        #"{"credentials":[{"id":"sd","format":"dc+sd-jwt","meta":{"vct_values":["x"]},"claims":[{"path":["a"]}]}]}"#,
    ])
    func queriesThatCannotBeHeldToAreRefused(_ text: String) {
        #expect(throws: PresentationRequirements.Invalid.self) { try Self.dcql(text) }
    }

    /// What a wallet asks of a stored credential: whether it holds one option of `claim_sets` whole.
    @Test func aCredentialLacksOnlyWhatNoOptionOfItsClaimSetsHas() throws {
        let claims = #"[{"id":"fn","path":["org.iso.18013.5.1","family_name"]},{"id":"age","path":["org.iso.18013.5.1","age_over_18"]}]"#
        let query = try Self.dcql(#"{"credentials":[\#(Self.mdl(claims: claims, extra: #","claim_sets":[["fn","age"],["age"]]"#))]}"#)
        let credential = try #require(query.credential(id: "mdl"))
        #expect(query.claimsLacking(credential, in: Self.shown("mdl", ["age_over_18": .bool(true)])).isEmpty)
        #expect(query.claimsLacking(credential, in: Self.shown("mdl", ["family_name": .string("Doe")]))
            == [.claimMissing(credentialId: "mdl", path: [Self.space, "age_over_18"], errorCode: nil)])
    }
}
