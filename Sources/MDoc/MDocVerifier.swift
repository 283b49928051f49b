import CBOR
import COSE
import Crypto
import Foundation
import X509

/// Verifies issuer data and device authentication the way an mdoc reader must (ISO/IEC 18013-5 §9.3.1), each step
/// a named check that throws its own ``MDocError``:
/// 1. the document signer certificate chains to a trusted IACA, both valid now and of the Annex B profiles;
/// 2. the issuerAuth signature verifies with the document signer key, and the MSO was signed within that
///    certificate's validity;
/// 3. every disclosed item's digest equals the MSO's (fewer items than digests is selective disclosure, fine);
/// 4. the Document's docType is the MSO's;
/// 5. the verification time is within validFrom…validUntil;
/// 6. for a presented Document, the deviceSignature verifies over DeviceAuthentication with the MSO's device key, or
///    — given the session's ephemeral reader key (a proximity reader, §9.1.3.5) — the deviceMac under EMacKey.
public struct MDocVerifier: Sendable {
    public let trust: IssuerTrust
    /// The reader's ephemeral private key (EReaderKey, §9.1.1.4), with which a deviceMac is verified; without it a
    /// deviceMac is refused (``MDocError/deviceMacNotSupported``).
    public let readerKey: P256.KeyAgreement.PrivateKey?

    public init(trust: IssuerTrust, readerKey: P256.KeyAgreement.PrivateKey? = nil) {
        self.trust = trust
        self.readerKey = readerKey
    }

    /// What a verified mDoc says.
    public struct Verified: Sendable {
        public let issuerSigned: IssuerSigned
        public let mso: MobileSecurityObject
        public let documentSigner: Certificate
        public let iaca: Certificate
        /// `documentSigner.subject` and `iaca.subject` as RFC 4514 text.
        public let documentSignerSubject: String
        public let iacaSubject: String
    }

    /// Steps 1–5 for an IssuerSigned (as issued, or inside a Document whose docType is `docType`).
    public func verify(_ issuerSigned: IssuerSigned, docType: String? = nil, at time: Date) async throws(MDocError) -> Verified {
        let chain: [[UInt8]]
        do { chain = try issuerSigned.issuerAuth.x5chain() } catch { throw .issuerCertificateMalformed("x5chain: \(error)") }
        let signer = try await trust.validate(x5chain: chain, at: time)
        try Self.verifyIssuerSignature(issuerSigned, key: signer.key)
        let mso = issuerSigned.mso
        if !signer.documentSignerValidity.contains(mso.validityInfo.signed) { throw .signedOutsideCertificateValidity }
        try Self.verifyDigests(issuerSigned)
        if let docType, docType != mso.docType { throw .docTypeMismatch(document: docType, mso: mso.docType) }
        try Self.checkValidity(mso, at: time)
        return Verified(issuerSigned: issuerSigned, mso: mso, documentSigner: signer.documentSigner, iaca: signer.iaca,
                        documentSignerSubject: signer.documentSignerSubject, iacaSubject: signer.iacaSubject)
    }

    /// Steps 1–6 for a presented Document.
    public func verify(_ document: Document, sessionTranscript: SessionTranscript, at time: Date) async throws(MDocError) -> Verified {
        let verified = try await verify(document.issuerSigned, docType: document.docType, at: time)
        guard let deviceSigned = document.deviceSigned else { throw .deviceAuthenticationMissing }
        try deviceSigned.verify(docType: document.docType, sessionTranscript: sessionTranscript,
                                deviceKey: verified.mso.deviceKey, readerKey: readerKey)
        return verified
    }

    /// Steps 1–6 when the reader knows the SessionTranscript only as one of a few candidates — a page served from
    /// several origins answered through the W3C Digital Credentials API (OpenID4VP 1.0 B.2.6.2, ISO/IEC TS 18013-7
    /// Annex C), where the origin is never taken from the answer: steps 1–5 once, then the device signature under each
    /// candidate in order. Returns the index of the one it verifies under; `deviceSignatureInvalid` when none.
    public func verify(_ document: Document, sessionTranscripts: [SessionTranscript],
                       at time: Date) async throws(MDocError) -> (verified: Verified, transcript: Int) {
        let verified = try await verify(document.issuerSigned, docType: document.docType, at: time)
        guard let deviceSigned = document.deviceSigned else { throw .deviceAuthenticationMissing }
        var failure = MDocError.deviceSignatureInvalid
        for (index, transcript) in sessionTranscripts.enumerated() {
            do {
                try deviceSigned.verify(docType: document.docType, sessionTranscript: transcript, deviceKey: verified.mso.deviceKey,
                                        readerKey: readerKey)
                return (verified, index)
            } catch {
                failure = error
                // Another candidate cannot mend a key or an authentication the reader does not support.
                if error != .deviceSignatureInvalid && error != .deviceMacInvalid { break }
            }
        }
        throw failure
    }

    /// Step 2's signature check alone (§9.1.2.4), with a key the caller already trusts.
    public static func verifyIssuerSignature(_ issuerSigned: IssuerSigned, key: COSEVerificationKey) throws(MDocError) {
        do {
            try issuerSigned.issuerAuth.verify(using: key)
        } catch {
            throw .issuerSignatureInvalid
        }
    }

    /// Step 3 alone (§9.3.1): each disclosed item's digest, over its exact bytes, equals the MSO's value digest.
    public static func verifyDigests(_ issuerSigned: IssuerSigned) throws(MDocError) {
        let mso = issuerSigned.mso
        for space in issuerSigned.nameSpaces {
            let digests = mso.valueDigests[space.name] ?? [:]
            var seenIDs = Set<UInt64>(minimumCapacity: space.items.count)
            var seenElements = Set<String>(minimumCapacity: space.items.count)
            for item in space.items {
                guard seenIDs.insert(item.digestID).inserted else { throw .duplicateItem(nameSpace: space.name, "digestID \(item.digestID)") }
                guard seenElements.insert(item.elementIdentifier).inserted else {
                    throw .duplicateItem(nameSpace: space.name, item.elementIdentifier)
                }
                guard let expected = digests[item.digestID] else {
                    throw .digestMissing(nameSpace: space.name, digestID: item.digestID)
                }
                guard item.hasDigest(expected, mso.digestAlgorithm) else {
                    throw .digestMismatch(nameSpace: space.name, elementIdentifier: item.elementIdentifier)
                }
            }
        }
    }

    /// Step 5 alone.
    public static func checkValidity(_ mso: MobileSecurityObject, at time: Date) throws(MDocError) {
        if time < mso.validityInfo.validFrom { throw .notYetValid }
        if time > mso.validityInfo.validUntil { throw .expired }
    }
}
