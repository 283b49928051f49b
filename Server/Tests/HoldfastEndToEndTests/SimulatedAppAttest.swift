import Attestation
import CBOR
import Crypto
import Foundation
import HoldfastProtocol
import HoldfastSDK
import TestSupport

/// An iPhone's App Attest for the renewal tests (docs/sdk.md "Registration errors"): an attestation authority of this test
/// process certifies each new App Attest key in Apple's attestation object (`fmt: apple-appattest`, the nonce
/// extension 1.2.840.113635.100.8.2 over `authData ‖ clientDataHash`), and the key makes assertions with a counter —
/// the tenant trusts the authority's root through `TetheringConfiguration`, never by default. While
/// `assertionsUnavailable` is set, assertions fail as App Attest's `serverUnavailable` does (`temporarilyUnavailable`).
actor SimulatedAppAttest: PlatformAttestation {
    /// The application `EndToEndTenant.createIOSApplication` creates: `<teamId>.<bundleId>`.
    static let appId = "ABCDE12345.com.example.wallet"
    static let rootName = "Holdfast E2E App Attest Root"
    static let intermediateName = "Holdfast E2E App Attest CA"

    let rootDER: [UInt8]
    private let intermediateKey = P256.Signing.PrivateKey()
    private let intermediateDER: [UInt8]
    private var keys: [[UInt8]: (key: P256.Signing.PrivateKey, counter: UInt32)] = [:]
    private var assertionsUnavailable = false
    private(set) var assertionsMade = 0

    init() throws {
        let rootKey = P256.Signing.PrivateKey()
        rootDER = try TestDER.certificate(subject: Self.rootName, issuer: Self.rootName, subjectKey: rootKey.publicKey,
                                          issuerKey: rootKey, isCA: true)
        intermediateDER = try TestDER.certificate(subject: Self.intermediateName, issuer: Self.rootName,
                                                  subjectKey: intermediateKey.publicKey, issuerKey: rootKey, isCA: true)
    }

    nonisolated var roots: [AttestationCertificate] {
        get throws { [try AttestationCertificate(derEncoded: rootDER)] }
    }

    func setAssertionsUnavailable(_ unavailable: Bool) { assertionsUnavailable = unavailable }

    func attestKey(clientDataHash: [UInt8]) async throws(PlatformAttestationError) -> PlatformAttestationPayload {
        let key = P256.Signing.PrivateKey()
        let keyId = Array(SHA256.hash(data: Array(key.publicKey.x963Representation)))
        keys[keyId] = (key, 0)
        do {
            return .appAttest(attestationObject: try attestationObject(key: key, keyId: keyId, clientDataHash: clientDataHash), keyId: keyId)
        } catch {
            throw .failed(String(describing: error))
        }
    }

    func generateAssertion(keyId: [UInt8], clientDataHash: [UInt8]) async throws(PlatformAttestationError) -> [UInt8] {
        guard !assertionsUnavailable else { throw .temporarilyUnavailable("Apple's App Attest service cannot be reached now") }
        guard let (key, last) = keys[keyId] else { throw .failed("no App Attest key \(keyId)") }
        let counter = last + 1
        keys[keyId] = (key, counter)
        var authData = Array(SHA256.hash(data: Array(Self.appId.utf8)))
        authData.append(0x00)
        authData += [UInt8(counter >> 24), UInt8((counter >> 16) & 0xFF), UInt8((counter >> 8) & 0xFF), UInt8(counter & 0xFF)]
        let nonce = Array(SHA256.hash(data: authData + clientDataHash))
        do {
            let signature = try key.signature(for: nonce).derRepresentation
            assertionsMade += 1
            return CBOR.map([
                .init(.text("signature"), .bytes(Array(signature))),
                .init(.text("authenticatorData"), .bytes(authData)),
            ]).encoded()
        } catch {
            throw .failed(String(describing: error))
        }
    }

    /// Apple's attestation object for `key` (development environment: aaguid `appattestdevelop`).
    private func attestationObject(key: P256.Signing.PrivateKey, keyId: [UInt8], clientDataHash: [UInt8]) throws -> [UInt8] {
        var authData = Array(SHA256.hash(data: Array(Self.appId.utf8)))
        authData.append(0x40)
        authData += [0, 0, 0, 0]
        authData += Array("appattestdevelop".utf8)
        authData += [0, 32] + keyId
        let nonce = Array(SHA256.hash(data: authData + clientDataHash))
        // Apple's nonce extension: SEQUENCE { [1] EXPLICIT OCTET STRING nonce }.
        let nonceValue = TestDER.sequence(TestDER.tlv(0xA1, TestDER.tlv(0x04, nonce)))
        let leaf = try TestDER.certificate(subject: "App Attest credential", issuer: Self.intermediateName, subjectKey: key.publicKey,
                                           issuerKey: intermediateKey, isCA: false,
                                           extensions: [TestDER.extensionField(oid: [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x63, 0x64, 0x08, 0x02],
                                                                               value: nonceValue)])
        return CBOR.map([
            .init(.text("fmt"), .text("apple-appattest")),
            .init(.text("attStmt"), .map([
                .init(.text("x5c"), .array([.bytes(leaf), .bytes(intermediateDER)])),
                .init(.text("receipt"), .bytes(Array("test receipt".utf8))),
            ])),
            .init(.text("authData"), .bytes(authData)),
        ]).encoded()
    }
}
