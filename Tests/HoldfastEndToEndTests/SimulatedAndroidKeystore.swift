import Attestation
import Crypto
import Foundation
import HoldfastProtocol
import HoldfastSDK

/// An Android device for the registration tests (README "Registration errors"): a software keystore whose keys an
/// attestation authority of this test process certifies with a KeyDescription (Android Key Attestation, extension
/// 1.3.6.1.4.1.11129.2.1.17) — the tenant trusts the authority's root through `TetheringConfiguration`, never by
/// default. It is both the device's `SecureArea` and its `PlatformAttestation`, as the Android keystore is: the
/// attested key is the instance key. The first `wrongNonces` attestations carry another challenge than the binding
/// nonce asked for.
actor SimulatedAndroidKeystore: SecureArea, PlatformAttestation {
    static let packageName = "com.example.wallet"
    /// The signing certificate digest `EndToEndTenant.createAndroidApplication` registers (`ab` × 32).
    static let signingDigest = [UInt8](repeating: 0xAB, count: 32)

    let rootDER: [UInt8]
    private let intermediateKey = P256.Signing.PrivateKey()
    private let intermediateDER: [UInt8]
    private var keys: [String: P256.Signing.PrivateKey] = [:]
    private var lastCreated: P256.Signing.PublicKey?
    private var wrongNonces: Int
    private(set) var attestedChallenges: [[UInt8]] = []

    init(wrongNonces: Int) throws {
        let rootKey = P256.Signing.PrivateKey()
        rootDER = try DERWriter.certificate(subject: "Holdfast E2E Attestation Root", issuer: "Holdfast E2E Attestation Root",
                                            subjectKey: rootKey.publicKey, issuerKey: rootKey, isCA: true)
        intermediateDER = try DERWriter.certificate(subject: "Holdfast E2E Attestation CA", issuer: "Holdfast E2E Attestation Root",
                                                    subjectKey: intermediateKey.publicKey, issuerKey: rootKey, isCA: true)
        self.wrongNonces = wrongNonces
    }

    nonisolated var roots: [AttestationCertificate] {
        get throws { [try AttestationCertificate(derEncoded: rootDER)] }
    }

    // MARK: SecureArea

    func createKey(alias: String) async throws(SecureAreaError) -> P256.Signing.PublicKey {
        let key = P256.Signing.PrivateKey()
        keys[alias] = key
        lastCreated = key.publicKey
        return key.publicKey
    }

    func publicKey(alias: String) async throws(SecureAreaError) -> P256.Signing.PublicKey? { keys[alias]?.publicKey }

    func sign(_ message: [UInt8], alias: String) async throws(SecureAreaError) -> P256.Signing.ECDSASignature {
        guard let key = keys[alias] else { throw .keyNotFound(alias) }
        do { return try key.signature(for: message) } catch { throw .unavailable(String(describing: error)) }
    }

    func deleteKey(alias: String) async throws(SecureAreaError) { keys[alias] = nil }

    func setWrongNonces(_ count: Int) { wrongNonces = count }

    // MARK: PlatformAttestation

    func attestKey(clientDataHash: [UInt8]) async throws(PlatformAttestationError) -> PlatformAttestationPayload {
        guard let key = lastCreated else { throw .failed("no key to attest") }
        var challenge = clientDataHash
        if wrongNonces > 0 {
            wrongNonces -= 1
            challenge = [UInt8](repeating: 1, count: 32)
        }
        attestedChallenges.append(challenge)
        do {
            return .androidKeyAttestation(certificateChain: [try leaf(for: key, challenge: challenge), intermediateDER])
        } catch {
            throw .failed(String(describing: error))
        }
    }

    func generateAssertion(keyId: [UInt8], clientDataHash: [UInt8]) async throws(PlatformAttestationError) -> [UInt8] {
        throw .unavailable("Android has no App Attest assertions")
    }

    /// The leaf certifying `key`, its KeyDescription over `challenge` for the application's package and signer.
    private func leaf(for key: P256.Signing.PublicKey, challenge: [UInt8]) throws -> [UInt8] {
        let applicationId = DERWriter.sequence(
            DERWriter.tlv(0x31, DERWriter.sequence(DERWriter.tlv(0x04, Array(Self.packageName.utf8)), DERWriter.tlv(0x02, [1]))),
            DERWriter.tlv(0x31, DERWriter.tlv(0x04, Self.signingDigest)))
        let rootOfTrust = DERWriter.sequence(DERWriter.tlv(0x04, [UInt8](repeating: 7, count: 32)), DERWriter.tlv(0x01, [0xFF]),
                                             DERWriter.tlv(0x0A, [0]), DERWriter.tlv(0x04, [UInt8](repeating: 9, count: 32)))
        // [709] attestationApplicationId and [704] rootOfTrust: context-specific, constructed, high tag numbers.
        let software = DERWriter.sequence(DERWriter.tlv([0xBF, 0x85, 0x45], DERWriter.tlv(0x04, applicationId)))
        let hardware = DERWriter.sequence(DERWriter.tlv([0xBF, 0x85, 0x40], rootOfTrust))
        let description = DERWriter.sequence(
            DERWriter.tlv(0x02, [4]), DERWriter.tlv(0x0A, [1]), DERWriter.tlv(0x02, [4]), DERWriter.tlv(0x0A, [1]),
            DERWriter.tlv(0x04, challenge), DERWriter.tlv(0x04, []), software, hardware)
        return try DERWriter.certificate(subject: "Android Keystore Key", issuer: "Holdfast E2E Attestation CA", subjectKey: key,
                                         issuerKey: intermediateKey, isCA: false,
                                         extensions: [DERWriter.sequence(
                                             DERWriter.tlv(0x06, [0x2B, 0x06, 0x01, 0x04, 0x01, 0xD6, 0x79, 0x02, 0x01, 0x11]),
                                             DERWriter.tlv(0x04, description))])
    }
}

