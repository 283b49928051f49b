import Crypto
import Foundation
import HoldfastProtocol
@testable import HoldfastSDK
import JOSE
import OpenID4VP
import SwiftASN1
import Testing
import TestSupport
import X509

/// A verifier's PKI for the tests: a CA and a request-signing leaf whose SAN names `host`.
struct TestVerifierPKI {
    let caKey = P256.Signing.PrivateKey()
    let leafKey = P256.Signing.PrivateKey()
    let ca: Certificate
    let leaf: Certificate
    let leafDER: [UInt8]
    let caDER: [UInt8]

    init(host: String = "verifier.example", at now: Date) throws {
        let caName = try DistinguishedName { CommonName("Test Verifier CA") }
        ca = try Certificate(version: .v3, serialNumber: .init(), publicKey: .init(caKey.publicKey),
                             notValidBefore: now.addingTimeInterval(-86_400), notValidAfter: now.addingTimeInterval(365 * 86_400),
                             issuer: caName, subject: caName, signatureAlgorithm: .ecdsaWithSHA256,
                             extensions: try Certificate.Extensions {
                                 Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                                 Critical(KeyUsage(keyCertSign: true))
                             }, issuerPrivateKey: .init(caKey))
        leaf = try Certificate(version: .v3, serialNumber: .init(), publicKey: .init(leafKey.publicKey),
                               notValidBefore: now.addingTimeInterval(-3_600), notValidAfter: now.addingTimeInterval(90 * 86_400),
                               issuer: caName, subject: try DistinguishedName { CommonName("Test Verifier") }, signatureAlgorithm: .ecdsaWithSHA256,
                               extensions: try Certificate.Extensions {
                                   Critical(KeyUsage(digitalSignature: true))
                                   SubjectAlternativeNames([.dnsName(host)])
                               }, issuerPrivateKey: .init(caKey))
        var serializer = DER.Serializer()
        try serializer.serialize(leaf)
        leafDER = serializer.serializedBytes
        var caSerializer = DER.Serializer()
        try caSerializer.serialize(ca)
        caDER = caSerializer.serializedBytes
    }

    var x509Hash: String { "x509_hash:" + Base64URL.encode(SHA256.hash(data: leafDER)) }

    /// A request object as the tenant's verifier writes one (OpenID4VP 1.0, DCQL).
    func requestObject(clientId: String? = nil, responseUri: String = "https://verifier.example/response", issuedAt: Date,
                       lifetime: TimeInterval = 300, extra: [String: JSONValue] = [:], signer: P256.Signing.PrivateKey? = nil,
                       typ: String? = "oauth-authz-req+jwt", chain: [[UInt8]]? = nil) throws -> String {
        var header = JOSEHeader()
        header.typ = typ
        header.setX5C(chain ?? [leafDER, caDER])
        var payload: [String: JSONValue] = [
            "client_id": .string(clientId ?? x509Hash), "response_type": .string("vp_token"), "response_mode": .string("direct_post.jwt"),
            "response_uri": .string(responseUri), "nonce": .string("nonce-1"), "state": .string("state-1"),
            "aud": .string("https://self-issued.me/v2"), "iat": .integer(Int64(issuedAt.timeIntervalSince1970)),
            "exp": .integer(Int64(issuedAt.timeIntervalSince1970 + lifetime)),
            "client_metadata": .object([
                "jwks": .object(["keys": .array([.object(["kty": .string("EC"), "crv": .string("P-256"), "use": .string("enc"),
                                                          "alg": .string("ECDH-ES"), "kid": .string("enc-1"),
                                                          "x": .string(JWK(publicKey: P256.KeyAgreement.PrivateKey().publicKey).x ?? ""),
                                                          "y": .string(JWK(publicKey: P256.KeyAgreement.PrivateKey().publicKey).y ?? "")])])]),
                "encrypted_response_enc_values_supported": .array([.string("A256GCM"), .string("A128GCM")]),
            ]),
            "dcql_query": .object(["credentials": .array([.object([
                "id": .string("mdl"), "format": .string("mso_mdoc"), "meta": .object(["doctype_value": .string("org.iso.18013.5.1.mDL")]),
                "claims": .array([.object(["path": .array([.string("org.iso.18013.5.1"), .string("family_name")]), "intent_to_retain": .bool(false)]),
                                  .object(["path": .array([.string("org.iso.18013.5.1"), .string("age_over_18")])])]),
            ])])]),
        ]
        for (name, value) in extra { payload[name] = value }
        return try JWS.sign(payload: try JSONEncoder().encode(JSONValue.object(payload)), header: header,
                            key: JWSSigningKey(signer ?? leafKey)).compactSerialization
    }
}

