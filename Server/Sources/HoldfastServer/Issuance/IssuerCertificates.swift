import Crypto
import Foundation
import Logging
import MDoc
import Plumbing
import SwiftASN1
import X509

/// One of the tenant's mDoc issuer certificates with its private key (DESIGN.md §4 "Keys").
public struct IssuerCertificate: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        /// The root (ISO/IEC 18013-5 Annex B.1.2), self-signed: what verifiers trust.
        case iaca
        /// The document signer (Annex B.1.4): signs every MSO.
        case documentSigner = "document-signer"
        /// Signs the status list tokens (draft-ietf-oauth-status-list §10.3's extended key usage).
        case statusListSigner = "status-list-signer"
    }

    /// `active` signs (one per kind); `published` no longer signs but is still listed, so that what it signed keeps
    /// verifying; `retired` is neither.
    public enum Status: String, Sendable {
        case active, published, retired
    }

    /// The lowercase hex of the first 16 bytes of the SHA-256 of the certificate's DER.
    public let id: String
    public let kind: Kind
    public let status: Status
    public let certificate: Certificate
    public let der: [UInt8]
    let privateKey: P256.Signing.PrivateKey
    /// The IACA that issued it (nil for an IACA).
    public let issuerID: String?

    public var notBefore: Date { certificate.notValidBefore }
    public var notAfter: Date { certificate.notValidAfter }

    /// PEM (RFC 7468) of the certificate.
    public var pem: String {
        let base64 = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN CERTIFICATE-----\n\(base64)\n-----END CERTIFICATE-----\n"
    }

    static func id(of der: [UInt8]) -> String {
        Hex.encode(SHA256.hash(data: der).prefix(16))
    }
}

/// The tenant's issuer certificates in force: every IACA that is not retired, and the active document signer and
/// status list signer, each issued by the active IACA.
public struct IssuerCertificates: Sendable {
    /// Every non-retired certificate, the active ones first, then by creation.
    public let all: [IssuerCertificate]

