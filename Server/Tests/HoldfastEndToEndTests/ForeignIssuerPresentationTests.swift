import CBOR
import COSE
import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastSDK
import HoldfastServer
import Hummingbird
import HummingbirdTesting
import JOSE
import MDoc
import ServerTestSupport
import StatusList
import TestSupport
import Testing
import X509

/// A credential of another issuer presented to the tenant's verifier (docs/server-api.md "Verifier"): its IACA added as a
/// trusted issuer, its status list served by that issuer over HTTP, fetched and verified by the verifier. A valid
/// credential is verified, a revoked one refused, one whose list cannot be read is `STATUS_UNKNOWN`.
@Suite struct ForeignIssuerPresentationTests {
    /// The other issuer: an IACA, a document signer and a status list signer under it.
    struct OtherIssuer {
        let iacaKey = P256.Signing.PrivateKey()
        let documentKey = P256.Signing.PrivateKey()
        let statusKey = P256.Signing.PrivateKey()
        let iaca: Certificate
        let documentSignerDER: [UInt8]
        let statusSignerDER: [UInt8]

        init() throws {
            let now = Date()
            iaca = try MDocCertificates.iaca(key: iacaKey, subject: try MDocCertificates.name(commonName: "Other Issuer IACA", country: "ZZ"),
                                             notBefore: now.addingTimeInterval(-86_400), notAfter: now.addingTimeInterval(365 * 86_400))
            documentSignerDER = try Self.signer(documentKey, "Other Issuer DS", iaca: iaca, iacaKey: iacaKey, now: now)
            statusSignerDER = try Self.signer(statusKey, "Other Issuer status lists", iaca: iaca, iacaKey: iacaKey, now: now)
        }

        static func signer(_ key: P256.Signing.PrivateKey, _ name: String, iaca: Certificate, iacaKey: P256.Signing.PrivateKey,
                           now: Date) throws -> [UInt8] {
            try MDocCertificates.der(try MDocCertificates.signer(
                publicKey: key.publicKey, subject: try MDocCertificates.name(commonName: name, country: "ZZ"), iaca: iaca,
                iacaKey: iacaKey, notBefore: now.addingTimeInterval(-3_600), notAfter: now.addingTimeInterval(300 * 86_400),
                extendedKeyUsage: IssuerTrust.mdlDSExtendedKeyUsage))
        }

        func mdl(deviceKey: P256.Signing.PublicKey, status: MobileSecurityObject.StatusReference) throws -> IssuerSigned {
            let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            return try MDocIssuer(signer: COSESigningKey.p256(documentKey), certificateChain: [documentSignerDER]).issue(
                docType: "org.iso.18013.5.1.mDL",
                nameSpaces: [.init(name: "org.iso.18013.5.1", elements: [("family_name", .text("Roe")), ("age_over_18", .bool(true))])],
                deviceKey: COSEKey(publicKey: deviceKey),
                validity: .init(signed: now, validFrom: now, validUntil: now.addingTimeInterval(365 * 86_400)), status: status)
        }

        /// Index 3 revoked.
        func statusList(uri: String) throws -> [UInt8] {
            var list = try StatusList(bits: 2, count: 64)
            try list.setStatus(1, at: 3)
            let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            return try StatusListToken(subject: uri, issuedAt: now, expiresAt: now.addingTimeInterval(3_600), timeToLive: 60, list: list)
                .cwt(signer: COSESigningKey.p256(statusKey), certificateChain: [statusSignerDER])
        }
    }

