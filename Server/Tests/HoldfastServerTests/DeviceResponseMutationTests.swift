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

/// The mutation campaign of the tenant's verifier on a `vp_token` (docs/security.md "Security"): an honest OpenID4VP 1.0
/// response is verified; each mutation of it — a field removed, a signed byte flipped, a certificate swapped, the
/// time moved past a window, an id swapped for another session's — is refused, with the code docs/server-api.md "Verifier" gives.
@Suite struct DeviceResponseMutationTests {
    static let docType = "org.iso.18013.5.1.mDL"
    static let space = "org.iso.18013.5.1"
    static let day: TimeInterval = 86_400

    /// An issuer (IACA → document signer), a credential it issued with a device key, and a session transcript.
    struct Fixture: IssuedByTestMDocIssuer {
        let issuer: TestMDocIssuer
        let deviceKey = P256.Signing.PrivateKey()
        let validity: MobileSecurityObject.ValidityInfo
        let transcript = TestMDocIssuer.transcript

        init() throws {
            issuer = try TestMDocIssuer("Campaign")
            let now = issuer.now
            validity = .init(signed: now - 60, validFrom: now - 60, validUntil: now + 30 * day)
        }

        func issued(chain: [[UInt8]]? = nil, signerKey: P256.Signing.PrivateKey? = nil, deviceKey: P256.Signing.PublicKey? = nil,
                    validity: MobileSecurityObject.ValidityInfo? = nil) throws -> IssuerSigned {
            try MDocIssuer(signer: COSESigningKey.p256(signerKey ?? self.signerKey), certificateChain: chain ?? [try MDocCertificates.der(signer)]).issue(
                docType: DeviceResponseMutationTests.docType,
                nameSpaces: [.init(name: DeviceResponseMutationTests.space, elements: [("family_name", .text("Doe")), ("age_over_18", .bool(true))])],
                deviceKey: COSEKey(publicKey: deviceKey ?? self.deviceKey.publicKey), validity: validity ?? self.validity)
        }

        func document(_ issuerSigned: IssuerSigned, transcript: SessionTranscript? = nil, docType: String = DeviceResponseMutationTests.docType) throws -> Document {
            Document(docType: docType, issuerSigned: issuerSigned,
                     deviceSigned: try DeviceSigned.sign(docType: docType, sessionTranscript: transcript ?? self.transcript, signer: COSESigningKey.p256(deviceKey)))
        }

        func token(_ documents: [Document], key: String = "credential") -> JSONValue {
            .object([key: .array([.string(Base64URL.encode(DeviceResponse(documents: documents).encoded()))])])
        }

        func token(bytes: [UInt8]) -> JSONValue { .object(["credential": .array([.string(Base64URL.encode(bytes))])]) }

        var verifier: PresentationResponseVerifier {
            PresentationResponseVerifier(protocol: .openID4VP, requirements: PresentationRequirements(requests: [
                RequestedCredential(id: "credential", docType: DeviceResponseMutationTests.docType,
                                    nameSpaces: [DeviceResponseMutationTests.space: ["family_name": false, "age_over_18": false]]),
            ]), transcript: transcript, trust: IssuerTrust(iacas: [iaca]))
        }

        /// The first failure's code, or nil when the token is verified.
        func code(_ token: JSONValue, at time: Date? = nil) async throws -> String? {
            let result = try await verifier.verify(vpToken: token, at: time ?? now) { _, _ in nil }
            return result.status == .verified ? nil : result.failures?.first?.code.rawValue ?? "NO_CODE"
        }
    }

    /// Edits the CBOR tree at `path` (map keys as text, array indices as numbers); `change` returning nil removes the
    /// member.
    enum Step { case key(String), index(Int) }
    static func edit(_ tree: CBOR, _ path: [Step], _ change: (CBOR) throws -> CBOR?) rethrows -> CBOR {
        guard let first = path.first else { return try change(tree) ?? .null }
        let rest = Array(path.dropFirst())
        switch (first, tree) {
        case (.key(let key), .map(let pairs)):
            return .map(try pairs.compactMap { pair in
                guard pair.key == .text(key) else { return pair }
                if rest.isEmpty { return try change(pair.value).map { CBOR.Pair(pair.key, $0) } }
                return CBOR.Pair(pair.key, try edit(pair.value, rest, change))
            })
        case (.index(let index), .array(let items)):
            var items = items
            if rest.isEmpty {
                if let changed = try change(items[index]) { items[index] = changed } else { items.remove(at: index) }
            } else {
                items[index] = try edit(items[index], rest, change)
            }
            return .array(items)
        case (_, .tagged(let tag, let inner)):
            return .tagged(tag, try edit(inner, path, change))
        default:
            return tree
        }
    }

