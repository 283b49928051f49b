import CBOR
import COSE
import Crypto
import Foundation
import HoldfastProtocol
import JOSE
import MDoc
import OpenID4VP
import PresentationVerification
import Testing
import X509

/// The shared DeviceResponse checks (`DeviceResponseVerification`): an honest answer verifies, and for each check an
/// answer honest in every other way fails on that check alone, with its code.
@Suite struct DeviceResponseVerificationTests {
    typealias Fixture = VerificationFixture

    @Test func anHonestAnswerIsVerifiedWithWhatWasAsked() async throws {
        let fixture = try Fixture()
        let result = try await fixture.verify([try fixture.document(try fixture.issued())])
        #expect(result.status == .verified, "\(result)")
        let credential = try #require(result.credentials?.first)
        #expect(credential.claims == [Fixture.space: ["family_name": .string("Doe"), "age_over_18": .bool(true)]])
        #expect(credential.credentialQueryId == nil && credential.inputDescriptorId == nil && credential.status == .notRevocable)
        #expect(credential.issuer.subject.contains("CN=Verification DS") && credential.issuer.iaca.contains("CN=Verification IACA"))
        #expect(result.claims?[Fixture.docType] == credential.claims)
    }

    @Test func anotherIACAIsIssuerUntrusted() async throws {
        let fixture = try Fixture(), other = try Fixture()
        let result = try await fixture.verify([try fixture.document(try fixture.issued())], fixture.verification(trust: other.trust))
        #expect(result.codes == [.issuerUntrusted], "\(result)")
    }

    @Test func anMSOSignedByAnotherKeyIsIssuerSignatureInvalid() async throws {
        let fixture = try Fixture()
        let result = try await fixture.verify([try fixture.document(try fixture.issued(signing: P256.Signing.PrivateKey()))])
        #expect(result.codes == [.issuerSignatureInvalid], "\(result)")
    }

    @Test func aChangedValueIsDigestMismatch() async throws {
        let fixture = try Fixture()
        let issued = try fixture.issued()
        let space = try #require(issued.nameSpaces.first)
        let items = space.items.map { item in
            item.elementIdentifier == "age_over_18"
                ? IssuerSignedItem(digestID: item.digestID, random: item.random, elementIdentifier: item.elementIdentifier, elementValue: .bool(false))
                : item
        }
        let changed = try IssuerSigned(nameSpaces: [.init(name: space.name, items: items)], issuerAuth: issued.issuerAuth)
        let result = try await fixture.verify([try fixture.document(changed)])
        #expect(result.codes == [.digestMismatch], "\(result)")
    }

    @Test func aSignatureOverAnotherTranscriptIsDeviceSignatureInvalid() async throws {
        let fixture = try Fixture()
        let other = SessionTranscript(handover: .array([.text("another session")]))
        let result = try await fixture.verify([try fixture.document(try fixture.issued(), over: other)])
        #expect(result.codes == [.deviceSignatureInvalid], "\(result)")
    }

    @Test func aDeviceMacVerifiesWithTheReaderKeyAndOnlyWithIt() async throws {
        let fixture = try Fixture()
        let honest = try await fixture.verify([try fixture.macDocument(try fixture.issued())])
        #expect(honest.status == .verified, "\(honest)")
        // A MAC made for another reader key (EMacKey of another ECDH) does not verify.
        let forAnother = try await fixture.verify([try fixture.macDocument(try fixture.issued(), reader: P256.KeyAgreement.PrivateKey().publicKey)])
        #expect(forAnother.codes == [.deviceSignatureInvalid], "\(forAnother)")
        // Nor does an honest MAC under another reader key on the reader's side.
        let otherReader = try await fixture.verify([try fixture.macDocument(try fixture.issued())],
                                                   fixture.verification(readerKey: P256.KeyAgreement.PrivateKey()))
        #expect(otherReader.codes == [.deviceSignatureInvalid], "\(otherReader)")
        // Without a reader key (online presentation) a deviceMac is refused.
        let online = DeviceResponseVerification(requirements: Fixture.requirements, transcripts: [fixture.transcript], trust: fixture.trust,
                                                naming: .none, at: fixture.now) { _, _ in nil }
        let refused = try await fixture.verify([try fixture.macDocument(try fixture.issued())], online)
        #expect(refused.codes == [.deviceSignatureInvalid], "\(refused)")
    }

    @Test func anElementNotAskedForIsElementNotRequested() async throws {
        let fixture = try Fixture()
        let result = try await fixture.verify([try fixture.document(try fixture.issued(), Fixture.asked.union(["portrait"]))])
        #expect(result.codes == [.elementNotRequested], "\(result)")
        #expect(result.failures?.first?.path == [Fixture.space, "portrait"])
    }

