import Crypto
import DigitalCredentials
import Foundation
import HoldfastProtocol
import JOSE
import MDoc
import OpenID4VP

extension Presentations {
    /// Reads and verifies a request of the W3C Digital Credentials API the platform handed the app (docs/sdk.md
    /// "Digital Credentials API"): `request` is one `{protocol, data}`, the `digital` member `{requests}` or the whole
    /// `{digital}` object, of which the first request in a protocol this SDK speaks is taken; `origin` is the calling
    /// page's origin as the platform reports it. Then the stored credentials are matched as for online presentation.
    public func createDigitalCredentialsPresentationSession(request: Data, origin: String, requireTrustedVerifier: Bool = false,
                                                            unknownStatusPolicy: UnknownStatusPolicy = .allowWithWarning)
        async throws(HoldfastError) -> DigitalCredentialsPresentationSession {
        // docs/sdk.md "Holder: the offline limit".
        try await credentials.tethering.requireWithinOfflineLimit()
        let trusted = try await trustedVerifiers.certificates().map(\.certificate)
        let reader = DigitalCredentialsRequestReader(trustedCertificates: trusted, requireTrustedVerifier: requireTrustedVerifier)
        let verified = try await reader.read(Array(request), origin: origin, at: seams.clock.now())
        let matches = try await match(verified.requests, requirements: verified.requirements, unknownStatusPolicy: unknownStatusPolicy)
        return DigitalCredentialsPresentationSession(request: verified, matchedCredentials: matches, presentations: self)
    }
}

