import Foundation
import HoldfastProtocol
@testable import HoldfastSDK
import JOSE
import OpenID4VP
import Testing

/// docs/sdk.md "Holder: presentation": when no stored credential answers a request, the session says what is missing —
/// per request (`MatchedCredentials.missing`) and as the `CREDENTIAL_NOT_FOUND` error's `missing`
/// (`OnlinePresentationSession.credentialNotFound`) — for a DCQL query and a presentation definition alike, and
/// leaves the verifier's session to the app (`declineRequest()`).
@Suite struct PresentationMissingItemsTests {
    let base = PresentationSessionTests()
    static let ageOver18 = MissingItem.element(docType: FakeIssuer.docType, nameSpace: "org.iso.18013.5.1", elementIdentifier: "age_over_18")

    @Test(arguments: [PresentationProtocol.openID4VP, .iso18013_7])
    func anElementNoStoredCredentialHoldsIsNamed(_ presentationProtocol: PresentationProtocol) async throws {
        let (holder, verifier, _) = try await base.rig(presentationProtocol)
        // age_over_18 an alternative (claim_sets / optional): the credential matches, nothing is missing.
        let offered = try await holder.createOnlinePresentationSession(authorisationRequestUri: await verifier.authorizationRequestURI)
        #expect(offered.matchedCredentials.first?.missing == [] && offered.credentialNotFound == nil)
        // Required: the credential of that docType lacks it, and it alone is named.
        await verifier.setAgeOver18Required(true)
        let session = try await holder.createOnlinePresentationSession(authorisationRequestUri: await verifier.authorizationRequestURI)
        #expect(session.matchedCredentials.first?.missing == [Self.ageOver18])
        let error = try #require(session.credentialNotFound)
        #expect(error.code == .credentialNotFound && error.missing == [Self.ageOver18])
        #expect(error.message.contains("no stored \(FakeIssuer.docType) holds org.iso.18013.5.1/age_over_18"), "\(error.message)")
        #expect(!error.message.contains("family_name"), "\(error.message)")
        // Nothing was said to the verifier: the app declines (or not).
        #expect(await verifier.responses == 0)
        try await session.declineRequest()
        #expect(await verifier.declined)
    }

    @Test(arguments: [PresentationProtocol.openID4VP, .iso18013_7])
    func aDocTypeNoStoredCredentialHasIsNamed(_ presentationProtocol: PresentationProtocol) async throws {
        let (holder, verifier, _) = try await base.rig(presentationProtocol)
        await verifier.setDocType("org.iso.23220.photoid.1")
        let session = try await holder.createOnlinePresentationSession(authorisationRequestUri: await verifier.authorizationRequestURI)
        #expect(session.matchedCredentials.first?.missing == [.docType("org.iso.23220.photoid.1")])
        let error = try #require(session.credentialNotFound)
        #expect(error.code == .credentialNotFound && error.missing == [.docType("org.iso.23220.photoid.1")])
        #expect(error.message.contains("no org.iso.23220.photoid.1 is stored"), "\(error.message)")
    }

    @Test func aCredentialThatHoldsWhatIsAskedButCannotBePresentedIsNamed() async throws {
        let (holder, verifier, id) = try await base.rig(.openID4VP)
        base.clock.advance(by: 86_400 * 31)  // past the credential's validUntil (30 days)
        let session = try await holder.createOnlinePresentationSession(authorisationRequestUri: await verifier.authorizationRequestURI)
        let expected = [MissingItem.presentableCredential(docType: FakeIssuer.docType, credentialIds: [id])]
        #expect(session.matchedCredentials.first?.missing == expected)
        let error = try #require(session.credentialNotFound)
        #expect(error.missing == expected && error.message.contains("\(id) holds what is asked but cannot be presented now"), "\(error.message)")
    }

    @Test func anElementValueTheRequestDoesNotAcceptIsNamed() throws {
        let claim = PresentationRequirements.Claim(nameSpace: "org.iso.18013.5.1", element: "family_name", values: [.string("Roe")])
        let requirement = PresentationRequirements.Credential(id: "licence", docType: FakeIssuer.docType, claims: [claim])
        func credential(_ claims: [String: JSONValue]) -> MobileCredential {
            MobileCredential(metadata: MobileCredentialMetadata(id: "c", docType: FakeIssuer.docType, branding: nil, claims: [:],
                                                                issuerInfo: CredentialIssuerInfo(),
                                                                validityInfo: CredentialValidityInfo(validFrom: .distantPast, validUntil: .distantFuture)),
                             claims: ["org.iso.18013.5.1": claims], verificationResult: .success, status: nil, statusCheckedAt: nil, issuerSigned: [])
        }
        #expect(Presentations.lacking(credential(["family_name": .string("Roe")]), by: requirement) == [])
        #expect(Presentations.lacking(credential(["family_name": .string("Doe")]), by: requirement)
                == [.elementValue(docType: FakeIssuer.docType, nameSpace: "org.iso.18013.5.1", elementIdentifier: "family_name")])
        #expect(Presentations.lacking(credential(["given_name": .string("Jane")]), by: requirement)
                == [.element(docType: FakeIssuer.docType, nameSpace: "org.iso.18013.5.1", elementIdentifier: "family_name")])
    }

    /// Several stored credentials of the docType: what none of them holds is named; when each lacks something else,
    /// what the closest lacks.
    @Test func whatNoStoredCredentialOfTheDocTypeHoldsIsNamed() {
        let docType = FakeIssuer.docType
        func element(_ name: String) -> MissingItem { .element(docType: docType, nameSpace: "ns", elementIdentifier: name) }
        #expect(MissingItem.missing(docType: docType, lacking: [], unpresentable: []) == [.docType(docType)])
        #expect(MissingItem.missing(docType: docType, lacking: [[element("a"), element("b")], [element("b"), element("c")]], unpresentable: [])
                == [element("b")])
        #expect(MissingItem.missing(docType: docType, lacking: [[element("a"), element("b")], [element("c")]], unpresentable: []) == [element("c")])
        #expect(MissingItem.missing(docType: docType, lacking: [[element("a")]], unpresentable: ["x"])
                == [.presentableCredential(docType: docType, credentialIds: ["x"])])
        #expect(MissingItem.sentence([.docType("org.example.a"), element("a"), element("b")])
                == "no org.example.a is stored; no stored \(docType) holds ns/a, ns/b")
        #expect(element("a").description == "ns/a" && MissingItem.docType("org.example.a").description == "org.example.a")
    }
}
