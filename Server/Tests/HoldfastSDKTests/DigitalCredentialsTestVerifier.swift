import CBOR
import COSE
import Crypto
import DigitalCredentials
import Foundation
import HoldfastProtocol
@testable import HoldfastSDK
import JOSE
import MDoc
import OpenID4VP
import Testing
import X509

/// A page at https://shop.example and its verifier as a wallet meets them through the W3C Digital Credentials API:
/// it writes requests in each protocol as the tenant's verifier does (OpenID4VP 1.0 Appendix A signed by a test
/// request-signer PKI, or unsigned; ISO/IEC TS 18013-7 Annex C with a reader key and certificate), and opens and
/// checks the wallet's answers the way a verifier must (ISO/IEC 18013-5 §9.3.1 over the protocol's SessionTranscript
/// for this origin).
struct DigitalCredentialsTestVerifier {
    static let origin = "https://shop.example"
    static let nonce = "nonce-dc-1"
    let pki: TestVerifierPKI
    let issuerIACA: Certificate
    /// The response encryption key: OpenID4VP's `client_metadata.jwks`, Annex C's `recipientPublicKey`.
    let encryptionKey = P256.KeyAgreement.PrivateKey()

    init(issuerIACA: Certificate, at now: Date) throws {
        pki = try TestVerifierPKI(host: "shop.example", at: now)
        self.issuerIACA = issuerIACA
    }

    var encryptionJWK: JWK { JWK(publicKey: encryptionKey.publicKey, kid: "enc-1", use: "enc", alg: "ECDH-ES") }

    // MARK: OpenID4VP 1.0 Appendix A

