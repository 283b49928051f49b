import CBOR
import COSE
import Crypto
import Foundation
import HoldfastServer
import MDoc
import StatusList
import SwiftASN1
import X509

/// What `bench mdoc` and `bench status` measure on: an IACA and a signer made for the run (ISO/IEC 18013-5
/// Annex B profiles, as the tenant makes them), a 20-element mDoc and a 1,000,000-entry status list token.
struct CredentialBenchFixtures {
    let iacaKey = P256.Signing.PrivateKey()
    let signerKey = P256.Signing.PrivateKey()
    let iaca: Certificate
    let signer: Certificate
    let signerDER: [UInt8]
    /// The run's clock (certificate, credential and token times) and random source (the list's statuses).
    let run: CommandRun

    init(extendedKeyUsage: ASN1ObjectIdentifier, run: CommandRun) throws {
        self.run = run
        let now = run.now()
        iaca = try MDocCertificates.iaca(key: iacaKey, subject: try MDocCertificates.name(commonName: "Bench IACA", country: "ZZ"),
                                         notBefore: now.addingTimeInterval(-86_400), notAfter: now.addingTimeInterval(365 * 86_400))
        signer = try MDocCertificates.signer(publicKey: signerKey.publicKey,
                                             subject: try MDocCertificates.name(commonName: "Bench Signer", country: "ZZ"),
                                             iaca: iaca, iacaKey: iacaKey, notBefore: now.addingTimeInterval(-3600),
                                             notAfter: now.addingTimeInterval(300 * 86_400),
                                             extendedKeyUsage: extendedKeyUsage)
        signerDER = try MDocCertificates.der(signer)
    }

    /// An mDL of `elements` elements in one namespace, bound to a fresh device key.
    func mdoc(elements: Int, deviceKey: P256.Signing.PublicKey = P256.Signing.PrivateKey().publicKey) throws -> IssuerSigned {
        let issuer = MDocIssuer(signer: COSESigningKey.p256(signerKey), certificateChain: [signerDER])
        let values: [(identifier: String, value: CBOR)] = (0..<elements).map { index in
            switch index % 4 {
            case 0: ("text_\(index)", .text("value number \(index) of the bench mDoc"))
            case 1: ("date_\(index)", .tagged(1004, .text("1990-02-28")))
            case 2: ("flag_\(index)", .bool(index % 3 == 0))
            default: ("number_\(index)", .unsigned(UInt64(index * 1_000)))
            }
        }
        let now = run.wholeSecondNow()
        return try issuer.issue(docType: "org.iso.18013.5.1.mDL",
                                nameSpaces: [.init(name: "org.iso.18013.5.1", elements: values)],
                                deviceKey: COSEKey(publicKey: deviceKey),
                                validity: .init(signed: now, validFrom: now, validUntil: now.addingTimeInterval(365 * 86_400)),
                                status: .init(index: 7, uri: "https://issuer.example/v2/credentials/mobile/status-lists/1/token"))
    }

    /// A 2-bit list of `count` entries, one in a hundred revoked and one in a thousand suspended, as a signed CWT.
    func statusToken(count: Int, uri: String) throws -> (list: StatusList, cwt: [UInt8]) {
        var list = try StatusList(bits: 2, count: count)
        for index in 0..<count {
            let draw = run.random.integer(in: 0..<1_000)
            if draw < 10 { try list.setStatus(1, at: index) } else if draw == 10 { try list.setStatus(2, at: index) }
        }
        let now = run.wholeSecondNow()
        let token = StatusListToken(subject: uri, issuedAt: now, expiresAt: now.addingTimeInterval(86_400), timeToLive: 3_600,
                                    list: list)
        return (list, try token.cwt(signer: COSESigningKey.p256(signerKey), certificateChain: [signerDER]))
    }
}