    static let issuerAuthPath: [Step] = [.key("documents"), .index(0), .key("issuerSigned"), .key("issuerAuth")]

    /// The response with its MSO changed by `change` and signed again by the document signer (honest but for the
    /// change).
    static func resigned(_ fixture: Fixture, _ response: CBOR, _ change: (CBOR) -> CBOR?) throws -> [UInt8] {
        try edit(response, issuerAuthPath) { issuerAuth in
            guard case .array(let parts) = issuerAuth, case .bytes(let payload) = parts[2],
                  case .tagged(24, .bytes(let msoBytes)) = try CBOR(decoding: payload) else { return issuerAuth }
            let mso = try CBOR(decoding: msoBytes)
            let changed = change(mso) ?? .null
            let unprotected = COSEHeaderMap([CBOR.Pair(.int(COSEHeaderMap.Label.x5chain), .bytes(try MDocCertificates.der(fixture.signer)))])
            let signed = try COSESign1.sign(payload: CBOR.embeddedEncoding(of: changed.encoded()), unprotected: unprotected,
                                            signer: COSESigningKey.p256(fixture.signerKey))
            return try CBOR(decoding: signed.encoded(tagged: false))
        }.encoded()
    }

    @Test func everyMutationOfAnHonestResponseIsRefused() async throws {
        let fixture = try Fixture()
        var campaign = MutationCampaign(verifier: "DeviceResponse at the verifier (OpenID4VP 1.0)")
        let issued = try fixture.issued()
        let document = try fixture.document(issued)
        let valid = DeviceResponse(documents: [document]).encoded()
        #expect(try await fixture.code(fixture.token(bytes: valid)) == nil, "the honest response must be verified")
        let tree = try CBOR(decoding: valid)

        // Each field removed, at every level a verifier reads.
        let removals: [(String, [Step], String)] = [
            ("DeviceResponse.version", [.key("version")], PresentationFailureCode.malformed.rawValue),
            ("DeviceResponse.status", [.key("status")], PresentationFailureCode.malformed.rawValue),
            ("DeviceResponse.documents", [.key("documents")], PresentationFailureCode.credentialMissing.rawValue),
            ("Document", [.key("documents"), .index(0)], PresentationFailureCode.credentialMissing.rawValue),
            ("Document.docType", [.key("documents"), .index(0), .key("docType")], PresentationFailureCode.malformed.rawValue),
            ("Document.issuerSigned", [.key("documents"), .index(0), .key("issuerSigned")], PresentationFailureCode.malformed.rawValue),
            ("Document.deviceSigned", [.key("documents"), .index(0), .key("deviceSigned")], PresentationFailureCode.deviceSignatureInvalid.rawValue),
            ("IssuerSigned.nameSpaces", [.key("documents"), .index(0), .key("issuerSigned"), .key("nameSpaces")], PresentationFailureCode.claimMissing.rawValue),
            ("IssuerSigned.issuerAuth", Self.issuerAuthPath, PresentationFailureCode.malformed.rawValue),
            ("issuerAuth x5chain", Self.issuerAuthPath + [.index(1), .key("33")], PresentationFailureCode.malformed.rawValue),
            ("issuerAuth signature", Self.issuerAuthPath + [.index(3)], PresentationFailureCode.malformed.rawValue),
            ("DeviceSigned.nameSpaces", [.key("documents"), .index(0), .key("deviceSigned"), .key("nameSpaces")], PresentationFailureCode.malformed.rawValue),
            ("DeviceSigned.deviceAuth", [.key("documents"), .index(0), .key("deviceSigned"), .key("deviceAuth")], PresentationFailureCode.malformed.rawValue),
        ]
        for (name, path, expected) in removals {
            var mutated = Self.edit(tree, path) { _ in nil }
            if name == "issuerAuth x5chain" {
                // The unprotected header's label 33 is an integer key: empty the header instead.
                mutated = Self.edit(tree, Self.issuerAuthPath + [.index(1)]) { _ in .map([]) }
            }
            campaign.record("removed \(name)", expected: name == "issuerAuth x5chain" ? PresentationFailureCode.issuerUntrusted.rawValue : expected,
                            got: try await fixture.code(fixture.token(bytes: mutated.encoded())))
        }
        // Each disclosed element removed (selective disclosure below what was asked).
        for element in ["family_name", "age_over_18"] {
            let fewer = issued.disclosing([Self.space: Set(["family_name", "age_over_18"]).subtracting([element])])
            campaign.record("removed element \(element)", expected: PresentationFailureCode.claimMissing.rawValue,
                            got: try await fixture.code(fixture.token([try fixture.document(fewer)])))
        }
        // Each member of the MSO removed, the MSO signed again by the issuer.
        for member in ["version", "digestAlgorithm", "valueDigests", "deviceKeyInfo", "docType", "validityInfo"] {
            let bytes = try Self.resigned(fixture, tree) { mso in Self.edit(mso, [.key(member)]) { _ in nil } }
            campaign.record("removed MSO.\(member)", oneOf: [PresentationFailureCode.malformed.rawValue, PresentationFailureCode.digestMismatch.rawValue],
                            got: try await fixture.code(fixture.token(bytes: bytes)))
        }
        // A digest removed from the MSO: the element it covered no longer verifies.
        let digestless = try Self.resigned(fixture, tree) { mso in
            Self.edit(mso, [.key("valueDigests"), .key(Self.space)]) { digests in
                guard case .map(let pairs) = digests else { return digests }
                return .map(Array(pairs.dropFirst()))
            }
        }
        campaign.record("removed one MSO digest", expected: PresentationFailureCode.digestMismatch.rawValue, got: try await fixture.code(fixture.token(bytes: digestless)))

        // Each signed byte flipped: the issuer's COSE_Sign1 (protected header, MSO, signature, and the certificate it
        // carries), every IssuerSignedItem, and the device's signed part.
        var signedParts: [(String, [UInt8])] = [("issuerAuth", issued.issuerAuth.encoded(tagged: false))]
        for item in issued.nameSpaces.flatMap(\.items) { signedParts.append(("item \(item.elementIdentifier)", item.taggedBytes)) }
        if let deviceSigned = document.deviceSigned { signedParts.append(("deviceSigned", deviceSigned.encoded())) }
        for (part, bytes) in signedParts {
            let range = try #require(MutationCampaign.range(of: bytes, in: valid), "\(part) is not in the response as sent")
            for flip in MutationCampaign.flips(of: valid, in: range) {
                campaign.record("\(part) byte \(flip.index - range.lowerBound) flipped", got: try await fixture.code(fixture.token(bytes: flip.bytes)))
            }
        }

        // Each certificate swapped: for one from another chain, for one under a non-CA, for one of another profile.
        let otherIACAKey = P256.Signing.PrivateKey()
        let otherIACA = try MDocCertificates.iaca(key: otherIACAKey, subject: try MDocCertificates.name(commonName: "Other IACA", country: "ZZ"),
                                                  notBefore: fixture.now - Self.day, notAfter: fixture.now + 100 * Self.day)
        let fromOtherChain = try MDocCertificates.signer(publicKey: fixture.signerKey.publicKey, subject: fixture.signer.subject, iaca: otherIACA,
                                                         iacaKey: otherIACAKey, notBefore: fixture.now - Self.day, notAfter: fixture.now + 100 * Self.day)
        let leafKey = P256.Signing.PrivateKey()
        let leaf = try MDocCertificates.signer(publicKey: leafKey.publicKey, subject: try MDocCertificates.name(commonName: "A leaf", country: "ZZ"),
                                               iaca: fixture.iaca, iacaKey: fixture.iacaKey, notBefore: fixture.now - Self.day, notAfter: fixture.now + 100 * Self.day)
        let underLeaf = try MDocCertificates.signer(publicKey: fixture.signerKey.publicKey, subject: fixture.signer.subject, iaca: leaf, iacaKey: leafKey,
                                                    notBefore: fixture.now - Self.day, notAfter: fixture.now + 100 * Self.day)
        let statusSigner = try MDocCertificates.signer(publicKey: fixture.signerKey.publicKey, subject: fixture.signer.subject, iaca: fixture.iaca,
                                                       iacaKey: fixture.iacaKey, notBefore: fixture.now - Self.day, notAfter: fixture.now + 100 * Self.day,
                                                       extendedKeyUsage: [1, 0, 18013, 5, 1, 99])
        let swaps: [(String, [[UInt8]], P256.Signing.PrivateKey)] = [
            ("a document signer from another chain", [try MDocCertificates.der(fromOtherChain)], fixture.signerKey),
            ("a document signer under a non-CA", [try MDocCertificates.der(underLeaf), try MDocCertificates.der(leaf)], fixture.signerKey),
            ("a signer with another extended key usage", [try MDocCertificates.der(statusSigner)], fixture.signerKey),
            ("the IACA itself as signer", [try MDocCertificates.der(fixture.iaca)], fixture.iacaKey),
            ("the other IACA as signer", [try MDocCertificates.der(otherIACA)], otherIACAKey),
        ]
        for (name, chain, key) in swaps {
            campaign.record("swapped for \(name)", expected: PresentationFailureCode.issuerUntrusted.rawValue,
                            got: try await fixture.code(fixture.token([try fixture.document(try fixture.issued(chain: chain, signerKey: key))])))
        }

        // Each time moved past its window.
        let times: [(String, Date, Set<String>)] = [
            ("before validFrom", fixture.validity.validFrom - 1, [PresentationFailureCode.notYetValid.rawValue]),
            ("after validUntil", fixture.validity.validUntil + 1, [PresentationFailureCode.expired.rawValue]),
            ("after the document signer's notAfter", fixture.signer.notValidAfter + 1, [PresentationFailureCode.issuerUntrusted.rawValue]),
            ("before the document signer's notBefore", fixture.signer.notValidBefore - 1, [PresentationFailureCode.issuerUntrusted.rawValue]),
            ("after the IACA's notAfter", fixture.iaca.notValidAfter + 1, [PresentationFailureCode.issuerUntrusted.rawValue]),
        ]
        for (name, time, expected) in times {
            campaign.record("verified \(name)", oneOf: expected, got: try await fixture.code(fixture.token(bytes: valid), at: time))
        }
        let signedEarly = try fixture.issued(validity: .init(signed: fixture.signer.notValidBefore - 1, validFrom: fixture.now - 60,
                                                             validUntil: fixture.now + Self.day))
        campaign.record("MSO signed before the signer's notBefore", expected: PresentationFailureCode.issuerSignatureInvalid.rawValue,
                        got: try await fixture.code(fixture.token([try fixture.document(signedEarly)])))

        // Each id swapped for another session's, or another credential's.
        let others: [(String, SessionTranscript)] = [
            ("nonce", .openID4VP(clientId: "x509_hash:verifier", nonce: "other-nonce", jwkThumbprint: Array(repeating: 7, count: 32),
                                 responseUri: "https://verifier.example/v2/presentations/sessions/1/response")),
            ("client_id", .openID4VP(clientId: "x509_hash:other", nonce: "session-nonce", jwkThumbprint: Array(repeating: 7, count: 32),
                                     responseUri: "https://verifier.example/v2/presentations/sessions/1/response")),
            ("response_uri", .openID4VP(clientId: "x509_hash:verifier", nonce: "session-nonce", jwkThumbprint: Array(repeating: 7, count: 32),
                                        responseUri: "https://verifier.example/v2/presentations/sessions/2/response")),
            ("encryption key thumbprint", .openID4VP(clientId: "x509_hash:verifier", nonce: "session-nonce", jwkThumbprint: Array(repeating: 8, count: 32),
                                                     responseUri: "https://verifier.example/v2/presentations/sessions/1/response")),
            ("protocol (an 18013-7 transcript)", .iso18013_7(clientId: "verifier", responseUri: "https://verifier.example/v2/presentations/sessions/1/response",
                                                             nonce: "session-nonce", mdocGeneratedNonce: "mdoc")),
        ]
        for (name, transcript) in others {
            campaign.record("signed over another session's \(name)", expected: PresentationFailureCode.deviceSignatureInvalid.rawValue,
                            got: try await fixture.code(fixture.token([try fixture.document(issued, transcript: transcript)])))
        }
        campaign.record("another credential query id", expected: PresentationFailureCode.credentialNotRequested.rawValue,
                        got: try await fixture.code(fixture.token([document], key: "other")))
        campaign.record("another docType", expected: PresentationFailureCode.docTypeMismatch.rawValue,
                        got: try await fixture.code(fixture.token([try fixture.document(issued, docType: "org.iso.23220.photoid.1")])))
        let otherDevice = try fixture.issued(deviceKey: P256.Signing.PrivateKey().publicKey)
        campaign.record("another device key in the MSO", expected: PresentationFailureCode.deviceSignatureInvalid.rawValue,
                        got: try await fixture.code(fixture.token([try fixture.document(otherDevice)])))
        let otherCredential = try fixture.issued()
        let spliced = try IssuerSigned(nameSpaces: otherCredential.nameSpaces, issuerAuth: issued.issuerAuth)
        campaign.record("another credential's elements", expected: PresentationFailureCode.digestMismatch.rawValue,
                        got: try await fixture.code(fixture.token([try fixture.document(spliced)])))

        campaign.report()
        #expect(campaign.escapes.isEmpty, "\(campaign.escapes)")
        #expect(campaign.total > 1_000)
    }
}
