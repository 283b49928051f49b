import OpenID4VP
import JOSE
import Testing

/// The two query forms of a request object (OpenID4VP 1.0 DCQL, ISO/IEC TS 18013-7:2024 presentation definition), as
/// the verifier writes them and the wallet reads them.
@Suite struct PresentationQueryTests {
    static let asked = [
        RequestedCredential(id: "mdl", docType: "org.iso.18013.5.1.mDL",
                            nameSpaces: ["org.iso.18013.5.1": ["family_name": true, "age_over_18": false]]),
        RequestedCredential(id: "pid", docType: "eu.europa.ec.eudi.pid.1",
                            nameSpaces: ["eu.europa.ec.eudi.pid.1": ["birth_date": false]]),
    ]

    @Test func whatIsWrittenIsReadBack() throws {
        #expect(try PresentationQuery.requests(dcql: PresentationQuery.dcql(Self.asked)) == Self.asked)
        // The presentation definition names each descriptor by its docType.
        let definition = PresentationQuery.presentationDefinition(id: "session", Self.asked)
        #expect(try PresentationQuery.requests(presentationDefinition: definition)
                == Self.asked.map { RequestedCredential(id: $0.docType, docType: $0.docType, nameSpaces: $0.nameSpaces) })
        #expect(PresentationQuery.dcql(Self.asked) == PresentationQuery.dcql(Self.asked.reversed().reversed()))
    }

    @Test func otherFormatsAreLeftOutAndBadPathsRefused() throws {
        let mixed = JSONValue.object(["credentials": .array([
            .object(["id": .string("sd"), "format": .string("dc+sd-jwt"), "meta": .object(["vct_values": .array([.string("x")])])]),
            .object(["id": .string("mdl"), "format": .string("mso_mdoc"), "meta": .object(["doctype_value": .string("org.iso.18013.5.1.mDL")]),
                     "claims": .array([.object(["path": .array([.string("org.iso.18013.5.1"), .string("family_name")])])])]),
        ])])
        #expect(try PresentationQuery.requests(dcql: mixed).map(\.id) == ["mdl"])
        let badPath = JSONValue.object(["credentials": .array([
            .object(["id": .string("mdl"), "format": .string("mso_mdoc"), "meta": .object(["doctype_value": .string("org.iso.18013.5.1.mDL")]),
                     "claims": .array([.object(["path": .array([.string("family_name")])])])]),
        ])])
        #expect(throws: PresentationQuery.Failure.claimPath(id: "mdl")) { try PresentationQuery.requests(dcql: badPath) }
        #expect(PresentationQuery.fieldPath("$['org.iso.18013.5.1']['family_name']")! == ("org.iso.18013.5.1", "family_name"))
        #expect(PresentationQuery.fieldPath("$.family_name") == nil)
    }
}
