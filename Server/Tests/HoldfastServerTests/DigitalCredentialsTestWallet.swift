import CBOR
import COSE
import Crypto
import DigitalCredentials
import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastServer
import Hummingbird
import HummingbirdTesting
import JOSE
import MDoc
import OpenID4VP
import Testing
import X509

/// The wallet's half of a `dc-api` session in tests (docs/server-api.md "Digital Credentials API"): an issuer (IACA →
/// document signer) the tenant is made to trust, one holder's mDL, and the answers a wallet hands its platform — an
/// OpenID4VP 1.0 Appendix A JWE to the request's key, or an ISO/IEC TS 18013-7 Annex C HPKE `EncryptedResponse` —
/// each made with the `DigitalCredentials` and `JOSE` functions a real wallet uses, over the transcript of the
/// origin the browser would report.
struct DigitalCredentialsTestWallet: Sendable, IssuedByTestMDocIssuer {
    static let docType = "org.iso.18013.5.1.mDL"
    static let space = "org.iso.18013.5.1"
    static let query = #"{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"family_name":true,"age_over_18":false}}}"#
    static let origin = "https://shop.example"

    let issuer: TestMDocIssuer
    let deviceKey = P256.Signing.PrivateKey()

    init() throws {
        issuer = try TestMDocIssuer("DC API")
    }

    /// The claims a verified answer shows.
    static let claims: [String: JSONValue] = ["family_name": .string("Doe"), "age_over_18": .bool(true)]

    /// A DeviceResponse with Jane Doe's mDL disclosing `elements`, device-signed over `transcript`.
    func deviceResponse(_ transcript: SessionTranscript, elements: Set<String> = ["family_name", "age_over_18"], status: UInt64 = 0) throws -> [UInt8] {
        guard status == 0 else { return DeviceResponse(documents: [], status: status).encoded() }
        let issued = try MDocIssuer(signer: COSESigningKey.p256(signerKey), certificateChain: [try MDocCertificates.der(signer)]).issue(
            docType: Self.docType,
            nameSpaces: [.init(name: Self.space, elements: [("family_name", .text("Doe")), ("age_over_18", .bool(true)), ("portrait", .bytes([0xFF, 0xD8]))])],
            deviceKey: COSEKey(publicKey: deviceKey.publicKey), validity: .init(signed: now - 60, validFrom: now - 60, validUntil: now + 30 * 86_400))
        let document = Document(docType: Self.docType, issuerSigned: issued.disclosing([Self.space: elements]),
                                deviceSigned: try DeviceSigned.sign(docType: Self.docType, sessionTranscript: transcript,
                                                                    signer: COSESigningKey.p256(deviceKey)))
        return DeviceResponse(documents: [document]).encoded()
    }

    // MARK: the requests as a wallet reads them

