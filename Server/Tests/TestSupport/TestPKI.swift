import Crypto
import Foundation
import SwiftASN1
import X509

/// Certificates minted for path-validation tests (docs/security.md "Certificate paths"): a root, an intermediate and a
/// leaf, with one defect at a time so that only the check under test refuses the chain.
public struct TestPKI: Sendable {
    public struct Minted: Sendable {
        public let certificate: Certificate
        public let key: P256.Signing.PrivateKey
        public var der: [UInt8] {
            var serializer = DER.Serializer()
            try! serializer.serialize(certificate)
            return serializer.serializedBytes
        }
    }

    /// One defect of the chain at a time; `.none` is the honest chain.
    public enum Defect: String, Sendable, CaseIterable {
        case none
        /// The intermediate has basicConstraints cA FALSE.
        case nonCAIntermediate
        /// The intermediate is a CA whose keyUsage lacks keyCertSign.
        case intermediateWithoutKeyCertSign
        /// The root has pathLenConstraint 0 and a CA intermediate below it.
        case pathLengthZeroWithCABelow
        /// The intermediate has expired (with `intermediate: false`, the root).
        case expiredIssuer
        /// The leaf's extended key usage is `wrongUsage`.
        case wrongExtendedKeyUsage
    }

    public let root: Minted
    public let intermediate: Minted?
    public let leaf: Minted

    /// The chain as presented, leaf first (without the root).
    public var chain: [Minted] { [leaf] + (intermediate.map { [$0] } ?? []) }
    public var chainDER: [[UInt8]] { chain.map(\.der) }

    /// - Parameters:
    ///   - intermediate: whether the honest chain has an intermediate CA (ISO 18013-5 document signers have none;
    ///     the defects about an intermediate add one anyway).
    ///   - rootPathLength: the root's pathLenConstraint in the honest chain (ISO 18013-5 IACA: 0).
    public init(defect: Defect, at now: Date, intermediate hasIntermediate: Bool = true, rootPathLength: Int? = nil,
                usage: ASN1ObjectIdentifier?, wrongUsage: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 3, 3],
                leafKeyUsage: KeyUsage = KeyUsage(digitalSignature: true), dnsName: String? = "verifier.example",
                rootKeyUsage: KeyUsage = KeyUsage(keyCertSign: true, cRLSign: true)) throws {
        let day: TimeInterval = 86_400
        let expired = (now.addingTimeInterval(-400 * day), now.addingTimeInterval(-day))
        let current = (now.addingTimeInterval(-day), now.addingTimeInterval(365 * day))
        let withIntermediate = hasIntermediate || [.nonCAIntermediate, .intermediateWithoutKeyCertSign, .pathLengthZeroWithCABelow].contains(defect)
        let rootLength = defect == .pathLengthZeroWithCABelow ? 0 : rootPathLength
        let rootExpired = defect == .expiredIssuer && !withIntermediate
        root = try Self.mint("Test Root CA", issuer: nil, validity: rootExpired ? expired : current,
                             constraints: .isCertificateAuthority(maxPathLength: rootLength), keyUsage: rootKeyUsage, usages: nil, dnsName: nil)
        if withIntermediate {
            let constraints: BasicConstraints = defect == .nonCAIntermediate ? .notCertificateAuthority : .isCertificateAuthority(maxPathLength: nil)
            let keyUsage = defect == .intermediateWithoutKeyCertSign ? KeyUsage(digitalSignature: true, cRLSign: true)
                : KeyUsage(keyCertSign: true, cRLSign: true)
            intermediate = try Self.mint("Test Intermediate CA", issuer: root, validity: defect == .expiredIssuer ? expired : current,
                                         constraints: constraints, keyUsage: keyUsage, usages: nil, dnsName: nil)
        } else {
            intermediate = nil
        }
        let leafUsage = defect == .wrongExtendedKeyUsage ? wrongUsage : usage
        leaf = try Self.mint("Test Signer", issuer: intermediate ?? root, validity: (now.addingTimeInterval(-3_600), now.addingTimeInterval(90 * day)),
                             constraints: nil, keyUsage: leafKeyUsage, usages: leafUsage.map { [$0] }, dnsName: dnsName)
    }

    public static func mint(_ name: String, issuer: Minted?, validity: (Date, Date), constraints: BasicConstraints?, keyUsage: KeyUsage?,
                            usages: [ASN1ObjectIdentifier]?, dnsName: String?, nameConstraints: NameConstraints? = nil) throws -> Minted {
        let key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName { CommonName(name) }
        let extensions = try Certificate.Extensions {
            if let constraints { Critical(constraints) }
            if let keyUsage { Critical(keyUsage) }
            if let usages { Critical(try ExtendedKeyUsage(usages.map { ExtendedKeyUsage.Usage(oid: $0) })) }
            if let dnsName { SubjectAlternativeNames([.dnsName(dnsName)]) }
            if let nameConstraints { Critical(nameConstraints) }
        }
        let certificate = try Certificate(version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
                                          notValidBefore: validity.0, notValidAfter: validity.1,
                                          issuer: issuer?.certificate.subject ?? subject, subject: subject,
                                          signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
                                          issuerPrivateKey: .init(issuer?.key ?? key))
        return Minted(certificate: certificate, key: key)
    }
}