/// One answer to one page through the Digital Credentials API (docs/sdk.md "Digital Credentials API"): what it
/// asks, what matches, then the answer the app hands back to the platform — `{protocol, data}` JSON, no HTTP. A
/// session answers once.
public actor DigitalCredentialsPresentationSession {
    /// ISO/IEC 18013-5 §8.3.2.1.2.3 status of the DeviceResponse an Annex C decline is: 10, "General error: the mdoc
    /// returns an error without any given reason" — the only status of that table for an answer the mdoc withholds
    /// (11 and 12 are decoding errors; 20 is SessionData's "session termination" (Table 20), not a DeviceResponse
    /// status). It tells the page nothing beyond "no", as `access_denied` does for OpenID4VP.
    public static let declinedDeviceResponseStatus: UInt64 = 10

    public nonisolated let request: DigitalCredentialsRequest
    public nonisolated let matchedCredentials: [MatchedCredentials]
    let presentations: Presentations
    private var answered = false

    init(request: DigitalCredentialsRequest, matchedCredentials: [MatchedCredentials], presentations: Presentations) {
        self.request = request
        self.matchedCredentials = matchedCredentials
        self.presentations = presentations
    }

    /// When no stored credential answers any of the requests: the `CREDENTIAL_NOT_FOUND` error naming what is
    /// missing (as online presentation); nil when some request has a match. The app then answers `declineRequest()`.
    public nonisolated var credentialNotFound: HoldfastError? {
        matchedCredentials.credentialNotFound(asker: request.verifierName ?? request.origin)
    }

    /// The answer holding the chosen credentials, each with only the requested elements and signed with its own
    /// device key over the protocol's SessionTranscript for this origin: OpenID4VP 1.0 Appendix A (`dc_api.jwt`):
    /// `{protocol, data: {response: <JWE>}}`, the JWE (ECDH-ES to the request's key) holding `{vp_token: {<credential
    /// query id>: [<base64url DeviceResponse>]}}` over `OpenID4VPDCAPIHandover` (Appendix B.2.6.2); Annex C:
    /// `{protocol: "org-iso-mdoc", data: {response: base64url(EncryptedResponse)}}`, one DeviceResponse sealed with
    /// HPKE over the `dcapi` SessionTranscript.
    public func sendResponse(credentialIds: [String]) async throws(HoldfastError) -> Data {
        guard !answered else { throw HoldfastError(.validationFailed, "this session has answered already") }
        try await presentations.credentials.tethering.requireWithinOfflineLimit()
        let chosen = try matchedCredentials.chosen(credentialIds)
        let answer: DigitalCredentialResponse
        switch request.answer {
        case .openID4VP(let nonce, let key, let encryption):
            let thumbprint: [UInt8]
            do { thumbprint = Array(SHA256.hash(data: try key.thumbprintInput())) } catch {
                throw HoldfastError(.requestUnsupported, "the verifier's encryption key has no RFC 7638 thumbprint: \(error)")
            }
            let transcript = SessionTranscript.openID4VPDCAPI(origin: request.origin, nonce: nonce, jwkThumbprint: thumbprint)
            let documents = try await presentations.documents(chosen, sessionTranscript: transcript)
            let vpToken = JSONValue.object(Dictionary(uniqueKeysWithValues: documents.map {
                ($0.requestId, JSONValue.array([.string(Base64URL.encode(DeviceResponse(documents: [$0.document]).encoded()))]))
            }))
            answer = try Self.encrypted(AuthorizationResponse(vpToken: vpToken), protocol: request.protocol, key: key, encryption: encryption)
        case .annexC(let annexC):
            let documents = try await presentations.documents(chosen, sessionTranscript: annexC.sessionTranscript(origin: request.origin))
            answer = try Self.sealed(DeviceResponse(documents: documents.map(\.document)), to: annexC, origin: request.origin)
        }
        answered = true
        return try Self.json(answer)
    }

    /// The answer that says the person declined: OpenID4VP 1.0 §8.5 `{error: "access_denied"}` inside the JWE, as a
    /// response is; Annex C a DeviceResponse without documents, status ``declinedDeviceResponseStatus``, sealed as
    /// a response is.
    public func declineRequest() async throws(HoldfastError) -> Data {
        guard !answered else { throw HoldfastError(.validationFailed, "this session has answered already") }
        let answer: DigitalCredentialResponse
        switch request.answer {
        case .openID4VP(_, let key, let encryption):
            answer = try Self.encrypted(AuthorizationResponse(error: OpenID4VPIdentifiers.accessDenied), protocol: request.protocol,
                                        key: key, encryption: encryption)
        case .annexC(let annexC):
            answer = try Self.sealed(DeviceResponse(documents: [], status: Self.declinedDeviceResponseStatus), to: annexC, origin: request.origin)
        }
        answered = true
        return try Self.json(answer)
    }

    /// OpenID4VP 1.0 §8.3: the response parameters as the JWE's payload, ECDH-ES to `key` (its `kid` in the header).
    private static func encrypted(_ response: AuthorizationResponse, protocol: DigitalCredentialProtocol, key: JWK,
                                  encryption: JWEContentEncryption) throws(HoldfastError) -> DigitalCredentialResponse {
        do {
            let jwe = try JWE.encrypt(plaintext: try response.payload(), to: key, encryption: encryption)
            return OpenID4VPDCAPIResponse.encrypted(jwe: jwe).response(protocol: `protocol`)
        } catch {
            throw HoldfastError(.requestUnsupported, "the answer cannot be encrypted to the verifier's key: \(error)")
        }
    }

    /// Annex C: `deviceResponse` sealed to the request's EncryptionInfo over the `dcapi` transcript of `origin`.
    private static func sealed(_ deviceResponse: DeviceResponse, to annexC: AnnexCRequest,
                               origin: String) throws(HoldfastError) -> DigitalCredentialResponse {
        do {
            let sealed = try AnnexCEncryption.seal(deviceResponse: deviceResponse.encoded(), to: annexC.encryptionInfo,
                                                   sessionTranscript: annexC.sessionTranscript(origin: origin))
            return AnnexCResponse(encryptedResponse: sealed).response
        } catch {
            throw HoldfastError(.requestUnsupported, "the answer cannot be encrypted to the request's EncryptionInfo: \(error)")
        }
    }

    private static func json(_ answer: DigitalCredentialResponse) throws(HoldfastError) -> Data {
        do { return Data(try answer.jsonBytes()) } catch { throw HoldfastError(.internalError, "the answer cannot be written: \(error)") }
    }
}
