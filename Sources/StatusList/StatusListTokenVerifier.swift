import Foundation
import X509

/// Checks a Status List Token the way a relying party must before using it (draft-ietf-oauth-status-list §8.3):
/// the signature and the signer's certificate chain to a trusted anchor, `sub` equal to the URI the referenced
/// token points at, `exp` not passed, `iat` not in the future beyond ``clockSkew``. Each failure has its own
/// ``StatusListError``.
public struct StatusListTokenVerifier: Sendable {
    /// Whom to trust as signer.
    public enum Trust: Sendable {
        /// Certificates (roots, such as an mDoc issuer's IACA): the token's `x5chain` / `x5c` must chain to one of
        /// them, each certificate valid at the verification time.
        case anchors([Certificate])
        /// One known key (a status issuer reached by other means than a certificate).
        case key(Certificate.PublicKey)
    }

    public var trust: Trust
    public var clockSkew: TimeInterval
    public var maximumListBytes: Int
    /// The longest `x5chain` / `x5c` followed.
    public static let maximumChainLength = 4

    public init(trust: Trust, clockSkew: TimeInterval = 60, maximumListBytes: Int = StatusList.defaultMaximumBytes) {
        self.trust = trust
        self.clockSkew = clockSkew
        self.maximumListBytes = maximumListBytes
    }

    /// Decodes and verifies `bytes` (CWT or JWT). `expectedURI` is the referenced token's `status_list.uri`.
    public func verify(_ bytes: [UInt8], expectedURI: String?, at time: Date) throws(StatusListError) -> SignedStatusListToken {
        let signed = try SignedStatusListToken(decoding: bytes, maximumListBytes: maximumListBytes)
        try verify(signed, expectedURI: expectedURI, at: time)
        return signed
    }

    /// Verifies an already decoded token.
    public func verify(_ signed: SignedStatusListToken, expectedURI: String?, at time: Date) throws(StatusListError) {
        switch trust {
        case .key(let key):
            try signed.verifySignature(with: key)
        case .anchors(let anchors):
            let leaf = try Self.validateChain(signed.certificateChain, anchors: anchors, at: time)
            try signed.verifySignature(with: leaf.publicKey)
        }
        if let expectedURI, signed.token.subject != expectedURI {
            throw .subjectMismatch(expected: expectedURI, found: signed.token.subject)
        }
        if let expiresAt = signed.token.expiresAt, time > expiresAt { throw .expired }
        if signed.token.issuedAt > time.addingTimeInterval(clockSkew) { throw .issuedInFuture }
    }

    /// Walks the chain from the leaf until a certificate is issued by (or is) an anchor; every signature verified,
    /// every certificate valid at `time`, the leaf allowed to sign (key usage digitalSignature when present).
    static func validateChain(_ chain: [[UInt8]], anchors: [Certificate], at time: Date) throws(StatusListError) -> Certificate {
        guard !chain.isEmpty else { throw .signerUntrusted("the token carries no certificate") }
        guard chain.count <= maximumChainLength else { throw .signerUntrusted("the chain is longer than \(maximumChainLength)") }
        var certificates: [Certificate] = []
        for der in chain {
            do { certificates.append(try Certificate(derEncoded: der)) } catch {
                throw .signerUntrusted("a certificate of the chain is not DER X.509")
            }
        }
        let leaf = certificates[0]
        do {
            if let usage = try leaf.extensions.keyUsage, !usage.digitalSignature {
                throw StatusListError.signerUntrusted("the signer's key usage lacks digitalSignature")
            }
        } catch let error as StatusListError {
            throw error
        } catch {
            throw .signerUntrusted("the signer's key usage cannot be read")
        }
        for (index, certificate) in certificates.enumerated() {
            guard time >= certificate.notValidBefore, time <= certificate.notValidAfter else {
                throw .signerUntrusted("certificate \(index) of the chain is outside its validity")
            }
            if anchors.contains(certificate) { return leaf }
            if let anchor = anchors.first(where: { $0.subject == certificate.issuer && $0.publicKey.isValidSignature(certificate.signature, for: certificate) }) {
                guard time >= anchor.notValidBefore, time <= anchor.notValidAfter else {
                    throw .signerUntrusted("the trust anchor is outside its validity")
                }
                return leaf
            }
            guard index + 1 < certificates.count else { break }
            let issuer = certificates[index + 1]
            guard issuer.subject == certificate.issuer, issuer.publicKey.isValidSignature(certificate.signature, for: certificate) else {
                throw .signerUntrusted("certificate \(index) is not issued by the next certificate of the chain")
            }
        }
        throw .signerUntrusted("the chain does not reach a trusted anchor")
    }
}
