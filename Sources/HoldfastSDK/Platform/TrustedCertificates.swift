import Crypto
import Foundation
import HoldfastProtocol
import Plumbing
import SwiftASN1
import X509

/// A certificate the wallet trusts: an mDoc issuer's IACA (ISO/IEC 18013-5 Annex B), or a verifier's CA for
/// online presentation.
public struct TrustedCertificate: Codable, Sendable, Hashable {
    /// The first 16 bytes of the SHA-256 of its DER, in hex: the same certificate always has the same id.
    public var id: String
    public var certificatePem: String
    public var commonName: String?
    public var notBefore: Date
    public var notAfter: Date
}

/// A trusted issuer certificate (IACA).
public typealias TrustedIssuerCertificate = TrustedCertificate
/// A trusted verifier certificate (the CA of a verifier's request-signing certificates).
public typealias TrustedVerifierCertificate = TrustedCertificate
/// A reader CA trusted for in-person presentation (`addTrustedReaderCertificates`, ISO/IEC 18013-5 §9.1.4).
public typealias TrustedReaderCertificate = TrustedCertificate

/// A list of trusted certificates kept as one item of `SecureStorage` (docs/sdk.md "Holder: credentials"): the issuers'
/// under `issuers`, the verifiers' under `verifiers`.
struct TrustedCertificateStore: Sendable {
    static let issuers = "holdfast.trusted-issuers.v1"
    static let verifiers = "holdfast.trusted-verifiers.v1"
    static let readers = "holdfast.trusted-readers.v1"
    let storage: any SecureStorage
    let itemKey: String

    func all() async throws(HoldfastError) -> [TrustedCertificate] {
        let bytes: [UInt8]?
        do { bytes = try await storage.read(itemKey) } catch { throw HoldfastError.storage(error) }
        guard let bytes else { return [] }
        do {
            return try HoldfastJSON.decode([TrustedCertificate].self, from: Data(bytes))
        } catch {
            throw HoldfastError(.secureStorageCorrupted, "the trusted certificates do not decode")
        }
    }

    /// Adds every certificate of every PEM text (a text may hold several); one already trusted is not added twice.
    /// Returns the added and the already present ones, in the order given.
    func add(_ pems: [String]) async throws(HoldfastError) -> [TrustedCertificate] {
        var parsed: [TrustedCertificate] = []
        for pem in pems {
            let documents: [PEMDocument]
            do { documents = try PEMDocument.parseMultiple(pemString: pem) } catch {
                throw HoldfastError(.validationFailed, "not a PEM certificate: \(error)")
            }
            guard !documents.isEmpty else { throw HoldfastError(.validationFailed, "the PEM text holds no certificate") }
            for document in documents {
                guard document.discriminator == "CERTIFICATE" else {
                    throw HoldfastError(.validationFailed, "a PEM block is \(document.discriminator), not CERTIFICATE")
                }
                parsed.append(try Self.entry(der: document.derBytes))
            }
        }
        var current = try await all()
        for entry in parsed where !current.contains(where: { $0.id == entry.id }) { current.append(entry) }
        try await save(current)
        return parsed
    }

    func remove(id: String) async throws(HoldfastError) {
        var current = try await all()
        guard let index = current.firstIndex(where: { $0.id == id }) else {
            throw HoldfastError(.credentialNotFound, "no trusted certificate has the id \(id)")
        }
        current.remove(at: index)
        try await save(current)
    }

    /// The certificates, parsed, with their ids.
    func certificates() async throws(HoldfastError) -> [(id: String, certificate: Certificate)] {
        try await all().compactMap { entry in
            (try? Certificate(pemEncoded: entry.certificatePem)).map { (entry.id, $0) }
        }
    }

    private func save(_ entries: [TrustedCertificate]) async throws(HoldfastError) {
        let data: Data
        do { data = try HoldfastJSON.encode(entries) } catch {
            throw HoldfastError(.secureStorageCorrupted, "cannot encode the trusted certificates")
        }
        do { try await storage.write(itemKey, value: [UInt8](data)) } catch { throw HoldfastError.storage(error) }
    }

    static func id(der: [UInt8]) -> String {
        Hex.encode(SHA256.hash(data: der).prefix(16))
    }

    static func entry(der: [UInt8]) throws(HoldfastError) -> TrustedCertificate {
        let certificate: Certificate
        do { certificate = try Certificate(derEncoded: der) } catch {
            throw HoldfastError(.validationFailed, "not an X.509 certificate: \(error)")
        }
        let pem: String
        do { pem = try certificate.serializeAsPEM().pemString } catch {
            throw HoldfastError(.validationFailed, "the certificate cannot be written as PEM")
        }
        return TrustedCertificate(id: id(der: der), certificatePem: pem, commonName: commonName(certificate.subject),
                                        notBefore: certificate.notValidBefore, notAfter: certificate.notValidAfter)
    }

    static func commonName(_ name: DistinguishedName) -> String? {
        for rdn in name {
            for attribute in rdn where attribute.type == .RDNAttributeType.commonName {
                return String(describing: attribute.value)
            }
        }
        return nil
    }
}