/// Minimal DER writing for the test certificates above (RFC 5280 §4.1, X.690).
enum DERWriter {
    static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        if count < 0x100 { return [0x81, UInt8(count)] }
        return [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
    }

    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { [tag] + length(content.count) + content }
    static func tlv(_ tag: [UInt8], _ content: [UInt8]) -> [UInt8] { tag + length(content.count) + content }
    static func sequence(_ parts: [UInt8]...) -> [UInt8] { tlv(0x30, parts.flatMap { $0 }) }

    static func name(_ commonName: String) -> [UInt8] {
        sequence(tlv(0x31, sequence(tlv(0x06, [0x55, 0x04, 0x03]), tlv(0x0C, Array(commonName.utf8)))))
    }

    static func certificate(subject: String, issuer: String, subjectKey: P256.Signing.PublicKey,
                            issuerKey: P256.Signing.PrivateKey, isCA: Bool, extensions: [[UInt8]] = []) throws -> [UInt8] {
        let ecdsaWithSHA256 = sequence(tlv(0x06, [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]))
        let spki = sequence(sequence(tlv(0x06, [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]),
                                     tlv(0x06, [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07])),
                            tlv(0x03, [0] + Array(subjectKey.x963Representation)))
        let validity = sequence(tlv(0x17, Array("200101000000Z".utf8)), tlv(0x17, Array("491231000000Z".utf8)))
        var all: [UInt8] = []
        if isCA { all += sequence(tlv(0x06, [0x55, 0x1D, 0x13]), tlv(0x01, [0xFF]), tlv(0x04, sequence(tlv(0x01, [0xFF])))) }
        for item in extensions { all += item }
        var tbs = tlv(0xA0, tlv(0x02, [2])) + tlv(0x02, [0x01, UInt8.random(in: 1...0x7F), UInt8.random(in: 0...0xFF)])
        tbs += ecdsaWithSHA256 + name(issuer) + validity + name(subject) + spki
        if !all.isEmpty { tbs += tlv(0xA3, tlv(0x30, all)) }
        let tbsCertificate = tlv(0x30, tbs)
        let signature = try issuerKey.signature(for: tbsCertificate).derRepresentation
        return sequence(tbsCertificate, ecdsaWithSHA256, tlv(0x03, [0] + Array(signature)))
    }
}
