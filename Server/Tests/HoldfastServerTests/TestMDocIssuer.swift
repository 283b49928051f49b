import Crypto
import Foundation
import MDoc
import OpenID4VP
import X509

/// The mdoc issuer of the verifier's tests (ISO/IEC 18013-5 §9.3.3, Annex B): an IACA and the document signer it
/// certified, valid around `now` (a whole second), named after the test that made them.
struct TestMDocIssuer: Sendable {
    let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    let iacaKey = P256.Signing.PrivateKey()
    let signerKey = P256.Signing.PrivateKey()
    let iaca: Certificate
    let signer: Certificate
    /// The OpenID4VP 1.0 SessionTranscript (Appendix B.2.6.1) of the fixtures' one session.
    static let transcript = SessionTranscript.openID4VP(clientId: "x509_hash:verifier", nonce: "session-nonce", jwkThumbprint: Array(repeating: 7, count: 32),
                                                        responseUri: "https://verifier.example/v2/presentations/sessions/1/response")

    /// The IACA valid from 10 days before `now` for 1,000 days; the document signer from 5 days before for 300.
    init(_ name: String) throws {
        let day: TimeInterval = 86_400
        iaca = try MDocCertificates.iaca(key: iacaKey, subject: try MDocCertificates.name(commonName: "\(name) IACA", country: "ZZ"),
                                         notBefore: now - 10 * day, notAfter: now + 1_000 * day)
        signer = try MDocCertificates.signer(publicKey: signerKey.publicKey, subject: try MDocCertificates.name(commonName: "\(name) DS", country: "ZZ"),
                                             iaca: iaca, iacaKey: iacaKey, notBefore: now - 5 * day, notAfter: now + 300 * day)
    }
}

/// A test fixture made around one `TestMDocIssuer`, whose members it reads as its own.
protocol IssuedByTestMDocIssuer {
    var issuer: TestMDocIssuer { get }
}

extension IssuedByTestMDocIssuer {
    var now: Date { issuer.now }
    var iacaKey: P256.Signing.PrivateKey { issuer.iacaKey }
    var signerKey: P256.Signing.PrivateKey { issuer.signerKey }
    var iaca: Certificate { issuer.iaca }
    var signer: Certificate { issuer.signer }
}
