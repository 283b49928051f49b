import COSE
import Crypto
import DigitalCredentials
import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import holdfast
import HoldfastSDK
import JOSE
import MDoc
import OpenID4VP
import SwiftASN1
import Testing
import X509

/// A page at https://shop.example and its verifier for `present-digital`: a request-signer CA and leaf naming
/// shop.example, the encryption key of its requests, and the checks of the answers (decryption, then the
/// DeviceResponse against the tenant's IACA over the protocol's SessionTranscript for the origin).
struct DigitalCredentialsPage {
    static let origin = "https://shop.example"
    let leafKey: P256.Signing.PrivateKey
    let encryptionKey = P256.KeyAgreement.PrivateKey()
    let leafDER: [UInt8], caDER: [UInt8]
    let iaca: Certificate

    init(iaca: Certificate) throws {
        let chain = try TestCertificateChain(caName: "Shop Verifier CA", leafName: "Shop Verifier", dnsName: "shop.example")
        leafKey = chain.leafKey
        leafDER = try TestCertificateChain.der(chain.leaf)
        caDER = try TestCertificateChain.der(chain.ca)
        self.iaca = iaca
    }

    var encryptionJWK: JWK { JWK(publicKey: encryptionKey.publicKey, kid: "page-enc", use: "enc", alg: "ECDH-ES") }

    /// `{protocol: "openid4vp-v1-signed", data: {request}}` for family_name of an mDL (OpenID4VP 1.0 Appendix A).
    func openID4VPRequest() throws -> [UInt8] {
        var header = JOSEHeader()
        header.typ = "oauth-authz-req+jwt"
        header.setX5C([leafDER, caDER])
        let jwks = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(JWKSet(keys: [encryptionJWK])))
        let now = Int64(Date().timeIntervalSince1970)
        let payload: JSONValue = .object([
            "client_id": .string("x509_san_dns:shop.example"), "expected_origins": .array([.string(Self.origin)]),
            "response_type": .string("vp_token"), "response_mode": .string("dc_api.jwt"), "nonce": .string("page-nonce"),
            "iat": .integer(now), "exp": .integer(now + 300),
            "client_metadata": .object(["jwks": jwks, "encrypted_response_enc_values_supported": .array([.string("A256GCM")])]),
            "dcql_query": .object(["credentials": .array([.object([
                "id": .string("mdl"), "format": .string("mso_mdoc"), "meta": .object(["doctype_value": .string("org.iso.18013.5.1.mDL")]),
                "claims": .array([.object(["path": .array([.string("org.iso.18013.5.1"), .string("family_name")])])]),
            ])])]),
        ])
        let jws = try JWS.sign(payload: try JSONEncoder().encode(payload), header: header, key: JWSSigningKey(leafKey))
        return try DigitalCredentialRequestOptions(requests: [OpenID4VPDCAPIRequest.signed(requestObject: jws.compactSerialization).request])
            .jsonBytes()
    }

    /// An `org-iso-mdoc` request (ISO/IEC TS 18013-7 Annex C) for family_name, its readerAuth by the leaf for the origin.
    func annexCRequest() throws -> AnnexCRequest {
        let items = ItemsRequest(docType: "org.iso.18013.5.1.mDL", nameSpaces: [.init("org.iso.18013.5.1", elements: [.init("family_name")])])
        return try AnnexCRequest(itemsRequests: [items], encryptionInfo: try EncryptionInfo(recipientPublicKey: encryptionKey.publicKey),
                                 origin: Self.origin, readerSigner: COSESigningKey.p256(leafKey), certificateChain: [leafDER, caDER])
    }

    /// The JWE's payload of an OpenID4VP answer.
    func openOpenID4VP(_ answer: DigitalCredentialResponse) throws -> [String: JSONValue] {
        guard case .encrypted(let compact) = try OpenID4VPDCAPIResponse(answer) else { throw CommandFailure(.failure, "not a JWE") }
        let jwe = try JWE(compactSerialization: compact)
        #expect(jwe.header.kid == "page-enc" && jwe.header.enc == "A256GCM")
        return try #require(try JSONValue(json: try jwe.decrypt(with: encryptionKey)).objectValue)
    }

    /// The elements of each document that verifies over `transcript` (`namespace/element`).
    func verify(_ response: DeviceResponse, transcript: SessionTranscript) async throws -> [String] {
        var elements: [String] = []
        for document in response.documents {
            _ = try await MDocVerifier(trust: IssuerTrust(iacas: [iaca])).verify(document, sessionTranscript: transcript, at: Date())
            elements += document.issuerSigned.nameSpaces.flatMap { space in space.items.map { "\(space.name)/\($0.elementIdentifier)" } }
        }
        return elements
    }
}

