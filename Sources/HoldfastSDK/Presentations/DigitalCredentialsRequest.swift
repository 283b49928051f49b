import CertificatePath
import DigitalCredentials
import Foundation
import HoldfastProtocol
import JOSE
import MDoc
import OpenID4VP
import X509

/// A verified request of the W3C Digital Credentials API (docs/sdk.md "Digital Credentials API"): what a page
/// asks through `navigator.credentials.get`, handed to the app by the platform with the page's origin, in one of the
/// protocols browsers register — OpenID4VP 1.0 Appendix A (`openid4vp-v1-signed`, `openid4vp-v1-unsigned`) or
/// ISO/IEC TS 18013-7 (second edition) Annex C (`org-iso-mdoc`).
public struct DigitalCredentialsRequest: Sendable, Hashable {
    /// The protocol of the request answered (the first of the page's this SDK speaks).
    public var `protocol`: DigitalCredentialProtocol
    /// The origin of the calling page as the platform reports it (never one the request names).
    public var origin: String
    /// Who asks: for `.certificate` a name of the certificate that reached a trusted verifier certificate (the
    /// dNSName the client id was matched with; a reader certificate's dNSName or subject); otherwise the origin's
    /// host — an unanchored certificate does not get to name its holder.
    public var verifierName: String?
    public var verifiedBy: VerifierTrust
    /// The signed request object's `client_id` (`openid4vp-v1-signed` only).
    public var clientId: String?
    public var requests: [MobileCredentialRequest]
    /// What each request requires: a stored credential matches a request only when it holds that.
    public var requirements: PresentationRequirements
    /// The signed request object's `exp`, when it has one.
    public var expiresAt: Date?
    /// What the answer needs.
    let answer: Answer

    enum Answer: Sendable, Hashable {
        /// OpenID4VP 1.0 Appendix A: `dc_api.jwt`, encrypted to `key` with `encryption`; `nonce` for the transcript.
        case openID4VP(nonce: String, key: JWK, encryption: JWEContentEncryption)
        /// Annex C: sealed to the request's EncryptionInfo over the `dcapi` SessionTranscript.
        case annexC(AnnexCRequest)
    }
}

/// Reads and verifies a Digital Credentials API request for the page at `origin` (docs/sdk.md "Digital Credentials
/// API"):
/// - `openid4vp-v1-signed`: the request object's checks of online presentation (`AuthorizationRequestVerifier`:
///   signature by its `x5c` leaf, `client_id` naming that leaf, `iat`/`exp`, the chain to a trusted verifier
///   certificate), then `origin` ∈ `expected_origins` by exact string comparison (OpenID4VP 1.0 Appendix A.2,
///   `ORIGIN_NOT_EXPECTED`);
/// - `openid4vp-v1-unsigned`: nothing vouches for the verifier (`.none`, named by the origin's host);
/// - both: `response_type` `vp_token`, `response_mode` `dc_api.jwt`, a nonce, an EC P-256 encryption key, a query
///   with an `mso_mdoc` credential, nothing the wallet must honour and does not;
/// - `org-iso-mdoc`: the DeviceRequest and a well-formed `EncryptionInfo` with a P-256 key; the `readerAuth` of each
///   DocRequest verified over the Annex C SessionTranscript for `origin` (ISO/IEC 18013-5 §9.1.4) and its chain —
///   `.certificate` when every DocRequest is authenticated so and every chain reaches a trusted verifier certificate,
///   `.none` otherwise (a `readerAuth` that does not verify for this origin is no authentication; the request is
///   then treated as an unauthenticated one, which it could have been by leaving `readerAuth` out);
/// - with `requireTrustedVerifier` nothing but `.certificate` is accepted (`VERIFIER_UNTRUSTED`);
/// - a request in none of these protocols: `REQUEST_UNSUPPORTED`.
struct DigitalCredentialsRequestReader: Sendable {
    var trustedCertificates: [Certificate]
    var requireTrustedVerifier: Bool

    func read(_ json: [UInt8], origin: String, at now: Date) async throws(HoldfastError) -> DigitalCredentialsRequest {
        let offered: [DigitalCredentialRequest]
        do { offered = try DigitalCredentialRequestOptions.requests(fromJSON: json) } catch {
            throw Self.refusal(error, "the Digital Credentials API request")
        }
        guard let request = DigitalCredentialRequestOptions(requests: offered).firstSupported() else {
            throw HoldfastError(.requestUnsupported, "the request's protocols (\(offered.map(\.protocol.rawValue).joined(separator: ", "))) "
                                + "are none this SDK speaks (\(DigitalCredentialProtocol.all.map(\.rawValue).joined(separator: ", ")))")
        }
        guard let url = URL(string: origin), let scheme = url.scheme?.lowercased(), ["https", "http"].contains(scheme),
              let host = url.host, !host.isEmpty else {
            throw HoldfastError(.requestInvalid, "the origin \(origin) is not a web origin (https://host[:port])")
        }
        switch request.protocol {
        case .orgIsoMdoc:
            return try await annexC(request, origin: origin, host: host.lowercased(), at: now)
        case .openID4VPSigned, .openID4VPUnsigned:
            return try await openID4VP(request, origin: origin, host: host.lowercased(), at: now)
        default:
            throw HoldfastError(.requestUnsupported, "the protocol \(request.protocol) is not one this SDK speaks")
        }
    }

