import CertificatePath
import CBOR
import COSE
import Crypto
import Foundation
import MDoc
import OpenID4VP
import SwiftASN1
import Testing
import TestSupport
import X509

/// mDocs made by `MDocIssuer` verify, and every mutation and profile breach is refused with its own error.
@Suite struct IssueAndVerifyTests {
    let now = TestIssuer.start.addingTimeInterval(2 * 86_400)

    @Test func issuedMDocVerifiesAndRoundTrips() async throws {
        let test = try TestIssuer()
        let deviceKey = P256.Signing.PrivateKey()
        let status = MobileSecurityObject.StatusReference(index: 4711, uri: "https://issuer.example/v2/credentials/mobile/status-lists/1/token")
        let issued = try test.issueMDL(deviceKey: deviceKey, status: status)
        let decoded = try IssuerSigned(decoding: issued.encoded())
        #expect(decoded.encoded() == issued.encoded())
        let verified = try await test.verifier.verify(decoded, docType: "org.iso.18013.5.1.mDL", at: now)
        #expect(verified.mso.status == status)
        #expect(verified.mso.deviceKey == COSEKey(publicKey: deviceKey.publicKey))
        #expect(decoded.value("family_name", in: TestIssuer.mdlNameSpace) == .text("Doe"))
        #expect(decoded.items(in: TestIssuer.mdlNameSpace).count == 20)
        #expect(decoded.items(in: TestIssuer.mdlNameSpace).allSatisfy { $0.random.count == 32 })
    }

    @Test func digestIDsDoNotFollowElementOrder() async throws {
        let test = try TestIssuer()
        var orders = Set<[UInt64]>()
        for _ in 0..<5 {
            let issued = try test.issueMDL(deviceKey: P256.Signing.PrivateKey())
            let ids = issued.items(in: TestIssuer.mdlNameSpace).map(\.digestID)
            #expect(Set(ids).count == ids.count)
            orders.insert(ids)
        }
        #expect(orders.count > 1)
    }

    @Test func selectiveDisclosureVerifies() async throws {
        let test = try TestIssuer()
        let issued = try test.issueMDL(deviceKey: P256.Signing.PrivateKey())
        let disclosed = issued.disclosing([TestIssuer.mdlNameSpace: ["age_over_18", "family_name"]])
        #expect(disclosed.items(in: TestIssuer.mdlNameSpace).count == 2)
        _ = try await test.verifier.verify(try IssuerSigned(decoding: disclosed.encoded()), at: now)
    }