    /// The extended key usage of a status list signer. draft-ietf-oauth-status-list §14.x asks IANA for
    /// `id-kp-oauthStatusSigning`; until it is assigned this arc of id-kp (1.3.6.1.5.5.7.3) stands in for it, as
    /// other issuers use. Our verifier does not require it (docs/server-api.md "Credentials").
    public static let statusListSigningExtendedKeyUsage: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 3, 127]

    /// Annex B.1.2 allows an IACA up to 20 years; ten leave room for rotation.
    public static let iacaLifetime: TimeInterval = 3650 * 86_400
    /// Annex B.1.4: a document signer is valid at most 457 days; the status list signer follows it.
    public static let signerLifetime: TimeInterval = 457 * 86_400

    init(all: [IssuerCertificate]) throws(KeyError) {
        for kind in IssuerCertificate.Kind.allCases
        where all.filter({ $0.kind == kind && $0.status == .active }).count != 1 {
            throw KeyError.noActiveIssuerCertificate(kind.rawValue)
        }
        self.all = all.filter { $0.status == .active } + all.filter { $0.status != .active }
    }

    private func active(_ kind: IssuerCertificate.Kind) -> IssuerCertificate {
        all.first { $0.kind == kind && $0.status == .active }!
    }

    public var iaca: IssuerCertificate { active(.iaca) }
    public var documentSigner: IssuerCertificate { active(.documentSigner) }
    public var statusListSigner: IssuerCertificate { active(.statusListSigner) }
    /// Every IACA a verifier should trust, the active one first.
    public var iacas: [IssuerCertificate] { all.filter { $0.kind == .iaca } }

    // MARK: storage

    /// Loads the certificates, creating the first set when there is none. Run under the start-up lock.
    static func loadOrCreate(on session: IssuerCertificateStore.Session, masterKey: MasterKey, configuration: IssuanceConfiguration,
                             now: Date, logger: Logger) async throws -> IssuerCertificates {
        if try await session.rows().isEmpty {
            do {
                try await insert(makeSet(configuration: configuration, now: now, reusing: nil), on: session, masterKey: masterKey,
                                 now: now)
                logger.info("mDoc issuer certificates created (IACA, document signer, status list signer)")
            } catch {
                // Another node created them first: use theirs.
                if try await session.rows().isEmpty { throw error }
            }
        }
        return try await load(session, masterKey: masterKey)
    }

    static func load(_ session: IssuerCertificateStore.Session, masterKey: MasterKey) async throws -> IssuerCertificates {
        try IssuerCertificates(all: try await session.rows().map { try decrypt($0, masterKey: masterKey) })
    }

    /// New signers (and with `newIACA` a new IACA that issues them) become active; the ones they replace stay
    /// `published`, so that what they signed keeps verifying. In one transaction.
    static func rotate(_ database: HoldfastDatabase, masterKey: MasterKey, configuration: IssuanceConfiguration,
                       newIACA: Bool, now: Date) async throws -> IssuerCertificates {
        try await IssuerCertificateStore.transaction(database) { session in
            let current = try await load(session, masterKey: masterKey)
            let set = try makeSet(configuration: configuration, now: now, reusing: newIACA ? nil : current.iaca)
            var replaced: [IssuerCertificate.Kind] = [.documentSigner, .statusListSigner]
            if newIACA { replaced.append(.iaca) }
            try await session.publish(activeOf: replaced)
            try await insert(set, on: session, masterKey: masterKey, now: now)
            return try await load(session, masterKey: masterKey)
        }
    }

    private struct NewCertificate {
        let kind: IssuerCertificate.Kind
        let certificate: Certificate
        let key: P256.Signing.PrivateKey
        let issuerID: String?
    }

    private static func makeSet(configuration: IssuanceConfiguration, now: Date,
                                reusing iaca: IssuerCertificate?) throws -> [NewCertificate] {
        // A minute in the past, so that a verifier whose clock is a little behind still accepts them.
        let notBefore = now.addingTimeInterval(-60)
        var made: [NewCertificate] = []
        let root: Certificate, rootKey: P256.Signing.PrivateKey
        if let iaca {
            (root, rootKey) = (iaca.certificate, iaca.privateKey)
        } else {
            rootKey = P256.Signing.PrivateKey()
            root = try MDocCertificates.iaca(
                key: rootKey, subject: try name("\(configuration.issuerName) IACA", configuration),
                notBefore: notBefore, notAfter: notBefore.addingTimeInterval(iacaLifetime))
            made.append(NewCertificate(kind: .iaca, certificate: root, key: rootKey, issuerID: nil))
        }
        let rootID = IssuerCertificate.id(of: try MDocCertificates.der(root))
        // A signer never outlives the IACA that issued it; its whole validity period is within the bound.
        let signerEnd = min(notBefore.addingTimeInterval(signerLifetime), root.notValidAfter)
        for (kind, label, usage) in [(IssuerCertificate.Kind.documentSigner, "Document Signer", IssuerTrust.mdlDSExtendedKeyUsage),
                                     (.statusListSigner, "Status List Signer", statusListSigningExtendedKeyUsage)] {
            let key = P256.Signing.PrivateKey()
            let certificate = try MDocCertificates.signer(
                publicKey: key.publicKey, subject: try name("\(configuration.issuerName) \(label)", configuration),
                iaca: root, iacaKey: rootKey, notBefore: notBefore, notAfter: signerEnd, extendedKeyUsage: usage)
            made.append(NewCertificate(kind: kind, certificate: certificate, key: key, issuerID: rootID))
        }
        return made
    }

    private static func name(_ commonName: String, _ configuration: IssuanceConfiguration) throws -> DistinguishedName {
        try MDocCertificates.name(commonName: String(commonName.prefix(64)), country: configuration.country,
                                  organization: configuration.issuerName)
    }

    private static func insert(_ set: [NewCertificate], on session: IssuerCertificateStore.Session, masterKey: MasterKey,
                               now: Date) async throws {
        for item in set {
            let der = try MDocCertificates.der(item.certificate)
            let id = IssuerCertificate.id(of: der)
            let sealed = try masterKey.seal(Array(item.key.rawRepresentation), context: associatedData(id))
            try await session.insert(id: id, kind: item.kind, der: der, sealedKey: sealed, issuerID: item.issuerID,
                                     notBefore: item.certificate.notValidBefore, notAfter: item.certificate.notValidAfter,
                                     createdAt: now)
        }
    }

    private static func decrypt(_ row: IssuerCertificateStore.Row, masterKey: MasterKey) throws -> IssuerCertificate {
        let id = row.id
        let plaintext: [UInt8]
        do {
            plaintext = try masterKey.open(row.sealedKey, context: associatedData(id))
        } catch {
            throw KeyError.masterKeyMismatch("the master key (\(masterKey.origin)) cannot decrypt issuer certificate \(id)'s key: it is "
                               + "not the key this database was created with; set HOLDFAST_MASTER_KEY or the key file to the original key")
        }
        let der = row.der
        guard IssuerCertificate.id(of: der) == id,
              let certificate = try? Certificate(derEncoded: der),
              let privateKey = try? P256.Signing.PrivateKey(rawRepresentation: plaintext),
              Certificate.PublicKey(privateKey.publicKey) == certificate.publicKey,
              let kind = row.kind, let status = row.status else {
            throw KeyError.issuerCertificateCorrupt(id)
        }
        return IssuerCertificate(id: id, kind: kind, status: status, certificate: certificate, der: der,
                                 privateKey: privateKey, issuerID: row.issuerID)
    }

    private static func associatedData(_ id: String) -> String { "holdfast issuer_certificates \(id)" }
}