@Suite struct AuthorizationRequestTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let pki: TestVerifierPKI

    init() throws { pki = try TestVerifierPKI(at: now) }

    func verifier(trusting: [Certificate] = [], required: Bool = false) -> AuthorizationRequestVerifier {
        AuthorizationRequestVerifier(trustedCertificates: trusting, requireTrustedVerifier: required)
    }

    @Test func aRequestChainedToATrustedVerifierIsVerifiedByCertificate() async throws {
        let request = try await verifier(trusting: [pki.ca], required: true).verify(try pki.requestObject(issuedAt: now), fetchedFrom: nil,
                                                                              expectedClientId: pki.x509Hash, at: now)
        #expect(request.verifiedBy == .certificate && request.presentationProtocol == .openID4VP)
        #expect(request.clientId == pki.x509Hash && request.verifierName == "verifier.example")
        #expect(request.nonce == "nonce-1" && request.state == "state-1" && request.contentEncryption == .a256gcm)
        #expect(request.requests == [MobileCredentialRequest(id: "mdl", docType: "org.iso.18013.5.1.mDL",
                                                             namespaces: ["org.iso.18013.5.1": ["family_name": false, "age_over_18": false]])])
    }

    /// docs/sdk.md "Holder: presentation": without required trust, a verifier whose request is well formed and signed by
    /// the key its client id names is accepted, and `verifiedBy` says how much was established.
    @Test func anUntrustedRequestIsVerifiedByDomainWhenTheCertificateNamesWhereTheResponseGoes() async throws {
        let object = try pki.requestObject(clientId: "x509_san_dns:verifier.example", issuedAt: now)
        for source in [URL(string: "https://verifier.example/request/1"), URL(string: "https://elsewhere.example/request/1"), nil] {
            let byDomain = try await verifier().verify(object, fetchedFrom: source, expectedClientId: nil, at: now)
            #expect(byDomain.verifiedBy == .domain && byDomain.verifierName == "verifier.example", "\(String(describing: source))")
        }
        let byHash = try await verifier().verify(try pki.requestObject(issuedAt: now), fetchedFrom: nil, expectedClientId: nil, at: now)
        #expect(byHash.verifiedBy == .domain && byHash.verifierName == "verifier.example")
        // Required trust: the domain is not enough.
        #expect(await Self.code { try await verifier(required: true).verify(object, fetchedFrom: URL(string: "https://verifier.example/r"),
                                                                expectedClientId: nil, at: now) } == .verifierUntrusted)
        // x509_san_dns without a trusted chain: the response must go to that host (OpenID4VP 1.0 §5.9.3).
        let elsewhere = try pki.requestObject(clientId: "x509_san_dns:verifier.example", responseUri: "https://collector.example/r", issuedAt: now)
        #expect(await Self.code { try await verifier().verify(elsewhere, fetchedFrom: URL(string: "https://verifier.example/r"),
                                                  expectedClientId: nil, at: now) } == .clientIdMismatch)
        // Trusted, the same request is verified by certificate whatever the host of its response_uri.
        #expect(try await verifier(trusting: [pki.ca]).verify(elsewhere, fetchedFrom: nil, expectedClientId: nil, at: now).verifiedBy == .certificate)
    }

    @Test func anUntrustedRequestWhoseCertificateNamesNothingOfTheResponseIsVerifiedByNone() async throws {
        // x509_hash: the key is named, but the response goes to a host the certificate does not name.
        let elsewhere = try pki.requestObject(responseUri: "https://collector.example/r", issuedAt: now)
        let request = try await verifier().verify(elsewhere, fetchedFrom: nil, expectedClientId: nil, at: now)
        #expect(request.verifiedBy == VerifierTrust.none && request.responseUri.host == "collector.example")
        #expect(request.verifierName == "collector.example")
        // The leaf past its notAfter (the request itself honest at that time): named by its hash only, so none.
        let later = now.addingTimeInterval(91 * 86_400)
        let expired = try pki.requestObject(issuedAt: later)
        #expect(try await verifier().verify(expired, fetchedFrom: nil, expectedClientId: nil, at: later).verifiedBy == VerifierTrust.none)
        // Required trust refuses both.
        #expect(await Self.code { try await verifier(required: true).verify(elsewhere, fetchedFrom: nil, expectedClientId: nil, at: now) } == .verifierUntrusted)
        // Signed by another key than the one its client id names: refused whatever the trust asked.
        let forged = try pki.requestObject(issuedAt: now, signer: P256.Signing.PrivateKey())
        #expect(await Self.code { try await verifier().verify(forged, fetchedFrom: nil, expectedClientId: nil, at: now) } == .requestSignatureInvalid)
    }

    @Test func refusalsAreNamed() async throws {
        let trusting = verifier(trusting: [pki.ca])
        let cases: [(String, () async throws -> AuthorizationRequest, HoldfastErrorCode)] = [
            ("signed by another key", { try await trusting.verify(try pki.requestObject(issuedAt: now, signer: P256.Signing.PrivateKey()),
                                                             fetchedFrom: nil, expectedClientId: nil, at: now) }, .requestSignatureInvalid),
            ("x509_hash of another certificate", { try await trusting.verify(try pki.requestObject(clientId: "x509_hash:AAAA", issuedAt: now),
                                                                        fetchedFrom: nil, expectedClientId: nil, at: now) }, .clientIdMismatch),
            ("x509_san_dns not in the SAN", { try await trusting.verify(try pki.requestObject(clientId: "x509_san_dns:other.example", issuedAt: now),
                                                                   fetchedFrom: nil, expectedClientId: nil, at: now) }, .clientIdMismatch),
            ("client_id unlike the URI's", { try await trusting.verify(try pki.requestObject(issuedAt: now), fetchedFrom: nil,
                                                                  expectedClientId: "x509_hash:other", at: now) }, .clientIdMismatch),
            ("expired", { try await trusting.verify(try pki.requestObject(issuedAt: now.addingTimeInterval(-400)), fetchedFrom: nil,
                                               expectedClientId: nil, at: now) }, .requestExpired),
            ("from the future", { try await trusting.verify(try pki.requestObject(issuedAt: now.addingTimeInterval(120)), fetchedFrom: nil,
                                                       expectedClientId: nil, at: now) }, .requestExpired),
            ("another typ", { try await trusting.verify(try pki.requestObject(issuedAt: now, typ: "dpop+jwt"), fetchedFrom: nil,
                                                   expectedClientId: nil, at: now) }, .requestInvalid),
            ("plain direct_post", { try await trusting.verify(try pki.requestObject(issuedAt: now, extra: ["response_mode": .string("direct_post")]),
                                                         fetchedFrom: nil, expectedClientId: nil, at: now) }, .requestUnsupported),
            ("no nonce", { try await trusting.verify(try pki.requestObject(issuedAt: now, extra: ["nonce": .string("")]),
                                                fetchedFrom: nil, expectedClientId: nil, at: now) }, .requestInvalid),
            ("an unknown client id prefix", { try await trusting.verify(try pki.requestObject(clientId: "redirect_uri:https://verifier.example", issuedAt: now),
                                                                   fetchedFrom: nil, expectedClientId: nil, at: now) }, .requestUnsupported),
            ("a query by scope", { try await trusting.verify(try pki.requestObject(issuedAt: now, extra: ["scope": .string("org.iso.18013.5.1.mDL")]),
                                                        fetchedFrom: nil, expectedClientId: nil, at: now) }, .requestUnsupported),
            ("a presentation definition by reference", { try await trusting.verify(try pki.requestObject(issuedAt: now, extra: [
                "presentation_definition_uri": .string("https://verifier.example/pd/1")]), fetchedFrom: nil, expectedClientId: nil, at: now) },
             .requestUnsupported),
            ("no mso_mdoc credential", { try await trusting.verify(try pki.requestObject(issuedAt: now, extra: ["dcql_query": .object(["credentials": .array([
                .object(["id": .string("pid"), "format": .string("dc+sd-jwt")])])])]), fetchedFrom: nil, expectedClientId: nil, at: now) },
             .requestUnsupported),
        ]
        for (name, body, code) in cases {
            #expect(await Self.code(body) == code, "\(name)")
        }
    }

    /// docs/sdk.md "Holder: presentation": a verifier whose certificate nothing anchors does not get to name itself. A
    /// self-signed leaf claiming bank.example, named by its hash, sends the response to evil.example: `.none`, and
    /// the name shown is evil.example.
    @Test func anUnanchoredVerifierIsNamedByTheHostOfItsResponseURI() async throws {
        let validity = (now.addingTimeInterval(-3_600), now.addingTimeInterval(90 * 86_400))
        let leaf = try TestPKI.mint("Bank", issuer: nil, validity: validity, constraints: nil, keyUsage: KeyUsage(digitalSignature: true),
                                    usages: nil, dnsName: "bank.example")
        let hash = "x509_hash:" + Base64URL.encode(SHA256.hash(data: leaf.der))
        let object = try pki.requestObject(clientId: hash, responseUri: "https://evil.example/r", issuedAt: now, signer: leaf.key, chain: [leaf.der])
        for source in [nil, URL(string: "https://bank.example/request/1"), URL(string: "https://evil.example/request/1")] {
            let request = try await verifier().verify(object, fetchedFrom: source, expectedClientId: hash, at: now)
            #expect(request.verifiedBy == VerifierTrust.none && request.verifierName == "evil.example", "\(String(describing: source))")
        }
        // The same leaf trusted (pinned): verified by its certificate, and then its own name is believed.
        let pinned = try await verifier(trusting: [leaf.certificate], required: true).verify(object, fetchedFrom: nil, expectedClientId: hash, at: now)
        #expect(pinned.verifiedBy == .certificate && pinned.verifierName == "bank.example")
    }

    /// OpenID4VP 1.0 §5.1: a wallet that does not support `transaction_data` MUST refuse a request carrying it. A
    /// request honest in every other way (accepted without it) asks to authorise one SCA payment: REQUEST_UNSUPPORTED,
    /// naming the parameter and its type.
    @Test func aRequestWithTransactionDataIsRefused() async throws {
        let trusting = verifier(trusting: [pki.ca], required: true)
        _ = try await trusting.verify(try pki.requestObject(issuedAt: now), fetchedFrom: nil, expectedClientId: nil, at: now)
        let payment: JSONValue = .object([
            "type": .string("urn:eudi:sca:payment:1"), "credential_ids": .array([.string("mdl")]),
            "payload": .object(["transaction_id": .string("tx-1"), "amount": .string("1250.00"), "currency": .string("EUR"),
                                "payee": .object(["name": .string("Merchant"), "id": .string("DE89370400440532013000")])]),
        ])
        let entry = Base64URL.encode(try JSONEncoder().encode(payment))
        let object = try pki.requestObject(issuedAt: now, extra: ["transaction_data": .array([.string(entry)])])
        let error = await Self.error { try await trusting.verify(object, fetchedFrom: nil, expectedClientId: nil, at: now) }
        #expect(error?.code == .requestUnsupported, "\(String(describing: error))")
        #expect(error?.message.contains("transaction_data") == true && error?.message.contains("urn:eudi:sca:payment:1") == true,
                "\(String(describing: error))")
        // Without required trust too: no verifier gets its transaction shown as a plain presentation.
        #expect(await Self.code { try await verifier().verify(object, fetchedFrom: nil, expectedClientId: nil, at: now) } == .requestUnsupported)
        // An entry that cannot be read is refused the same way.
        let unreadable = try pki.requestObject(issuedAt: now, extra: ["transaction_data": .array([.string("not-json")])])
        #expect(await Self.code { try await trusting.verify(unreadable, fetchedFrom: nil, expectedClientId: nil, at: now) } == .requestUnsupported)
    }

    /// ISO/IEC TS 18013-7:2024 requests: a bare host with client_id_scheme, and a presentation_definition.
    @Test func a2024RequestIsRead() async throws {
        let definition: JSONValue = .object(["id": .string("pd-1"), "input_descriptors": .array([.object([
            "id": .string("org.iso.18013.5.1.mDL"),
            "constraints": .object(["fields": .array([
                .object(["path": .array([.string("$['org.iso.18013.5.1']['family_name']")]), "intent_to_retain": .bool(true)]),
                .object(["path": .array([.string("$['org.iso.18013.5.1']['age_over_18']")]), "intent_to_retain": .bool(false)]),
            ])]),
        ])])])
        let object = try pki.requestObject(clientId: "verifier.example", issuedAt: now, extra: [
            "client_id_scheme": .string("x509_san_dns"), "presentation_definition": definition, "dcql_query": .null,
            "client_metadata": .object([
                "jwks": .object(["keys": .array([.object(["kty": .string("EC"), "crv": .string("P-256"), "use": .string("enc"), "kid": .string("k"),
                                                          "x": .string(JWK(publicKey: P256.KeyAgreement.PrivateKey().publicKey).x ?? ""),
                                                          "y": .string(JWK(publicKey: P256.KeyAgreement.PrivateKey().publicKey).y ?? "")])])]),
                "authorization_encrypted_response_alg": .string("ECDH-ES"), "authorization_encrypted_response_enc": .string("A256GCM"),
            ]),
        ], typ: nil)
        let request = try await verifier(trusting: [pki.ca]).verify(object, fetchedFrom: nil, expectedClientId: "verifier.example", at: now)
        #expect(request.presentationProtocol == .iso18013_7 && request.contentEncryption == .a256gcm)
        #expect(request.requests.first?.namespaces == ["org.iso.18013.5.1": ["family_name": true, "age_over_18": false]])
    }

    // MARK: requests written by others (../shared/vectors/oid4vp)

    static func vector(_ name: String) throws -> [String: JSONValue] {
        // The shared folder as every test finds it (HOLDFAST_SHARED_DIR, else ../shared beside the package).
        return try #require(try JSONDecoder().decode(JSONValue.self, from: TestEnvironment.vector("oid4vp/\(name)")).objectValue)
    }

    /// The Funke request object: signed by its x5c leaf (SAN funke-wallet.de), whose issuer, the German Registrar,
    /// signs the verifier attestation it carries; its only credential is an SD-JWT, which this SDK does not present.
    /// The registrar's certificate is a v3 certificate without basicConstraints, which RFC 5280 §4.2.1.9 does not let
    /// verify certificate signatures: trusting it does not make the leaf trusted (docs/security.md "Certificate paths");
    /// pinning the leaf itself does.
    @Test func theFunkeRequestObjectVerifiesUpToItsQuery() async throws {
        let compact = try #require(try Self.vector("funke-signed-request-object.json")["requestObjectJws"]?.stringValue)
        let payload = try JSONDecoder().decode(JSONValue.self, from: Data(try JWS(compactSerialization: compact).payload))
        let attestation = try #require(payload.objectValue?["verifier_attestations"]?.arrayValue?.first?.objectValue?["data"]?.stringValue)
        let registrar = try Certificate(derEncoded: try #require(try JWS(compactSerialization: attestation).header.x5c()?.first))
        let at = Date(timeIntervalSince1970: 1_746_538_200)
        let underRegistrar = await Self.error {
            try await AuthorizationRequestVerifier(trustedCertificates: [registrar], requireTrustedVerifier: true)
                .verify(compact, fetchedFrom: nil, expectedClientId: "x509_san_dns:funke-wallet.de", at: at)
        }
        #expect(underRegistrar?.code == .verifierUntrusted && underRegistrar?.message.contains("CERT_ISSUER_NOT_CA") == true,
                "\(String(describing: underRegistrar))")
        let leaf = try Certificate(derEncoded: try #require(try JWS(compactSerialization: compact).header.x5c()?.first))
        let trusted = AuthorizationRequestVerifier(trustedCertificates: [leaf], requireTrustedVerifier: true)
        let error = await Self.error { try await trusted.verify(compact, fetchedFrom: nil, expectedClientId: "x509_san_dns:funke-wallet.de", at: at) }
        #expect(error?.code == .requestUnsupported && error?.message.contains("no mso_mdoc") == true, "\(String(describing: error))")
        #expect(await Self.code { try await AuthorizationRequestVerifier(trustedCertificates: [], requireTrustedVerifier: true)
            .verify(compact, fetchedFrom: nil, expectedClientId: nil, at: at) } == .verifierUntrusted)
        #expect(await Self.code { try await trusted.verify(compact, fetchedFrom: nil, expectedClientId: nil, at: Date(timeIntervalSince1970: 1_746_538_484 + 61)) }
            == .requestExpired)
        var parts = compact.split(separator: ".").map(String.init)
        parts[2] = (parts[2].hasPrefix("A") ? "B" : "A") + parts[2].dropFirst()
        #expect(await Self.code { try await trusted.verify(parts.joined(separator: "."), fetchedFrom: nil, expectedClientId: nil, at: at) } == .requestSignatureInvalid)
    }

    /// The A-SIT request (x509_san_dns:localhost; the SAN also lists the prefixed name) asks for an mDL by DCQL but
    /// answers over the Digital Credentials API (`dc_api`), which this SDK does not use.
    @Test func theASITRequestIsReadAndItsResponseModeRefused() async throws {
        let vector = try Self.vector("asit-dcapi-signed-request-and-annex-c-request.json")
        let compact = try #require(vector["signedRequestJws"]?.stringValue)
        let leaf = try Certificate(derEncoded: try #require(try JWS(compactSerialization: compact).header.x5c()?.first))
        let at = Date(timeIntervalSince1970: 1_740_000_000)
        let error = await Self.error { try await AuthorizationRequestVerifier(trustedCertificates: [leaf], requireTrustedVerifier: true)
            .verify(compact, fetchedFrom: nil, expectedClientId: nil, at: at) }
        #expect(error?.code == .requestUnsupported && error?.message.contains("dc_api") == true, "\(String(describing: error))")
        let payload = try #require(vector["signedRequestDecoded"]?.objectValue?["payload"]?.objectValue)
        let (requests, requirements) = try RequestQuery.requests(RequestObject(claims: payload))
        #expect(requirements.credentials.map(\.docType) == requests.map(\.docType))
        #expect(requests.first?.docType == "org.iso.18013.5.1.mDL")
        #expect(requests.first?.namespaces["org.iso.18013.5.1"]?["family_name"] == false)
    }

    @Test func authorizationRequestURIsNeedARequestURIOrARequest() async throws {
        let parsed = try AuthorizationRequestVerifier.parameters(of: "openid4vp://?client_id=x509_hash%3Aabc&request_uri=https%3A%2F%2Fverifier.example%2Fr%2F1")
        #expect(parsed.clientId == "x509_hash:abc" && parsed.source == .reference(URL(string: "https://verifier.example/r/1")!))
        #expect(await Self.code { try AuthorizationRequestVerifier.parameters(of: "openid4vp://?client_id=a&request_uri=http%3A%2F%2Fverifier.example%2Fr") }
            == .requestInvalid)
        // RFC 9101 §5.1: the request object by value.
        #expect(try AuthorizationRequestVerifier.parameters(of: "openid4vp://?client_id=a&request=eyJ").source == .value("eyJ"))
        // Not both (RFC 9101 §5); and the request's members unsigned in the URI are refused.
        #expect(await Self.code { try AuthorizationRequestVerifier.parameters(
            of: "openid4vp://?client_id=a&request=eyJ&request_uri=https%3A%2F%2Fverifier.example%2Fr%2F1") } == .requestInvalid)
        #expect(await Self.code { try AuthorizationRequestVerifier.parameters(of: "openid4vp://?client_id=a&dcql_query=%7B%7D") } == .requestUnsupported)
    }

    static func error<T>(_ body: () async throws -> T) async -> HoldfastError? {
        do { _ = try await body(); return nil } catch let error as HoldfastError { return error } catch { return nil }
    }

    static func code<T>(_ body: () async throws -> T) async -> HoldfastErrorCode? { await error(body)?.code }
}