    @Test func deviceSignatureMakesAndVerifies() async throws {
        let test = try TestIssuer()
        let deviceKey = P256.Signing.PrivateKey()
        let issued = try test.issueMDL(deviceKey: deviceKey)
        let transcript = SessionTranscript.openID4VP(clientId: "x509_hash:abc", nonce: "n-1", jwkThumbprint: [1, 2, 3],
                                                     responseUri: "https://verifier.example/response")
        let deviceSigned = try DeviceSigned.sign(docType: issued.mso.docType, sessionTranscript: transcript,
                                                 signer: COSESigningKey.p256(deviceKey))
        let response = DeviceResponse(documents: [Document(docType: issued.mso.docType, issuerSigned: issued, deviceSigned: deviceSigned)])
        let document = try #require(try DeviceResponse(decoding: response.encoded()).documents.first)
        _ = try await test.verifier.verify(document, sessionTranscript: transcript, at: now)

        let wrongKey = try DeviceSigned.sign(docType: issued.mso.docType, sessionTranscript: transcript,
                                             signer: COSESigningKey.p256(P256.Signing.PrivateKey()))
        await #expect(throws: MDocError.deviceSignatureInvalid) {
            try await test.verifier.verify(Document(docType: issued.mso.docType, issuerSigned: issued, deviceSigned: wrongKey),
                                     sessionTranscript: transcript, at: now)
        }
        await #expect(throws: MDocError.deviceAuthenticationMissing) {
            try await test.verifier.verify(Document(docType: issued.mso.docType, issuerSigned: issued, deviceSigned: nil),
                                     sessionTranscript: transcript, at: now)
        }
    }

    // MARK: mutations

    /// Flips one byte of `needle` inside the encoding and decodes the result.
    func mutate(_ issued: IssuerSigned, at needle: [UInt8], offsetInNeedle: Int = 0) throws -> IssuerSigned {
        var bytes = issued.encoded()
        let start = try #require(bytes.firstRange(of: needle)).lowerBound + offsetInNeedle
        bytes[start] ^= 0x01
        return try IssuerSigned(decoding: bytes)
    }

    @Test func oneByteOfAnElementValueIsADigestMismatch() async throws {
        let test = try TestIssuer()
        let issued = try test.issueMDL(deviceKey: P256.Signing.PrivateKey())
        let mutated = try mutate(issued, at: Array("NL1234567".utf8), offsetInNeedle: 3)
        await #expect(throws: MDocError.digestMismatch(nameSpace: TestIssuer.mdlNameSpace, elementIdentifier: "document_number")) {
            try await test.verifier.verify(mutated, at: now)
        }
    }

    @Test func oneByteOfTheMSOBreaksTheIssuerSignature() async throws {
        let test = try TestIssuer()
        let issued = try test.issueMDL(deviceKey: P256.Signing.PrivateKey())
        let mutated = try mutate(issued, at: Array("org.iso.18013.5.1.mDL".utf8), offsetInNeedle: 20)
        #expect(mutated.mso.docType == "org.iso.18013.5.1.mDM")
        await #expect(throws: MDocError.issuerSignatureInvalid) { try await test.verifier.verify(mutated, at: now) }
    }

    @Test func oneByteOfTheSignatureBreaksIt() async throws {
        let test = try TestIssuer()
        let issued = try test.issueMDL(deviceKey: P256.Signing.PrivateKey())
        let mutated = try mutate(issued, at: issued.issuerAuth.signature, offsetInNeedle: 10)
        await #expect(throws: MDocError.issuerSignatureInvalid) { try await test.verifier.verify(mutated, at: now) }
    }

    @Test func aSwappedCertificateIsUntrusted() async throws {
        let test = try TestIssuer()
        let other = try TestIssuer()
        let issued = try test.issueMDL(deviceKey: P256.Signing.PrivateKey())
        let swapped = try IssuerSigned(nameSpaces: issued.nameSpaces, issuerAuth: COSESign1(
            protectedBytes: issued.issuerAuth.protectedBytes,
            unprotected: COSEHeaderMap([CBOR.Pair(.int(33), .bytes(try MDocCertificates.der(other.documentSigner)))]),
            payload: issued.issuerAuth.payload, signature: issued.issuerAuth.signature))
        // Not issued by the trusted IACA …
        await #expect(throws: MDocError.issuerCertificateUntrusted("no path from the leaf to a trusted anchor (by name and signature)")) {
            try await test.verifier.verify(swapped, at: now)
        }
        // … and under its own IACA the signature is not its key's.
        await #expect(throws: MDocError.issuerSignatureInvalid) { try await other.verifier.verify(swapped, at: now) }
    }

    @Test func anotherIACAIsUntrusted() async throws {
        let test = try TestIssuer(commonName: "Other IACA")
        let trusted = try TestIssuer()
        let issued = try test.issueMDL(deviceKey: P256.Signing.PrivateKey())
        await #expect(throws: MDocError.self) { try await trusted.verifier.verify(issued, at: now) }
        do {
            _ = try await trusted.verifier.verify(issued, at: now)
        } catch {
            #expect(error.code == "MDOC_ISSUER_CERTIFICATE_UNTRUSTED")
        }
    }

    @Test func missingX5chain() async throws {
        let test = try TestIssuer()
        let issued = try test.issueMDL(deviceKey: P256.Signing.PrivateKey())
        let bare = try IssuerSigned(nameSpaces: issued.nameSpaces, issuerAuth: COSESign1(
            protectedBytes: issued.issuerAuth.protectedBytes, unprotected: COSEHeaderMap(),
            payload: issued.issuerAuth.payload, signature: issued.issuerAuth.signature))
        await #expect(throws: MDocError.issuerCertificateMissing) { try await test.verifier.verify(bare, at: now) }
    }

    @Test func docTypeMustBeTheMSOs() async throws {
        let test = try TestIssuer()
        let issued = try test.issueMDL(deviceKey: P256.Signing.PrivateKey())
        await #expect(throws: MDocError.docTypeMismatch(document: "eu.europa.ec.eudi.pid.1", mso: "org.iso.18013.5.1.mDL")) {
            try await test.verifier.verify(issued, docType: "eu.europa.ec.eudi.pid.1", at: now)
        }
    }

    @Test func validityWindow() async throws {
        let test = try TestIssuer()
        let signed = TestIssuer.start.addingTimeInterval(86_400)
        let issued = try test.issueMDL(deviceKey: P256.Signing.PrivateKey(), signed: signed, validUntil: signed.addingTimeInterval(86_400))
        await #expect(throws: MDocError.notYetValid) { try await test.verifier.verify(issued, at: signed.addingTimeInterval(-1)) }
        await #expect(throws: MDocError.expired) { try await test.verifier.verify(issued, at: signed.addingTimeInterval(86_401)) }
        _ = try await test.verifier.verify(issued, at: signed.addingTimeInterval(86_400))
    }

    @Test func documentSignerValidity() async throws {
        let test = try TestIssuer(signerNotBefore: TestIssuer.start, signerNotAfter: TestIssuer.start.addingTimeInterval(10 * 86_400))
        let issued = try test.issueMDL(deviceKey: P256.Signing.PrivateKey(), validUntil: TestIssuer.start.addingTimeInterval(300 * 86_400))
        await #expect(throws: MDocError.issuerCertificateNotYetValid) { try await test.verifier.verify(issued, at: TestIssuer.start.addingTimeInterval(-1)) }
        await #expect(throws: MDocError.issuerCertificateExpired) { try await test.verifier.verify(issued, at: TestIssuer.start.addingTimeInterval(11 * 86_400)) }
    }

    @Test func signedOutsideTheSignerValidity() async throws {
        let test = try TestIssuer(signerNotBefore: TestIssuer.start, signerNotAfter: TestIssuer.start.addingTimeInterval(10 * 86_400))
        let issued = try test.issueMDL(deviceKey: P256.Signing.PrivateKey(), signed: TestIssuer.start.addingTimeInterval(-3600))
        await #expect(throws: MDocError.signedOutsideCertificateValidity) { try await test.verifier.verify(issued, at: now) }
    }

    @Test func documentSignerWithoutTheMdlDSUsage() async throws {
        let test = try TestIssuer(extendedKeyUsage: [1, 3, 6, 1, 5, 5, 7, 3, 2])
        let issued = try test.issueMDL(deviceKey: P256.Signing.PrivateKey())
        await #expect(throws: MDocError.issuerCertificatePath(.extendedKeyUsage("extended key usage lacks mdlDS (1.0.18013.5.1.2)"))) {
            try await test.verifier.verify(issued, at: now)
        }
    }

    @Test func iacaThatIsNotACA() async throws {
        let test = try TestIssuer(iacaTransform: { key, name in
            let publicKey = Certificate.PublicKey(key.publicKey)
            return try Certificate(version: .v3, serialNumber: .init(), publicKey: publicKey,
                                   notValidBefore: TestIssuer.start.addingTimeInterval(-86_400),
                                   notValidAfter: TestIssuer.start.addingTimeInterval(1000 * 86_400), issuer: name, subject: name,
                                   signatureAlgorithm: .ecdsaWithSHA256,
                                   extensions: try Certificate.Extensions { Critical(KeyUsage(keyCertSign: true, cRLSign: true)) },
                                   issuerPrivateKey: Certificate.PrivateKey(key))
        })
        let issued = try test.issueMDL(deviceKey: P256.Signing.PrivateKey())
        await #expect(throws: MDocError.issuerCertificatePath(.issuerNotCertificateAuthority(index: 1))) { try await test.verifier.verify(issued, at: now) }
    }

    @Test func iacaValidity() async throws {
        let test = try TestIssuer(signerNotBefore: TestIssuer.start.addingTimeInterval(-10 * 86_400))
        let issued = try test.issueMDL(deviceKey: P256.Signing.PrivateKey(), signed: TestIssuer.start.addingTimeInterval(-5 * 86_400))
        await #expect(throws: MDocError.iacaNotYetValid) { try await test.verifier.verify(issued, at: TestIssuer.start.addingTimeInterval(-4 * 86_400)) }
    }

    @Test func disclosedItemWithoutDigest() async throws {
        let test = try TestIssuer()
        let issued = try test.issueMDL(deviceKey: P256.Signing.PrivateKey())
        let stray = IssuerSignedItem(digestID: 999, random: [UInt8](repeating: 7, count: 16), elementIdentifier: "stray", elementValue: 1)
        let spaces = [IssuerSigned.NameSpace(name: TestIssuer.mdlNameSpace, items: issued.items(in: TestIssuer.mdlNameSpace) + [stray])]
        let tampered = try IssuerSigned(nameSpaces: spaces, issuerAuth: issued.issuerAuth)
        await #expect(throws: MDocError.digestMissing(nameSpace: TestIssuer.mdlNameSpace, digestID: 999)) {
            try await test.verifier.verify(tampered, at: now)
        }
        let first = try #require(issued.items(in: TestIssuer.mdlNameSpace).first)
        let doubled = try IssuerSigned(nameSpaces: [IssuerSigned.NameSpace(name: TestIssuer.mdlNameSpace, items: [first, first])],
                                       issuerAuth: issued.issuerAuth)
        await #expect(throws: MDocError.duplicateItem(nameSpace: TestIssuer.mdlNameSpace, "digestID \(first.digestID)")) {
            try await test.verifier.verify(doubled, at: now)
        }
    }

    @Test func malformedInputIsNamed() async throws {
        #expect(throws: MDocError.malformed("IssuerSigned has no issuerAuth")) { try IssuerSigned(decoding: [0xA0]) }
        #expect(throws: MDocError.self) { try IssuerSigned(decoding: [0xFF, 0x00]) }
        #expect(throws: MDocError.self) { try DeviceResponse(decoding: [0xA1, 0x67] + Array("version".utf8) + [0x63] + Array("2.0".utf8)) }
    }
}