    /// The request parameters of Appendix A.2 (`dc_api.jwt`, a DCQL query for family_name of `docType`).
    func parameters(docType: String = FakeIssuer.docType, enc: [String] = ["A128GCM"]) throws -> [String: JSONValue] {
        let jwks = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(JWKSet(keys: [encryptionJWK])))
        return [
            "response_type": .string("vp_token"), "response_mode": .string("dc_api.jwt"), "nonce": .string(Self.nonce),
            "client_metadata": .object(["jwks": jwks, "encrypted_response_enc_values_supported": .array(enc.map(JSONValue.string)),
                                        "vp_formats_supported": .object(["mso_mdoc": .object([:])])]),
            "dcql_query": .object(["credentials": .array([.object([
                "id": .string("licence"), "format": .string("mso_mdoc"), "meta": .object(["doctype_value": .string(docType)]),
                "claims": .array([.object(["path": .array([.string("org.iso.18013.5.1"), .string("family_name")]), "intent_to_retain": .bool(true)])]),
            ])])]),
        ]
    }

    /// `{protocol: "openid4vp-v1-signed", data: {request}}`, the request object signed by `signer` (the PKI's leaf
    /// key unless given) with `x5c` [leaf, CA].
    func signedRequest(expectedOrigins: [String] = [origin], clientId: String? = nil, issuedAt: Date, lifetime: TimeInterval = 300,
                       signer: P256.Signing.PrivateKey? = nil, docType: String = FakeIssuer.docType) throws -> Data {
        var members = try parameters(docType: docType)
        members["expected_origins"] = .array(expectedOrigins.map(JSONValue.string))
        // Appendix A.2: no response_uri, state or aud through the API.
        for absent in ["response_uri", "state", "aud"] { members[absent] = .null }
        let jws = try pki.requestObject(clientId: clientId, issuedAt: issuedAt, lifetime: lifetime, extra: members, signer: signer)
        return Data(try OpenID4VPDCAPIRequest.signed(requestObject: jws).request.jsonBytes())
    }

    /// `{protocol: "openid4vp-v1-unsigned", data: {…parameters}}`.
    func unsignedRequest() throws -> Data {
        Data(try OpenID4VPDCAPIRequest.unsigned(parameters: try parameters()).request.jsonBytes())
    }

    /// Appendix B.2.6.2 for `origin`, the thumbprint computed here from the JWK (RFC 7638).
    func openID4VPTranscript(origin: String = origin) throws -> SessionTranscript {
        SessionTranscript.openID4VPDCAPI(origin: origin, nonce: Self.nonce, jwkThumbprint: Base64URL.decode(try encryptionJWK.thumbprint()))
    }

    /// Opens an OpenID4VP answer: the JWE's protected header and its decrypted payload.
    func openOpenID4VP(_ answer: Data, protocol expected: DigitalCredentialProtocol) throws -> (header: JOSEHeader, payload: [String: JSONValue]) {
        let response = try DigitalCredentialResponse(json: Array(answer))
        #expect(response.protocol == expected)
        #expect(Set(response.data.keys) == ["response"])
        guard case .encrypted(let compact) = try OpenID4VPDCAPIResponse(response) else { throw TestFailure("the answer is not a JWE") }
        let jwe = try JWE(compactSerialization: compact)
        let payload = try #require(try JSONValue(json: try jwe.decrypt(with: encryptionKey)).objectValue)
        return (jwe.header, payload)
    }

    /// The DeviceResponses of an OpenID4VP payload's `vp_token` for the credential query `licence`.
    func deviceResponses(_ payload: [String: JSONValue]) throws -> [DeviceResponse] {
        let tokens = payload["vp_token"]?.objectValue?["licence"]?.arrayValue?.compactMap(\.stringValue) ?? []
        return try tokens.map { try DeviceResponse(decoding: try #require(Base64URL.decode($0))) }
    }

    // MARK: ISO/IEC TS 18013-7 Annex C

    /// An Annex C request for family_name of `docType`, with `readerAuth` signed over the transcript of `signedFor`
    /// by the PKI's leaf (x5chain [leaf, CA]) unless `readerAuth` is false.
    func annexCRequest(readerAuth: Bool = true, signedFor: String = origin, docType: String = FakeIssuer.docType) throws -> AnnexCRequest {
        let info = try EncryptionInfo(recipientPublicKey: encryptionKey.publicKey)
        let items = [ItemsRequest(docType: docType, nameSpaces: [.init("org.iso.18013.5.1", elements: [.init("family_name", intentToRetain: true)])])]
        guard readerAuth else { return AnnexCRequest(itemsRequests: items, encryptionInfo: info) }
        return try AnnexCRequest(itemsRequests: items, encryptionInfo: info, origin: signedFor, readerSigner: COSESigningKey.p256(pki.leafKey),
                                 certificateChain: [pki.leafDER, pki.caDER])
    }

    /// Opens an Annex C answer with the transcript of `request` for `origin` and reads its DeviceResponse.
    func openAnnexC(_ answer: Data, request: AnnexCRequest, origin: String = origin) throws -> DeviceResponse {
        let response = try DigitalCredentialResponse(json: Array(answer))
        #expect(response.protocol == .orgIsoMdoc)
        let sealed = try AnnexCResponse(response).encryptedResponse
        let plaintext = try AnnexCEncryption.open(sealed, recipientKey: encryptionKey, sessionTranscript: request.sessionTranscript(origin: origin))
        return try DeviceResponse(decoding: plaintext)
    }

    // MARK: the documents

    /// Each document verified (issuer chain, digests, validity, device signature over `transcript`): docType →
    /// namespace → the elements disclosed.
    func verify(_ response: DeviceResponse, transcript: SessionTranscript, at now: Date) async throws -> [String: [String: Set<String>]] {
        var verified: [String: [String: Set<String>]] = [:]
        for document in response.documents {
            _ = try await MDocVerifier(trust: IssuerTrust(iacas: [issuerIACA])).verify(document, sessionTranscript: transcript, at: now)
            verified[document.docType] = Dictionary(uniqueKeysWithValues: document.issuerSigned.nameSpaces.map {
                ($0.name, Set($0.items.map(\.elementIdentifier)))
            })
        }
        return verified
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