    @Test func anElementAskedForAndNotShownIsClaimMissing() async throws {
        let fixture = try Fixture()
        let result = try await fixture.verify([try fixture.document(try fixture.issued(), ["family_name"])])
        #expect(result.codes == [.claimMissing], "\(result)")
        #expect(result.failures?.first?.path == [Fixture.space, "age_over_18"])
    }

    @Test func aDocTypeNotAskedForIsDocTypeMismatch() async throws {
        let fixture = try Fixture()
        let requirements = PresentationRequirements(itemsRequests: [
            ItemsRequest(docType: "org.iso.23220.photoid.1", nameSpaces: [.init(Fixture.space, elements: [.init("family_name")])]),
        ])
        let result = try await fixture.verify([try fixture.document(try fixture.issued())], fixture.verification(requirements: requirements))
        // The mDL was not asked for; the photo ID asked for was not given.
        #expect(result.codes == [.docTypeMismatch, .credentialMissing], "\(result)")
    }

    @Test func pastValidUntilIsExpired() async throws {
        let fixture = try Fixture()
        let issued = try fixture.issued(validFor: Fixture.day)
        let result = try await fixture.verify([try fixture.document(issued)], fixture.verification(at: fixture.now + 2 * Fixture.day))
        #expect(result.codes == [.expired], "\(result)")
    }

    @Test func theStatusCheckSaysRevoked() async throws {
        let fixture = try Fixture()
        let reference = MobileSecurityObject.StatusReference(index: 3, uri: "https://issuer.example/status/1")
        let issued = try fixture.issued(status: reference)
        let honest = try await fixture.verify([try fixture.document(issued)])
        #expect(honest.status == .verified && honest.credentials?.first?.status == .valid, "\(honest)")
        let revoked = fixture.verification { status, iaca in
            #expect(status == reference && iaca == fixture.iaca)
            return .init(code: .statusRevoked, reason: "the status list says 1")
        }
        let result = try await fixture.verify([try fixture.document(issued)], revoked)
        #expect(result.codes == [.statusRevoked], "\(result)")
    }

    @Test func aStatusOtherThanOKIsDeviceResponseStatus() async throws {
        let fixture = try Fixture()
        let result = try await fixture.verify([try fixture.document(try fixture.issued())], status: 10)
        #expect(result.codes == [.deviceResponseStatus], "\(result)")
        #expect(result.failures?.first?.value == .integer(10))
    }

    @Test func documentErrorsAreDocumentErrors() async throws {
        let fixture = try Fixture()
        let errors = CBOR.map([.init(.text("org.iso.23220.photoid.1"), .unsigned(0))])
        let result = try await fixture.verify([try fixture.document(try fixture.issued())], documentErrors: errors)
        #expect(result.codes == [.documentErrors], "\(result)")
    }

    @Test func bytesThatAreNoDeviceResponseAreMalformed() async throws {
        let fixture = try Fixture()
        let result = try await fixture.verification().verify(deviceResponse: [0xA0])
        #expect(result.codes == [.malformed], "\(result)")
    }

    /// A DeviceRequest requires every element it asks for, and nothing else; two requests for one docType are one.
    @Test func aDeviceRequestRequiresEveryElementAsked() throws {
        let requirements = PresentationRequirements(itemsRequests: [
            ItemsRequest(docType: Fixture.docType, nameSpaces: [.init(Fixture.space, elements: [.init("family_name"), .init("portrait")])]),
            ItemsRequest(docType: Fixture.docType, nameSpaces: [.init(Fixture.space, elements: [.init("portrait"), .init("age_over_18")])]),
        ])
        #expect(requirements.credentials.count == 1)
        let credential = try #require(requirements.credentials.first)
        #expect(credential.id == Fixture.docType && !credential.multiple && requirements.credentialSets == nil)
        #expect(credential.claims.map(\.element) == ["family_name", "portrait", "age_over_18"])
        #expect(credential.claims.allSatisfy { !$0.optional && $0.values == nil })
    }

    /// The names a failure and a credential carry follow the protocol: OpenID4VP's credential query id, 18013-7's
    /// input descriptor id.
    @Test func failuresAndCredentialsAreNamedAsTheProtocolNamesThem() async throws {
        let fixture = try Fixture()
        let response = DeviceResponse(documents: [try fixture.document(try fixture.issued(), ["family_name"])])
        for naming in [DeviceResponseVerification.Naming.credentialQuery, .inputDescriptor] {
            let verification = fixture.verification(naming: naming)
            var outcome = DeviceResponseVerification.Outcome()
            try await verification.verify(response, answering: Fixture.docType, into: &outcome)
            let result = verification.result(outcome, nothingPresented: "none")
            let failure = try #require(result.failures?.first)
            #expect(failure.code == .claimMissing)
            #expect(naming == .credentialQuery ? failure.credentialQueryId == Fixture.docType && failure.inputDescriptorId == nil
                                               : failure.inputDescriptorId == Fixture.docType && failure.credentialQueryId == nil)
        }
    }
}
