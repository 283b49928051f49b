import CBOR
import COSE
import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastServer
import JOSE
import MDoc
import OpenID4VP
import Testing
import TestSupport
import X509

/// A verified result never mixes two credentials (docs/server-api.md "Verifier"): every presented document is one entry of
/// `credentials`, with its own claims, issuer and status, and `claims` (by docType) is kept only when no docType was
/// presented twice. Two people's mDLs of one docType — one showing a portrait and a name, the other `age_over_18` —
/// come back as two entries, never as one map.
@Suite struct PresentationResultCredentialsTests {
    static let docType = "org.iso.18013.5.1.mDL"
    static let space = "org.iso.18013.5.1"
    static let day: TimeInterval = 86_400

    /// An issuer (IACA → document signer) and two holders, each with a credential of the same docType.
    struct Fixture: IssuedByTestMDocIssuer {
        let issuer: TestMDocIssuer
        let doeKey = P256.Signing.PrivateKey()
        let roeKey = P256.Signing.PrivateKey()
        let transcript = TestMDocIssuer.transcript

        init() throws {
            issuer = try TestMDocIssuer("Results")
        }

        /// Jane Doe's mDL (with a portrait, not of age) or Richard Roe's (of age), issued to its holder's device key,
        /// disclosing `elements` only, device-signed over the session's transcript.
        func document(roe: Bool, _ elements: Set<String>, status: MobileSecurityObject.StatusReference? = nil) throws -> Document {
            let values: [(identifier: String, value: CBOR)] = roe
                ? [("family_name", .text("Roe")), ("portrait", .bytes([0xFF, 0xD8, 0x02])), ("age_over_18", .bool(true))]
                : [("family_name", .text("Doe")), ("portrait", .bytes([0xFF, 0xD8, 0x01])), ("age_over_18", .bool(false))]
            let deviceKey = roe ? roeKey : doeKey
            let issued = try MDocIssuer(signer: COSESigningKey.p256(signerKey), certificateChain: [try MDocCertificates.der(signer)]).issue(
                docType: PresentationResultCredentialsTests.docType,
                nameSpaces: [.init(name: PresentationResultCredentialsTests.space, elements: values)],
                deviceKey: COSEKey(publicKey: deviceKey.publicKey), validity: .init(signed: now - 60, validFrom: now - 60, validUntil: now + 30 * day),
                status: status)
            let docType = PresentationResultCredentialsTests.docType
            return Document(docType: docType, issuerSigned: issued.disclosing([PresentationResultCredentialsTests.space: elements]),
                            deviceSigned: try DeviceSigned.sign(docType: docType, sessionTranscript: transcript, signer: COSESigningKey.p256(deviceKey)))
        }

        static func presentation(_ documents: [Document]) -> JSONValue {
            .string(Base64URL.encode(DeviceResponse(documents: documents).encoded()))
        }

        func verify(_ requirements: PresentationRequirements, _ token: JSONValue, protocol: PresentationProtocol.Known = .openID4VP,
                    status: @escaping PresentationResponseVerifier.StatusCheck = { _, _ in nil }) async throws -> PresentationResult {
            try await PresentationResponseVerifier(protocol: `protocol`, requirements: requirements, transcript: transcript, trust: IssuerTrust(iacas: [iaca]))
                .verify(vpToken: token, at: now, status: status)
        }
    }

    static func dcql(_ text: String) throws -> PresentationRequirements { try PresentationRequirements(dcql: try JSONValue(json: Array(text.utf8))) }