    @Test func theVerifierFetchesTheOtherIssuersStatusList() async throws {
        let issuer = try OtherIssuer()
        let fetches = Locked(0)
        let listBody = Locked<[UInt8]>([])
        let router = Router()
        router.get("/status/1") { _, _ in
            fetches.withLock { $0 += 1 }
            var headers = HTTPFields()
            headers[.contentType] = StatusListToken.cwtType
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: listBody.withLock { $0 })))
        }
        let statusServer = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await statusServer.test(.live) { client in
            let port = try #require(client.port)
            let listURI = "http://localhost:\(port)/status/1"
            listBody.withLock { $0 = try! issuer.statusList(uri: listURI) }
            // The issuer's server is on loopback: the tenant is told it may fetch from private addresses.
            let tenantPort = try RawConnection.freePort()
            try await EndToEndBackend.sqlite.withTenant(configure: { configuration in
                configuration.port = tenantPort
                configuration.publicURL = "http://localhost:\(tenantPort)"
                configuration.outbound.allowsPrivateAddresses = true
                // The whole suite may run at once on a small machine: no fetch is cut short by a busy one.
                configuration.outbound.statusListDeadline = .seconds(120)
            }) { tenant in
                let pem = try issuer.iaca.serializeAsPEM().pemString
                _ = try await tenant.admin.addTrustedIssuer(PresentationTrustedIssuer(certificatePem: pem))

                func present(index: UInt64, uri: String) async throws -> PresentationResult {
                    let deviceKey = P256.Signing.PrivateKey()
                    let issued = try issuer.mdl(deviceKey: deviceKey.publicKey, status: .init(index: index, uri: uri))
                    return try await PresentationAttackEndToEndTests.answer(tenant) { transcript in
                        Document(docType: "org.iso.18013.5.1.mDL", issuerSigned: issued.disclosing(["org.iso.18013.5.1": ["family_name", "age_over_18"]]),
                                 deviceSigned: try DeviceSigned.sign(docType: "org.iso.18013.5.1.mDL", sessionTranscript: transcript,
                                                                     signer: COSESigningKey.p256(deviceKey)))
                    }
                }
                let valid = try await present(index: 0, uri: listURI)
                #expect(valid.status == "verified", "\(valid)")
                #expect(valid.claims?["org.iso.18013.5.1.mDL"]?["org.iso.18013.5.1"]?["family_name"] == .string("Roe"))
                let revoked = try await present(index: 3, uri: listURI)
                #expect(revoked.failures?.map(\.code) == [PresentationFailureCode.statusRevoked], "\(revoked)")
                // Within the list's ttl the verifier read it once.
                #expect(fetches.withLock { $0 } == 1)
                let unreadable = try await present(index: 0, uri: "http://localhost:\(port)/status/unknown")
                #expect(unreadable.failures?.map(\.code) == [PresentationFailureCode.statusUnknown], "\(unreadable)")
                // The reason is fixed: the list server's answer (404) is in the log, not in the result.
                #expect(unreadable.failures?.map(\.reason) == ["the status list could not be fetched"], "\(unreadable)")
            }
        }
    }

    /// The same list on loopback, with the tenant left at its default (`HOLDFAST_OUTBOUND_ALLOW_PRIVATE` off): the
    /// verifier never asks the list's server, and the credential's status is unknown.
    @Test func aTenantThatMayNotFetchFromPrivateAddressesNeverAsksALoopbackServer() async throws {
        let issuer = try OtherIssuer()
        let fetches = Locked(0)
        let router = Router()
        router.get("/status/1") { _, _ in
            fetches.withLock { $0 += 1 }
            return Response(status: .ok)
        }
        let statusServer = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await statusServer.test(.live) { client in
            let listURI = "http://localhost:\(try #require(client.port))/status/1"
            try await PresentationEndToEndTests.withLocalhostTenant(.sqlite) { tenant in
                _ = try await tenant.admin.addTrustedIssuer(PresentationTrustedIssuer(certificatePem: try issuer.iaca.serializeAsPEM().pemString))
                let deviceKey = P256.Signing.PrivateKey()
                let issued = try issuer.mdl(deviceKey: deviceKey.publicKey, status: .init(index: 0, uri: listURI))
                let result = try await PresentationAttackEndToEndTests.answer(tenant) { transcript in
                    Document(docType: "org.iso.18013.5.1.mDL", issuerSigned: issued.disclosing(["org.iso.18013.5.1": ["family_name", "age_over_18"]]),
                             deviceSigned: try DeviceSigned.sign(docType: "org.iso.18013.5.1.mDL", sessionTranscript: transcript,
                                                                 signer: COSESigningKey.p256(deviceKey)))
                }
                #expect(result.status == "failed", "\(result)")
                #expect(result.failures?.map(\.code) == [PresentationFailureCode.statusUnknown], "\(result)")
                #expect(result.failures?.map(\.reason) == ["the status list could not be fetched"], "\(result)")
                #expect(fetches.withLock { $0 } == 0)
            }
        }
    }
}