@Suite struct DevicePresentDigitalEndToEndTests {
    /// Runs `holdfast device --state STATE present-digital --origin https://shop.example @FILE …` and reads its standard
    /// output as exactly one JSON object, the answer.
    static func presentDigital(state: String, request: [UInt8], in folder: URL, _ extra: [String]) async throws -> (DigitalCredentialResponse, String) {
        let file = folder.appendingPathComponent("request-\(UUID().uuidString).json")
        try Data(request).write(to: file)
        let run = try await ServeProcessTests.run(["device", "--state", state, "present-digital", "--origin", DigitalCredentialsPage.origin,
                                                   "@" + file.path] + extra)
        #expect(run.status == 0, "\(run.error)")
        // One line, one JSON value (the strict parser refuses anything after it): the answer alone.
        #expect(run.output.split(separator: "\n").count == 1, "\(run.output)")
        let value = try JSONValue(json: Array(run.output.trimmingCharacters(in: .newlines).utf8))
        #expect(value.objectValue.map { Set($0.keys) } == ["protocol", "data"])
        return (try DigitalCredentialResponse(json: Array(run.output.utf8)), run.error)
    }

    @Test func presentDigitalAnswersEachProtocolWithOneJSONObjectThatThePageOpens() async throws {
        try await EndToEndBackend.sqlite.withTenant { tenant in
            try await CredentialsEndToEndTests.configure(tenant)
            let iacaPEM = try #require(try await tenant.admin.iacas().data.first).certificatePem
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            let state = tenant.scratch.appendingPathComponent("cli-present-digital").path
            let tethered = try DeviceOptions.parse(["--state", state, "--tenant", tenant.baseURL, "--application", applicationId])
            let local = try DeviceOptions.parse(["--state", state])
            #expect(await DeviceSession(options: tethered).perform(.register).ok)
            _ = try await DeviceIssuers.Add.output(local, pem: iacaPEM)
            let created = try await CredentialsEndToEndTests.offer(tenant, txCode: false)
            _ = try await DeviceClaim.output(tethered, uri: created.offerUri, txCode: nil)
            let page = try DigitalCredentialsPage(iaca: try Certificate(pemEncoded: iacaPEM))

            // OpenID4VP 1.0 Appendix A: consented.
            let (sent, prompt) = try await Self.presentDigital(state: state, request: try page.openID4VPRequest(), in: tenant.scratch, ["--yes"])
            #expect(sent.protocol == .openID4VPSigned)
            #expect(prompt.contains("shop.example") && prompt.contains("org.iso.18013.5.1/family_name"), "\(prompt)")
            let payload = try page.openOpenID4VP(sent)
            let token = try #require(payload["vp_token"]?.objectValue?["mdl"]?.arrayValue?.first?.stringValue)
            let transcript = SessionTranscript.openID4VPDCAPI(origin: DigitalCredentialsPage.origin, nonce: "page-nonce",
                                                              jwkThumbprint: Base64URL.decode(try page.encryptionJWK.thumbprint()))
            #expect(try await page.verify(try DeviceResponse(decoding: try #require(Base64URL.decode(token))), transcript: transcript)
                    == ["org.iso.18013.5.1/family_name"])
            // Declined.
            let (declined, _) = try await Self.presentDigital(state: state, request: try page.openID4VPRequest(), in: tenant.scratch, ["--decline"])
            #expect(try page.openOpenID4VP(declined) == ["error": .string("access_denied")])

            // ISO/IEC TS 18013-7 Annex C: consented, then declined.
            let annexC = try page.annexCRequest()
            let (sealed, _) = try await Self.presentDigital(state: state, request: try annexC.request.jsonBytes(), in: tenant.scratch, ["--yes"])
            let opened = try AnnexCEncryption.open(try AnnexCResponse(sealed).encryptedResponse, recipientKey: page.encryptionKey,
                                                   sessionTranscript: annexC.sessionTranscript(origin: DigitalCredentialsPage.origin))
            #expect(try await page.verify(try DeviceResponse(decoding: opened), transcript: annexC.sessionTranscript(origin: DigitalCredentialsPage.origin))
                    == ["org.iso.18013.5.1/family_name"])
            let (refused, _) = try await Self.presentDigital(state: state, request: try annexC.request.jsonBytes(), in: tenant.scratch, ["--decline"])
            let refusal = try DeviceResponse(decoding: try AnnexCEncryption.open(
                try AnnexCResponse(refused).encryptedResponse, recipientKey: page.encryptionKey,
                sessionTranscript: annexC.sessionTranscript(origin: DigitalCredentialsPage.origin)))
            #expect(refusal.status == 10 && refusal.documents.isEmpty)

            // Another page replaying the signed request: ORIGIN_NOT_EXPECTED, no answer.
            let file = tenant.scratch.appendingPathComponent("replayed.json")
            try Data(try page.openID4VPRequest()).write(to: file)
            let replayed = try await ServeProcessTests.run(["device", "--state", state, "present-digital", "--origin", "https://other.example",
                                                            "@" + file.path, "--yes"])
            #expect(replayed.status != 0 && replayed.error.contains("ORIGIN_NOT_EXPECTED"), "\(replayed.error)")
            #expect(!replayed.output.contains("\"protocol\""))
        }
    }
}