    static func claim(_ id: String, _ element: String) -> String { #"{"id":"\#(id)","path":["\#(space)","\#(element)"]}"# }

    /// One credential query, `multiple: true`, satisfied by a portrait and a name, or by `age_over_18`.
    static let multiple = #"{"credentials":[{"id":"mdl","format":"mso_mdoc","multiple":true,"meta":{"doctype_value":"\#(docType)"},"claims":["#
        + [claim("name", "family_name"), claim("portrait", "portrait"), claim("age", "age_over_18")].joined(separator: ",")
        + #"],"claim_sets":[["name","portrait"],["age"]]}]}"#

    static func bytes(_ value: [UInt8]) -> JSONValue { .object(["$type": .string("bytes"), "value": .string(Data(value).base64EncodedString())]) }

    @Test func twoMDocsOfOneDocTypeAreTwoCredentialsAndNoMergedClaims() async throws {
        let fixture = try Fixture()
        let doe = try fixture.document(roe: false, ["family_name", "portrait"])
        let roe = try fixture.document(roe: true, ["age_over_18"])
        let result = try await fixture.verify(try Self.dcql(Self.multiple), .object(["mdl": .array([Fixture.presentation([doe]), Fixture.presentation([roe])])]))
        #expect(result.status == .verified, "\(result)")
        // No map by docType: it would put Doe's portrait beside Roe's age_over_18.
        #expect(result.claims == nil, "\(result)")
        let credentials = try #require(result.credentials)
        #expect(credentials.count == 2)
        #expect(credentials.map(\.credentialQueryId) == ["mdl", "mdl"] && credentials.allSatisfy { $0.inputDescriptorId == nil && $0.docType == Self.docType })
        #expect(credentials.first?.claims == [Self.space: ["family_name": .string("Doe"), "portrait": Self.bytes([0xFF, 0xD8, 0x01])]])
        #expect(credentials.last?.claims == [Self.space: ["age_over_18": .bool(true)]])
        for credential in credentials {
            #expect(credential.issuer == .init(subject: fixture.signer.subject.description, iaca: fixture.iaca.subject.description))
            #expect(credential.issuer.subject.contains("CN=Results DS") && credential.issuer.iaca.contains("CN=Results IACA"), "\(credential.issuer)")
            #expect(credential.status == .notRevocable)
        }
        // The same two documents in one DeviceResponse are two entries as well.
        let together = try await fixture.verify(try Self.dcql(Self.multiple), .object(["mdl": .array([Fixture.presentation([doe, roe])])]))
        #expect(together.status == .verified && together.claims == nil && together.credentials?.count == 2, "\(together)")
        #expect(Set(together.credentials?.map(\.claims) ?? []) == Set(credentials.map(\.claims)))
    }

    @Test func twoCredentialQueriesForOneDocTypeAreTwoCredentials() async throws {
        let fixture = try Fixture()
        let query = #"{"credentials":[{"id":"holder","format":"mso_mdoc","meta":{"doctype_value":"\#(Self.docType)"},"claims":[\#(Self.claim("n", "family_name"))]},"#
            + #"{"id":"guardian","format":"mso_mdoc","meta":{"doctype_value":"\#(Self.docType)"},"claims":[\#(Self.claim("a", "age_over_18"))]}]}"#
        let result = try await fixture.verify(try Self.dcql(query), .object([
            "holder": .array([Fixture.presentation([try fixture.document(roe: false, ["family_name"])])]),
            "guardian": .array([Fixture.presentation([try fixture.document(roe: true, ["age_over_18"])])]),
        ]))
        #expect(result.status == .verified && result.claims == nil, "\(result)")
        let byQuery = Dictionary(uniqueKeysWithValues: (result.credentials ?? []).map { ($0.credentialQueryId ?? "", $0.claims) })
        #expect(byQuery == ["holder": [Self.space: ["family_name": .string("Doe")]], "guardian": [Self.space: ["age_over_18": .bool(true)]]])
    }

    @Test func oneDocumentKeepsClaimsBesideItsOneCredential() async throws {
        let fixture = try Fixture()
        let requirements = PresentationRequirements(requests: [
            RequestedCredential(id: "credential", docType: Self.docType, nameSpaces: [Self.space: ["family_name": false, "age_over_18": false]]),
        ])
        let status = MobileSecurityObject.StatusReference(index: 7, uri: "https://issuer.example/lists/1")
        let document = try fixture.document(roe: true, ["family_name", "age_over_18"], status: status)
        let expected: [String: [String: JSONValue]] = [Self.space: ["family_name": .string("Roe"), "age_over_18": .bool(true)]]

        let result = try await fixture.verify(requirements, .object(["credential": .array([Fixture.presentation([document])])])) { reference, _ in
            reference == status ? nil : .init(code: PresentationFailureCode.statusUnknown, reason: "another list")
        }
        #expect(result.status == .verified, "\(result)")
        #expect(result.claims == [Self.docType: expected])
        let credential = try #require(result.credentials?.first)
        #expect(result.credentials?.count == 1 && credential.credentialQueryId == "credential" && credential.inputDescriptorId == nil)
        #expect(credential.claims == expected && credential.status == .valid)

        // ISO/IEC TS 18013-7:2024: the entry names the input descriptor (the docType), not a credential query.
        let iso = try await fixture.verify(requirements, Fixture.presentation([document]), protocol: .iso18013_7)
        #expect(iso.status == .verified, "\(iso)")
        #expect(iso.credentials?.map(\.inputDescriptorId) == ["credential"] && iso.credentials?.first?.credentialQueryId == nil)

        // A result that failed carries neither.
        let revoked = try await fixture.verify(requirements, .object(["credential": .array([Fixture.presentation([document])])])) { _, _ in
            .init(code: PresentationFailureCode.statusRevoked, reason: "revoked")
        }
        #expect(revoked.status == .failed && revoked.claims == nil && revoked.credentials == nil, "\(revoked)")
    }
}
