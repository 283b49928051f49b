import CertificatePath
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
        /// them by the project's path validator (`CertificatePathValidator` with ``signerProfile``).
        case anchors([Certificate])
        /// One known key (a status issuer reached by other means than a certificate).
        case key(Certificate.PublicKey)
    }

    public var trust: Trust
    public var clockSkew: TimeInterval
    public var maximumListBytes: Int
    /// The rules for the signer's certificate (draft-ietf-oauth-status-list; `StatusListSignerProfile`).
    public var signerProfile = StatusListSignerProfile()
    /// The longest `x5chain` / `x5c` followed.
    public static let maximumChainLength = 4

    public init(trust: Trust, clockSkew: TimeInterval = 60, maximumListBytes: Int = StatusList.defaultMaximumBytes) {
        self.trust = trust
        self.clockSkew = clockSkew
        self.maximumListBytes = maximumListBytes
    }

    /// Decodes and verifies `bytes` (CWT or JWT). `expectedURI` is the referenced token's `status_list.uri`.
    public func verify(_ bytes: [UInt8], expectedURI: String?, at time: Date) async throws(StatusListError) -> SignedStatusListToken {
        let signed = try SignedStatusListToken(decoding: bytes, maximumListBytes: maximumListBytes)
        try await verify(signed, expectedURI: expectedURI, at: time)
        return signed
    }

    /// Verifies an already decoded token.
    public func verify(_ signed: SignedStatusListToken, expectedURI: String?, at time: Date) async throws(StatusListError) {
        switch trust {
        case .key(let key):
            try signed.verifySignature(with: key)
        case .anchors(let anchors):
            let leaf = try await validateChain(signed.certificateChain, anchors: anchors, at: time)
            try signed.verifySignature(with: leaf.publicKey)
        }
        if let expectedURI, signed.token.subject != expectedURI {
            throw .subjectMismatch(expected: expectedURI, found: signed.token.subject)
        }
        if let expiresAt = signed.token.expiresAt, time > expiresAt { throw .expired }
        if signed.token.issuedAt > time.addingTimeInterval(clockSkew) { throw .issuedInFuture }
    }

    /// The signer's path (RFC 5280 with the issuer rules, validity, and ``signerProfile``); returns the leaf.
    func validateChain(_ chain: [[UInt8]], anchors: [Certificate], at time: Date) async throws(StatusListError) -> Certificate {
        guard !chain.isEmpty else { throw .signerUntrusted("the token carries no certificate") }
        do {
            let path = try await CertificatePathValidator(anchors: anchors, maximumLength: Self.maximumChainLength)
                .validate(chain: chain, profile: signerProfile, at: time)
            return path[0]
        } catch {
            throw .signerCertificatePath(error)
        }
    }
}
