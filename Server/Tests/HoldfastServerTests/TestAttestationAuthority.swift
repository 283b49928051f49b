import Attestation
import CBOR
import Crypto
import Foundation
import TestSupport

/// Test-only trust anchors and the attestations they sign (docs/server-api.md "API", "Tests"): an App Attest CA and an Android
/// attestation root that exist only in this test process, injected into the server through
/// `TetheringConfiguration` — never trusted by default. The attestations carry the real binding nonce, so
/// registration runs through the real verifiers.
struct TestAttestationAuthority: Sendable {
    let rootKey: P256.Signing.PrivateKey
    let rootDER: [UInt8]
    let intermediateKey: P256.Signing.PrivateKey
    let intermediateDER: [UInt8]

    static let rootName = "Holdfast Test Attestation Root"
    static let intermediateName = "Holdfast Test Attestation CA"

    init() throws {
        rootKey = P256.Signing.PrivateKey()
        rootDER = try TestDER.certificate(subject: Self.rootName, issuer: Self.rootName, subjectKey: rootKey.publicKey,
                                          issuerKey: rootKey, isCA: true)
        intermediateKey = P256.Signing.PrivateKey()
        intermediateDER = try TestDER.certificate(subject: Self.intermediateName, issuer: Self.rootName,
                                                  subjectKey: intermediateKey.publicKey, issuerKey: rootKey, isCA: true)
    }

    var roots: [AttestationCertificate] {
        get throws { [try AttestationCertificate(derEncoded: rootDER)] }
    }

    // MARK: App Attest

    /// An App Attest key on the "device" and its id (SHA-256 of the SEC1 point).
    struct AppAttestKey: Sendable {
        let key = P256.Signing.PrivateKey()
        var keyId: [UInt8] { Array(SHA256.hash(data: Array(key.publicKey.x963Representation))) }
    }

    /// Apple's attestation object (`fmt: apple-appattest`) for `key` with `clientDataHash`.
    func appAttestation(key: AppAttestKey, appId: String, clientDataHash: [UInt8], production: Bool = false) throws -> [UInt8] {
        let aaguid: [UInt8] = production ? Array("appattest".utf8) + [UInt8](repeating: 0, count: 7) : Array("appattestdevelop".utf8)
        var authData = Array(SHA256.hash(data: Array(appId.utf8)))
        authData.append(0x40)
        authData += [0, 0, 0, 0]
        authData += aaguid
        authData += [0, 32] + key.keyId
        let nonce = Array(SHA256.hash(data: authData + clientDataHash))
        // Apple's nonce extension: SEQUENCE { [1] EXPLICIT OCTET STRING nonce }.
        let nonceValue = TestDER.sequence(TestDER.tlv(0xA1, TestDER.tlv(0x04, nonce)))
        let leaf = try TestDER.certificate(subject: "App Attest credential", issuer: Self.intermediateName,
                                           subjectKey: key.key.publicKey, issuerKey: intermediateKey, isCA: false,
                                           extensions: [TestDER.extensionField(oid: [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x63, 0x64, 0x08, 0x02],
                                                                               value: nonceValue)])
        let object = CBOR.map([
            .init(.text("fmt"), .text("apple-appattest")),
            .init(.text("attStmt"), .map([
                .init(.text("x5c"), .array([.bytes(leaf), .bytes(intermediateDER)])),
                .init(.text("receipt"), .bytes(Array("test receipt".utf8))),
            ])),
            .init(.text("authData"), .bytes(authData)),
        ])
        return object.encoded()
    }

    /// An App Attest assertion (`{signature, authenticatorData}`) with `counter`.
    static func appAssertion(key: AppAttestKey, appId: String, clientDataHash: [UInt8], counter: UInt32) throws -> [UInt8] {
        var authData = Array(SHA256.hash(data: Array(appId.utf8)))
        authData.append(0x00)
        authData += [UInt8(counter >> 24), UInt8((counter >> 16) & 0xFF), UInt8((counter >> 8) & 0xFF), UInt8(counter & 0xFF)]
        let nonce = Array(SHA256.hash(data: authData + clientDataHash))
        let signature = try key.key.signature(for: nonce).derRepresentation
        return CBOR.map([
            .init(.text("signature"), .bytes(Array(signature))),
            .init(.text("authenticatorData"), .bytes(authData)),
        ]).encoded()
    }

    // MARK: Android

    /// A chain `[leaf, intermediate]` whose leaf certifies `instanceKey` with a KeyDescription over `challenge`, its
    /// root of trust as given (by default verified boot, locked bootloader). `expiredIntermediate` puts an
    /// intermediate of the same key whose validity ended on 2021-01-01 in the chain.
    func androidChain(instanceKey: P256.Signing.PublicKey, challenge: [UInt8], packageName: String,
                      signingDigest: [UInt8], verifiedBootState: UInt8 = 0, deviceLocked: Bool = true,
                      expiredIntermediate: Bool = false) throws -> [[UInt8]] {
        let leaf = try TestDER.certificate(subject: "Android Keystore Key", issuer: Self.intermediateName,
                                           subjectKey: instanceKey, issuerKey: intermediateKey, isCA: false,
                                           extensions: [TestDER.androidKeyAttestationExtension(
                                               challenge: challenge, packageName: packageName, signingDigest: signingDigest,
                                               verifiedBootState: verifiedBootState, deviceLocked: deviceLocked)])
        guard expiredIntermediate else { return [leaf, intermediateDER] }
        let expired = try TestDER.certificate(subject: Self.intermediateName, issuer: Self.rootName,
                                              subjectKey: intermediateKey.publicKey, issuerKey: rootKey, isCA: true,
                                              notAfter: "210101000000Z")
        return [leaf, expired]
    }
}