    /// OpenID4VP 1.0 Appendix A.3: the request parameters (the signed request object's payload, or the unsigned data).
    static func parameters(_ request: DigitalCredentialsSessionCreated.Request) throws -> [String: JSONValue] {
        if request.protocol == "openid4vp-v1-signed" {
            let jws = try JWS(compactSerialization: try #require(request.data["request"]?.stringValue))
            return try #require(try JSONValue(json: jws.payload).objectValue)
        }
        return request.data
    }

    /// The request's response encryption key (`client_metadata.jwks.keys[0]`).
    static func encryptionKey(_ parameters: [String: JSONValue]) throws -> JWK {
        let key = try #require(parameters["client_metadata"]?.objectValue?["jwks"]?.objectValue?["keys"]?.arrayValue?.first)
        return try JSONDecoder().decode(JWK.self, from: Data(try key.jsonBytes()))
    }

    /// OpenID4VP 1.0 B.2.6.2: the transcript of the request for the page at `origin`.
    static func openID4VPTranscript(_ parameters: [String: JSONValue], origin: String) throws -> SessionTranscript {
        let handover = try OpenID4VPDCAPIHandover(origin: origin, nonce: try #require(parameters["nonce"]?.stringValue),
                                                  encryptionKey: try encryptionKey(parameters))
        return SessionTranscript(handover: handover.cbor)
    }

    // MARK: answers

    /// The `{protocol, data}` a wallet hands back for an OpenID4VP request: `payload` encrypted to the request's key.
    static func encrypted(_ request: DigitalCredentialsSessionCreated.Request, payload: JSONValue,
                          encryption: JWEContentEncryption = .a128gcm, apu: [UInt8]? = nil, apv: [UInt8]? = nil) throws -> JSONValue {
        let jwe = try JWE.encrypt(plaintext: try payload.jsonBytes(), to: try encryptionKey(try parameters(request)), encryption: encryption,
                                  partyUInfo: apu, partyVInfo: apv)
        return .object(["protocol": .string(request.protocol), "data": .object(["response": .string(jwe)])])
    }

    /// An OpenID4VP answer with the mDL device-signed for `origin`.
    func openID4VPAnswer(_ request: DigitalCredentialsSessionCreated.Request, origin: String = Self.origin,
                         encryption: JWEContentEncryption = .a128gcm, apu: [UInt8]? = nil, apv: [UInt8]? = nil) throws -> JSONValue {
        let transcript = try Self.openID4VPTranscript(try Self.parameters(request), origin: origin)
        let token: JSONValue = .object(["credential": .array([.string(Base64URL.encode(try deviceResponse(transcript)))])])
        return try Self.encrypted(request, payload: .object(["vp_token": token]), encryption: encryption, apu: apu, apv: apv)
    }

    /// An Annex C answer: `deviceResponse` (made over the transcript) sealed with HPKE for the page at `origin`.
    func annexCAnswer(_ request: DigitalCredentialsSessionCreated.Request, origin: String = Self.origin, status: UInt64 = 0,
                      tamper: Bool = false) throws -> JSONValue {
        let annexC = try AnnexCRequest(data: request.data)
        let transcript = annexC.sessionTranscript(origin: origin)
        var sealed = try AnnexCEncryption.seal(deviceResponse: try deviceResponse(transcript, status: status), to: annexC.encryptionInfo,
                                               sessionTranscript: transcript)
        if tamper {
            var cipherText = sealed.cipherText
            cipherText[cipherText.count / 2] ^= 0x01
            sealed = try EncryptedResponse(enc: sealed.enc, cipherText: cipherText)
        }
        return AnnexCResponse(encryptedResponse: sealed).response.jsonValue
    }

    // MARK: the tenant

    /// Makes the tenant trust this issuer's IACA.
    func trust(_ kit: ServerTestKit) async throws {
        let pem = try iaca.serializeAsPEM().pemString
        let body = String(decoding: try JSONValue.object(["certificatePem": .string(pem)]).jsonBytes(), as: UTF8.self)
        let added = try await kit.admin(PresentationAdminRoutes.Template.trustedIssuers, .post, body)
        try #require(added.status == .created, "\(added.text)")
    }

    /// `POST /v2/presentations/sessions` with `protocol: "dc-api"` and `dcApi` as given (JSON text).
    static func create(_ kit: ServerTestKit, dcApi: String, query: String = Self.query, extra: String = "") async throws -> TestResponse {
        try await kit.admin(PresentationRoutes.Template.sessions, .post, #"{"protocol":"dc-api","query":\#(query),"dcApi":\#(dcApi)\#(extra)}"#)
    }

    static func created(_ kit: ServerTestKit, dcApi: String, query: String = Self.query, extra: String = "") async throws -> DigitalCredentialsSessionCreated {
        let response = try await create(kit, dcApi: dcApi, query: query, extra: extra)
        try #require(response.status == .created, "\(response.status) \(response.text)")
        return try response.decode(DigitalCredentialsSessionCreated.self)
    }

    /// `POST …/dc-api-response` with `answer` (public: no key).
    static func answer(_ kit: ServerTestKit, _ sessionId: String, _ answer: JSONValue) async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return try await kit.client.execute(uri: PresentationRoutes.dcAPIResponse(sessionId: sessionId), method: .post, headers: headers,
                                            body: ByteBuffer(bytes: try answer.jsonBytes()))
    }

    /// Answers and reads the result once with the `responseCode`.
    static func answered(_ kit: ServerTestKit, _ sessionId: String, _ answer: JSONValue) async throws -> PresentationResult {
        let response = try await Self.answer(kit, sessionId, answer)
        try #require(response.status == .ok, "\(response.status) \(response.text)")
        let code = try response.decode(DigitalCredentialsAnswered.self).responseCode
        let result = try await kit.client.execute(uri: PresentationRoutes.result(sessionId: sessionId) + "?response_code=" + code, method: .get)
        try #require(result.status == .ok, "\(result.text)")
        return try result.decode(PresentationResult.self)
    }

    /// The result, read with the admin key.
    static func result(_ kit: ServerTestKit, _ sessionId: String) async throws -> PresentationResult {
        try await kit.admin(PresentationRoutes.Template.result, ["sessionId": sessionId], .get).decode(PresentationResult.self)
    }

    static func request(_ created: DigitalCredentialsSessionCreated, _ protocolName: String) throws -> DigitalCredentialsSessionCreated.Request {
        try #require(created.digital.requests.first { $0.protocol == protocolName })
    }
}