    // MARK: OpenID4VP 1.0 Appendix A

    private func openID4VP(_ request: DigitalCredentialRequest, origin: String, host: String,
                           at now: Date) async throws(HoldfastError) -> DigitalCredentialsRequest {
        let parsed: OpenID4VPDCAPIRequest
        do { parsed = try OpenID4VPDCAPIRequest(request) } catch { throw Self.refusal(error, "the \(request.protocol) request") }
        let members: [String: JSONValue]
        var trust = VerifierTrust.none
        var verifierName: String? = host
        var clientId: String?
        var expiresAt: Date?
        switch parsed {
        case .signed(let compact):
            let verifier = AuthorizationRequestVerifier(trustedCertificates: trustedCertificates, requireTrustedVerifier: requireTrustedVerifier)
            // The origin's host is the name an x509_hash verifier goes by when its leaf names it.
            let object = try await verifier.verifySignedObject(compact, fetchedFrom: URL(string: origin), expectedClientId: nil, at: now)
            guard object.presentationProtocol == .openID4VP else {
                throw HoldfastError(.requestUnsupported, "the request object's client id has no x509_hash or x509_san_dns prefix (OpenID4VP 1.0 §5.9.3)")
            }
            // OpenID4VP 1.0 Appendix A.2: REQUIRED in a signed request; the wallet compares the page's origin with each.
            guard case .array(let listed)? = object.members["expected_origins"] else {
                throw HoldfastError(.requestInvalid, "the signed request has no expected_origins array (OpenID4VP 1.0 Appendix A.2)")
            }
            let expected = listed.compactMap(\.stringValue)
            guard expected.contains(origin) else {
                throw HoldfastError(.originNotExpected, "the request was made for \(expected.joined(separator: ", ")), not for \(origin)")
            }
            members = object.members
            clientId = object.clientId
            expiresAt = object.expiresAt
            if object.pathFailure == nil {
                trust = .certificate
                verifierName = object.verifierName ?? host
            } else if object.dnsNames.contains(host), AuthorizationRequestVerifier.isValid(object.leaf, at: now) {
                // Not anchored, but the leaf names the page's host, where the answer goes (as `.domain` online).
                trust = .domain
            }
        case .unsigned(let parameters):
            if requireTrustedVerifier {
                throw HoldfastError(.verifierUntrusted, "an unsigned request cannot come from a trusted verifier")
            }
            members = parameters
        }
        let claims = RequestObject(claims: members)
        guard claims.responseType == OpenID4VPIdentifiers.vpTokenResponseType else {
            throw HoldfastError(.requestUnsupported, "response_type is not vp_token")
        }
        guard claims.responseMode == Self.encryptedResponseMode else {
            throw HoldfastError(.requestUnsupported, "response_mode \(claims.responseMode ?? "none") is not \(Self.encryptedResponseMode)")
        }
        try UnsupportedRequestParameter.refuse(members)
        guard let nonce = claims.nonce, !nonce.isEmpty else { throw HoldfastError(.requestInvalid, "the request has no nonce") }
        let (key, encryption) = try AuthorizationRequestVerifier.responseEncryption(claims)
        let (requests, requirements) = try RequestQuery.requests(claims)
        return DigitalCredentialsRequest(protocol: request.protocol, origin: origin, verifierName: verifierName, verifiedBy: trust,
                                         clientId: clientId, requests: requests, requirements: requirements, expiresAt: expiresAt,
                                         answer: .openID4VP(nonce: nonce, key: key, encryption: encryption))
    }

    /// OpenID4VP 1.0 Appendix A.4: the response encrypted to the verifier (§8.3).
    static let encryptedResponseMode = "dc_api.jwt"

    // MARK: ISO/IEC TS 18013-7 Annex C

    private func annexC(_ request: DigitalCredentialRequest, origin: String, host: String,
                        at now: Date) async throws(HoldfastError) -> DigitalCredentialsRequest {
        let annexC: AnnexCRequest
        do { annexC = try AnnexCRequest(request) } catch { throw Self.refusal(error, "the org-iso-mdoc request") }
        let read = try await DeviceRequestReading(docRequests: annexC.deviceRequest.docRequests, trustedCertificates: trustedCertificates,
                                                  at: now) { try annexC.verifyReaderAuthentication(origin: origin) }
        if read.verifiedBy != .certificate, requireTrustedVerifier {
            throw HoldfastError(.verifierUntrusted, "the request is not authenticated by a trusted verifier: \(read.untrusted ?? "")")
        }
        let (requests, requirements, trust, verifierName) = (read.requests, read.requirements, read.verifiedBy, read.readerName ?? host)
        return DigitalCredentialsRequest(protocol: .orgIsoMdoc, origin: origin, verifierName: verifierName, verifiedBy: trust, clientId: nil,
                                         requests: requests, requirements: requirements,
                                         expiresAt: nil, answer: .annexC(annexC))
    }

    /// A malformed message is `REQUEST_INVALID`; a form this version does not read `REQUEST_UNSUPPORTED`; the
    /// message names the module's code (`DigitalCredentialsError.code`).
    static func refusal(_ error: DigitalCredentialsError, _ what: String) -> HoldfastError {
        switch error {
        case .unsupported: HoldfastError(.requestUnsupported, "\(what): \(error.code): \(error)")
        default: HoldfastError(.requestInvalid, "\(what): \(error.code): \(error)")
        }
    }
}
