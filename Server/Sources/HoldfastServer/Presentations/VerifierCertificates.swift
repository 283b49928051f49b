import Crypto
import Foundation
import HoldfastAdmin
import Logging
import MDoc
import SwiftASN1
import X509

/// The verifier's certificates (docs/server-api.md "Verifier"): a CA made on first start (self-signed, CA with pathLen 0,
/// keyCertSign), and a request-signing certificate it issues whose SAN holds the host of the public URL (dNSName,
/// or iPAddress for an IP literal), which the `x509_san_dns` and `x509_hash` client identifiers of OpenID4VP 1.0
/// §5.9.3 are checked against.
public struct VerifierCertificates: Sendable {
    public struct Entry: Sendable {
        public let id: String
        public let certificate: Certificate
        public let der: [UInt8]
        let privateKey: P256.Signing.PrivateKey
    }

    public let ca: Entry
    public let requestSigner: Entry
    /// The host the request signer names.
    public let host: String

    static let caLifetime: TimeInterval = 3650 * 86_400
    static let signerLifetime: TimeInterval = 397 * 86_400

    /// The CA wallets add as a trusted verifier (`GET /v1/presentations/verifier-cas`,
    /// `holdfast admin presentations verifier-cas`).
    public func caList() throws -> VerifierCAList {
        VerifierCAList(data: [VerifierCA(id: ca.id, certificatePem: try ca.certificate.serializeAsPEM().pemString)])
    }

    /// The host of `publicURL`, lower-cased, without brackets.
    static func host(of publicURL: String) -> String {
        (URL(string: publicURL)?.host ?? "localhost").lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    }

    /// Loads the certificates, making the CA when there is none and a request signer when there is none for `host`.
    /// Run under the start-up lock, so that nodes starting together make one set.
    static func loadOrCreate(store: VerifierCertificateStore, masterKey: MasterKey, host: String, now: Date,
                             logger: Logger) async throws -> VerifierCertificates {
        var ca = try await active(.ca, store, masterKey: masterKey)
        if ca == nil {
            let key = P256.Signing.PrivateKey()
            let name = try DistinguishedName { CommonName("Holdfast verifier CA") }
            let certificate = try Certificate(
                version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey), notValidBefore: now.addingTimeInterval(-60),
                notValidAfter: now.addingTimeInterval(caLifetime), issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                    Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                    SubjectKeyIdentifier(hash: Certificate.PublicKey(key.publicKey))
                }, issuerPrivateKey: .init(key))
            try await insert(.ca, certificate: certificate, key: key, host: nil, store: store, masterKey: masterKey, now: now)
            logger.info("verifier CA created")
            ca = try await active(.ca, store, masterKey: masterKey)
        }
        guard let ca else { throw VerifierCertificateError("the verifier CA could not be stored") }
        var signer = try await active(.requestSigner, store, masterKey: masterKey)
        if signer?.host != host {
            let key = P256.Signing.PrivateKey()
            let name: GeneralName = IPAddress.literalBytes(host).map { .ipAddress(ASN1OctetString(contentBytes: $0[...])) } ?? .dnsName(host)
            let certificate = try Certificate(
                version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey), notValidBefore: now.addingTimeInterval(-60),
                notValidAfter: min(now.addingTimeInterval(signerLifetime), ca.entry.certificate.notValidAfter), issuer: ca.entry.certificate.subject,
                subject: try DistinguishedName { CommonName("Holdfast verifier \(host.prefix(40))") }, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(KeyUsage(digitalSignature: true))
                    SubjectAlternativeNames([name])
                    AuthorityKeyIdentifier(keyIdentifier: try ca.entry.certificate.extensions.subjectKeyIdentifier?.keyIdentifier)
                }, issuerPrivateKey: .init(ca.entry.privateKey))
            try await store.retire(.requestSigner)
            try await insert(.requestSigner, certificate: certificate, key: key, host: host, store: store, masterKey: masterKey, now: now)
            logger.info("verifier request-signing certificate created", metadata: ["host": .string(host)])
            signer = try await active(.requestSigner, store, masterKey: masterKey)
        }
        guard let signer else { throw VerifierCertificateError("the verifier's request signer could not be stored") }
        return VerifierCertificates(ca: ca.entry, requestSigner: signer.entry, host: host)
    }

    private static func active(_ kind: VerifierCertificateStore.Kind, _ store: VerifierCertificateStore,
                               masterKey: MasterKey) async throws -> (entry: Entry, host: String?)? {
        guard let row = try await store.active(kind) else { return nil }
        let id = row.id
        let der = row.der
        let sealed = row.sealedKey
        guard let plain = try? masterKey.open(sealed, context: context(id)),
              let key = try? P256.Signing.PrivateKey(rawRepresentation: plain), let certificate = try? Certificate(derEncoded: der),
              Certificate.PublicKey(key.publicKey) == certificate.publicKey else {
            throw KeyError.masterKeyMismatch("the verifier certificate \(id) cannot be opened with this master key (\(masterKey.origin))")
        }
        return (Entry(id: id, certificate: certificate, der: der, privateKey: key), row.host)
    }

    private static func insert(_ kind: VerifierCertificateStore.Kind, certificate: Certificate, key: P256.Signing.PrivateKey, host: String?,
                               store: VerifierCertificateStore, masterKey: MasterKey, now: Date) async throws {
        let der = try MDocCertificates.der(certificate)
        let id = IssuerCertificate.id(of: der)
        let sealed = try masterKey.seal(Array(key.rawRepresentation), context: context(id))
        try await store.insert(VerifierCertificateStore.Row(id: id, der: der, sealedKey: sealed, host: host), kind: kind, createdAt: now)
    }

    private static func context(_ id: String) -> String { "holdfast verifier_certificates \(id)" }
}

struct VerifierCertificateError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
