import Crypto
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

/// A verifier at https://verifier.example for the `present` command's test: a CA, a request-signing leaf naming
/// the host, a request object asking for family_name, and a response endpoint that decrypts and verifies the
/// DeviceResponse against the tenant's IACA.
actor MiniVerifier: HTTPTransport {
    let caKey = P256.Signing.PrivateKey(), leafKey = P256.Signing.PrivateKey()
    let encryptionKey = P256.KeyAgreement.PrivateKey()
    let ca: Certificate
    let leafDER: [UInt8]
    let iaca: Certificate
    let network: any HTTPTransport
    private(set) var verifiedElements: [String] = []
    private(set) var declined = false

    init(iaca: Certificate, network: any HTTPTransport) throws {
        let now = Date()
        let caName = try DistinguishedName { CommonName("Mini Verifier CA") }
        ca = try Certificate(version: .v3, serialNumber: .init(), publicKey: .init(caKey.publicKey), notValidBefore: now.addingTimeInterval(-3_600),
                             notValidAfter: now.addingTimeInterval(86_400), issuer: caName, subject: caName, signatureAlgorithm: .ecdsaWithSHA256,
                             extensions: try Certificate.Extensions { Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0)) },
                             issuerPrivateKey: .init(caKey))
        let leaf = try Certificate(version: .v3, serialNumber: .init(), publicKey: .init(leafKey.publicKey), notValidBefore: now.addingTimeInterval(-3_600),
                                   notValidAfter: now.addingTimeInterval(86_400), issuer: caName,
                                   subject: try DistinguishedName { CommonName("Mini Verifier") }, signatureAlgorithm: .ecdsaWithSHA256,
                                   extensions: try Certificate.Extensions { SubjectAlternativeNames([.dnsName("verifier.example")]) },
                                   issuerPrivateKey: .init(caKey))
        var serializer = DER.Serializer()
        try serializer.serialize(leaf)
        leafDER = serializer.serializedBytes
        self.iaca = iaca
        self.network = network
    }

    nonisolated var encryptionJWK: JWK { JWK(publicKey: encryptionKey.publicKey, kid: "e1", use: "enc") }
    var clientId: String { "x509_hash:" + Base64URL.encode(SHA256.hash(data: leafDER)) }
    var uri: String {
        "openid4vp://?client_id=" + (clientId.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            + "&request_uri=https%3A%2F%2Fverifier.example%2Frequest"
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard request.url.host == "verifier.example" else { return try await network.send(request) }
        if request.method == "GET" {
            var header = JOSEHeader()
            header.typ = "oauth-authz-req+jwt"
            header.setX5C([leafDER])
            let jwks = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(JWKSet(keys: [encryptionJWK])))
            let now = Int64(Date().timeIntervalSince1970)
            let payload: JSONValue = .object([
                "client_id": .string(clientId), "response_type": .string("vp_token"), "response_mode": .string("direct_post.jwt"),
                "response_uri": .string("https://verifier.example/response"), "nonce": .string("n-1"), "state": .string("s-1"),
                "iat": .integer(now), "exp": .integer(now + 300), "client_metadata": .object(["jwks": jwks]),
                "dcql_query": .object(["credentials": .array([.object([
                    "id": .string("mdl"), "format": .string("mso_mdoc"), "meta": .object(["doctype_value": .string("org.iso.18013.5.1.mDL")]),
                    "claims": .array([.object(["path": .array([.string("org.iso.18013.5.1"), .string("family_name")])])]),
                ])])]),
            ])
            let jws = try JWS.sign(payload: try JSONEncoder().encode(payload), header: header, key: JWSSigningKey(leafKey))
            return TransportResponse(status: 200, body: Data(jws.compactSerialization.utf8))
        }
        let form = String(decoding: request.body ?? Data(), as: UTF8.self)
        let compact = try #require(form.split(separator: "=", maxSplits: 1).last.flatMap { String($0).removingPercentEncoding })
        let payload = try #require(try JSONDecoder().decode(JSONValue.self, from: Data(try JWE(compactSerialization: compact).decrypt(with: encryptionKey))).objectValue)
        if payload["error"]?.stringValue == "access_denied" {
            declined = true
            return TransportResponse(status: 200, body: Data("{}".utf8))
        }
        let encoded = try #require(payload["vp_token"]?.objectValue?["mdl"]?.arrayValue?.first?.stringValue)
        let transcript = SessionTranscript.openID4VP(clientId: clientId, nonce: "n-1", jwkThumbprint: Base64URL.decode(try encryptionJWK.thumbprint()),
                                                     responseUri: "https://verifier.example/response")
        for document in try DeviceResponse(decoding: try #require(Base64URL.decode(encoded))).documents {
            _ = try await MDocVerifier(trust: IssuerTrust(iacas: [iaca])).verify(document, sessionTranscript: transcript, at: Date())
            verifiedElements += document.issuerSigned.nameSpaces.flatMap { space in space.items.map { "\(space.name)/\($0.elementIdentifier)" } }
        }
        return TransportResponse(status: 200, body: Data(#"{"redirect_uri":"https://verifier.example/done"}"#.utf8))
    }
}

@Suite struct DevicePresentEndToEndTests {
    @Test func theDeviceCommandPresentsAClaimedCredential() async throws {
        try await EndToEndBackend.sqlite.withTenant { tenant in
            try await CredentialsEndToEndTests.configure(tenant)
            let iacas = try await tenant.admin.iacas()
            let iacaPEM = try #require(iacas.data.first).certificatePem
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            let state = tenant.scratch.appendingPathComponent("cli-present").path
            let tethered = try DeviceOptions.parse(["--state", state, "--tenant", tenant.baseURL, "--application", applicationId])
            let local = try DeviceOptions.parse(["--state", state])
            #expect(await DeviceSession(options: tethered).perform(.register).ok)
            _ = try await DeviceIssuers.Add.output(local, pem: iacaPEM)
            let created = try await CredentialsEndToEndTests.offer(tenant, txCode: false)
            let claimed = try JSONDecoder().decode(JSONValue.self, from: Data(try await DeviceClaim.output(tethered, uri: created.offerUri, txCode: nil).utf8))
            let id = try #require(claimed.arrayValue?.first?.objectValue?["id"]?.stringValue)

            let verifier = try MiniVerifier(iaca: try Certificate(pemEncoded: iacaPEM), network: URLSessionTransport())
            let uri = await verifier.uri
            // Not accepted at the prompt: a decision, not a failure — nothing is sent, the verifier is told it was declined.
            let refused = try JSONDecoder().decode(JSONValue.self, from: Data(try await DevicePresent.output(
                local, uri: uri, requireTrustedVerifier: false, select: [], decline: false, confirm: { _ in false }, transport: verifier).utf8)).objectValue
            #expect(refused?["declined"] == .bool(true) && refused?["sent"] == .array([]))
            let elementsAfterDecline = await verifier.verifiedElements
            #expect(await verifier.declined)
            #expect(elementsAfterDecline.isEmpty)
            // Trust required and none added: refused.
            await expectHoldfastError(.verifierUntrusted) {
                try await DevicePresent.output(local, uri: uri, requireTrustedVerifier: true, select: [], decline: false,
                                               confirm: { _ in true }, transport: verifier)
            }
            var asked = ""
            let sent = try JSONDecoder().decode(JSONValue.self, from: Data(try await DevicePresent.output(
                local, uri: uri, requireTrustedVerifier: false, select: [], decline: false, confirm: { asked = $0; return true },
                transport: verifier).utf8)).objectValue
            #expect(asked.contains("org.iso.18013.5.1/family_name") && asked.contains("verified by domain"))
            #expect(sent?["verifier"]?.objectValue?["verifiedBy"] == .string("domain"))
            #expect(sent?["requests"]?.arrayValue?.first?.objectValue?["matches"] == .array([.string(id)]))
            // The requested elements the match holds (docs/sdk.md "Holder: presentation"); its status is known.
            #expect(sent?["requests"]?.arrayValue?.first?.objectValue?["claims"] == .object([id: .array([.string("org.iso.18013.5.1/family_name")])]))
            #expect(sent?["requests"]?.arrayValue?.first?.objectValue?["unknownStatus"] == .array([]))
            #expect(sent?["sent"] == .array([.string(id)]) && sent?["redirectUri"] == .string("https://verifier.example/done"))
            #expect(await verifier.verifiedElements == ["org.iso.18013.5.1/family_name"])

            _ = try await DevicePresent.output(local, uri: uri, requireTrustedVerifier: false, select: [], decline: true,
                                               confirm: { _ in true }, transport: verifier)
            #expect(await verifier.declined)
        }
    }

    /// docs/sdk.md "Holder: status": `present --unknown-status` decides whether a credential whose status list could not be
    /// reached is offered; `allowWithWarning` (the default) offers it, names it, and warns at the prompt.
    @Test func thePresentCommandFollowsItsUnknownStatusPolicy() async throws {
        try await EndToEndBackend.sqlite.withTenant { tenant in
            try await CredentialsEndToEndTests.configure(tenant)
            let iacaPEM = try #require(try await tenant.admin.iacas().data.first).certificatePem
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            let state = tenant.scratch.appendingPathComponent("cli-present-unknown").path
            let tethered = try DeviceOptions.parse(["--state", state, "--tenant", tenant.baseURL, "--application", applicationId])
            #expect(await DeviceSession(options: tethered).perform(.register).ok)
            _ = try await DeviceIssuers.Add.output(try DeviceOptions.parse(["--state", state]), pem: iacaPEM)
            // The status list is never reachable from this device: its credential's status is unknown.
            let network = StatusListBlockingTransport(URLSessionTransport(timeout: 15))
            await network.block(true)
            let created = try await CredentialsEndToEndTests.offer(tenant, txCode: false)
            let claimed = try JSONDecoder().decode(JSONValue.self, from: Data(try await DeviceClaim.output(
                tethered, uri: created.offerUri, txCode: nil, transport: network).utf8))
            let id = try #require(claimed.arrayValue?.first?.objectValue?["id"]?.stringValue)
            let verifier = try MiniVerifier(iaca: try Certificate(pemEncoded: iacaPEM), network: network)
            let uri = await verifier.uri

            func present(_ arguments: [String], confirm: (String) -> Bool = { _ in true }) async throws(HoldfastError) -> String {
                let command: DevicePresent
                do { command = try DevicePresent.parse(["--state", state, uri] + arguments) } catch {
                    throw HoldfastError(.validationFailed, "\(error)")
                }
                return try await DevicePresent.output(command.options, uri: command.uri, requireTrustedVerifier: false, select: [],
                                                      decline: false, confirm: confirm, transport: verifier,
                                                      unknownStatusPolicy: command.unknownStatusPolicy)
            }
            // exclude, and allowIfCheckedWithin for a status never checked online: nothing matches, nothing is sent.
            for arguments in [["--unknown-status", "exclude"], ["--unknown-status", "allowIfCheckedWithin", "--checked-within", "3600"]] {
                let error = await expectHoldfastError(.credentialNotFound) { try await present(arguments) }
                #expect(error?.message.contains("no stored credential matches") == true, "\(arguments)")
            }
            #expect(await verifier.verifiedElements.isEmpty)
            // The default: offered with a warning, and named in unknownStatus.
            var asked = ""
            let sent = try JSONDecoder().decode(JSONValue.self, from: Data(try await present([], confirm: { asked = $0; return true }).utf8)).objectValue
            let request = sent?["requests"]?.arrayValue?.first?.objectValue
            #expect(request?["matches"] == .array([.string(id)]) && request?["unknownStatus"] == .array([.string(id)]))
            #expect(asked.contains("warning: the status of \(id) is unknown"), "\(asked)")
            #expect(sent?["sent"] == .array([.string(id)]))
            #expect(await verifier.verifiedElements == ["org.iso.18013.5.1/family_name"])
        }
    }
}
