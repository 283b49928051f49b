import COSE
import Crypto
import Foundation
import HoldfastProtocol
import MDoc
import PresentationVerification
import Testing
import X509

/// Validated document signer paths kept between verifications (`DocumentSignerPaths`): used again without a second
/// path validation, their validity checked at each use, never reused under another IACA set, bounded.
@Suite struct DocumentSignerPathsTests {
    typealias Fixture = VerificationFixture

    @Test func aKeptPathIsUsedWithoutASecondValidation() async throws {
        let fixture = try Fixture()
        let issued = try fixture.issued()
        for _ in 0..<3 {
            let result = try await fixture.verify([try fixture.document(issued)])
            #expect(result.status == .verified, "\(result)")
        }
        #expect(fixture.paths.validations == 1)
        #expect(fixture.paths.hits == 2)
        #expect(fixture.paths.count == 1)
    }

    @Test func aSignerThatExpiredSinceItWasKeptIsRefused() async throws {
        // The document signer is valid for one more day, the mDoc for thirty.
        let fixture = try Fixture(signerValidFor: Fixture.day)
        let issued = try fixture.issued()
        #expect(try await fixture.verify([try fixture.document(issued)]).status == .verified)
        let later = try await fixture.verify([try fixture.document(issued)], fixture.verification(at: fixture.now + 2 * Fixture.day))
        #expect(later.codes == [.issuerUntrusted], "\(later)")
        #expect(later.failures?.first?.reason == MDocError.issuerCertificateExpired.description)
        // The kept path was not taken: the chain was validated again, and refused.
        #expect(fixture.paths.validations == 2 && fixture.paths.hits == 0)
        await #expect(throws: MDocError.issuerCertificateExpired) {
            try await MDocVerifier(trust: fixture.trust).verify(issued, docType: Fixture.docType, at: fixture.now + 2 * Fixture.day)
        }
    }

    @Test func anotherIACASetDoesNotReuseAPath() async throws {
        let fixture = try Fixture(), other = try Fixture()
        let issued = try fixture.issued()
        _ = try await MDocVerifier(trust: fixture.trust).verify(issued, docType: Fixture.docType, at: fixture.now)
        #expect(fixture.paths.validations == 1 && fixture.paths.count == 1)
        // One more trusted IACA: the set changed, the kept path is dropped and the chain validated again.
        let wider = IssuerTrust(iacas: [other.iaca, fixture.iaca], paths: fixture.paths)
        _ = try await MDocVerifier(trust: wider).verify(issued, docType: Fixture.docType, at: fixture.now)
        #expect(fixture.paths.validations == 2 && fixture.paths.hits == 0)
        // Without the signer's IACA the chain is refused, whatever was kept.
        let without = IssuerTrust(iacas: [other.iaca], paths: fixture.paths)
        await #expect(throws: MDocError.self) {
            try await MDocVerifier(trust: without).verify(issued, docType: Fixture.docType, at: fixture.now)
        }
        #expect(fixture.paths.hits == 0 && fixture.paths.count == 0)
        // The same set in another order is the same set.
        let reordered = IssuerTrust(iacas: [fixture.iaca, other.iaca], paths: fixture.paths)
        _ = try await MDocVerifier(trust: reordered).verify(issued, docType: Fixture.docType, at: fixture.now)
        _ = try await MDocVerifier(trust: wider).verify(issued, docType: Fixture.docType, at: fixture.now)
        #expect(fixture.paths.hits == 1)
    }

    @Test func theBoundHolds() async throws {
        let fixture = try Fixture()
        let paths = DocumentSignerPaths(capacity: 2)
        let trust = IssuerTrust(iacas: [fixture.iaca], paths: paths)
        for index in 0..<5 {
            let key = P256.Signing.PrivateKey()
            let signer = try MDocCertificates.signer(publicKey: key.publicKey,
                                                     subject: try MDocCertificates.name(commonName: "Signer \(index)", country: "ZZ"),
                                                     iaca: fixture.iaca, iacaKey: fixture.iacaKey, notBefore: fixture.now - Fixture.day,
                                                     notAfter: fixture.now + Fixture.day)
            let signed = try MDocIssuer(signer: COSESigningKey.p256(key), certificateChain: [try MDocCertificates.der(signer)]).issue(
                docType: Fixture.docType, nameSpaces: [.init(name: Fixture.space, elements: [("family_name", .text("Doe"))])],
                deviceKey: COSEKey(publicKey: fixture.deviceKey.publicKey),
                validity: .init(signed: fixture.now - 60, validFrom: fixture.now - 60, validUntil: fixture.now + Fixture.day))
            _ = try await MDocVerifier(trust: trust).verify(signed, docType: Fixture.docType, at: fixture.now)
            #expect(paths.count <= 2)
        }
        #expect(paths.validations == 5)
    }
}
