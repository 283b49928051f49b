import CertificatePath
import Crypto
import Foundation
import HoldfastProtocol
import JOSE
import OpenID4VP
import SwiftASN1
import X509

/// One credential a verifier asks for (a DCQL `credentials` entry, or a `presentation_definition` input
/// descriptor): its docType and, per namespace, each element with its `intent_to_retain`.
public struct MobileCredentialRequest: Sendable, Hashable {
    /// The DCQL credential query id (OpenID4VP 1.0) or the input descriptor id (ISO/IEC TS 18013-7:2024).
    public var id: String
    public var docType: String
    public var namespaces: [String: [String: Bool]]
}

/// How much was established about the verifier (docs/sdk.md "Holder: presentation"), so that the app can warn.
public enum VerifierTrust: String, Sendable, Hashable {
    /// The request object's `x5c` chain reaches a trusted verifier certificate.
    case certificate
    /// Not anchored, but the client id names the signing certificate (`x509_san_dns`: a dNSName of its SAN, where the
    /// response goes; `x509_hash`: its hash, and the response goes to a dNSName of it), and it is within its validity.
    case domain
    /// Only that the request is well formed and signed by the key its client id names.
    case none
}

/// A verified OpenID4VP request object (OpenID4VP 1.0 §5, JAR RFC 9101), everything a response needs.
public struct AuthorizationRequest: Sendable, Hashable {
    public var presentationProtocol: PresentationProtocol
    /// `client_id` as the request carries it (with its prefix for 1.0, the bare host for 2024).
    public var clientId: String
    /// Who the verifier is: for `.certificate` and `.domain`, the DNS name of the leaf the client id was matched
    /// with (a valid DNS name that passed every CA's name constraints, docs/security.md "Certificate paths"); for `.none`, the
    /// host of `response_uri` — an unanchored certificate does not get to name its holder.
    public var verifierName: String?
    public var verifiedBy: VerifierTrust
    public var responseUri: URL
    public var nonce: String
    public var state: String?
    public var requests: [MobileCredentialRequest]
    /// What each request requires (DCQL `claims` / `claim_sets`, a presentation definition's fields not marked
    /// optional): a stored credential matches a request only when it holds that.
    public var requirements: PresentationRequirements
    /// The verifier's response encryption key (`client_metadata.jwks`, `use` enc, EC P-256).
    public var encryptionKey: JWK
    /// The content encryption to use: the first of the verifier's values this SDK supports.
    public var contentEncryption: JWEContentEncryption
    public var expiresAt: Date?
    /// The `presentation_definition`'s id (18013-7:2024), which the response's `presentation_submission` names.
    public var presentationDefinitionId: String?
}

/// Verifies a request object (docs/sdk.md "Holder: presentation"):
/// - `typ` `oauth-authz-req+jwt` (or none, as 18013-7:2024 verifiers send), ES256/ES384, signed by the `x5c` leaf;
/// - `client_id` matches the certificate: `x509_hash:` the base64url SHA-256 of the leaf DER, `x509_san_dns:` (or a
///   bare host with `client_id_scheme: x509_san_dns`) a dNSName of the leaf's SAN — only SAN entries that are valid
///   DNS names count (`DNSName`: no prefix, no trailing dot), so that every name believed is one a CA's name
///   constraints were applied to;
/// - trust: the chain reaches a trusted verifier certificate (`.certificate`) by the project's one path validator
///   (`CertificatePathValidator` with `RequestObjectSignerProfile`: every issuer a CA with keyCertSign within its
///   pathLenConstraint, every certificate valid, the leaf an end entity that may sign requests and, for
///   `x509_san_dns`, names the client id); when trust is required nothing else is accepted (`VERIFIER_UNTRUSTED`);
///   otherwise the verifier is accepted as `.domain` (the leaf is valid and names the host the response goes to)
///   or `.none` (only the key its client id names signed it);
/// - without a trusted chain, an `x509_san_dns` verifier's `response_uri` must be on the host it names (OpenID4VP
///   1.0 §5.9.3);
/// - `iat` not in the future and `exp` not passed (60 s of skew); `response_mode` `direct_post.jwt`; no request
///   parameter the wallet must honour and does not (`UnsupportedRequestParameter`: `transaction_data`, OpenID4VP 1.0
///   §5.1); a nonce; an EC P-256 encryption key; a query with at least one `mso_mdoc` credential.
struct AuthorizationRequestVerifier: Sendable {
    static let requestType = OpenID4VPIdentifiers.requestObjectType
    static let skew: TimeInterval = 60
    static let maximumChainLength = 5

    var trustedCertificates: [Certificate]
    var requireTrustedVerifier: Bool

    /// Where the request object is: fetched from `request_uri` (by reference, as HAIP asks), or the URI's `request`
    /// itself (by value, RFC 9101 §5.1).
    enum Source: Sendable, Hashable {
        case reference(URL)
        case value(String)
    }

    /// The parameters of an authorization request URI (`AuthorizationRequestURI`): `client_id`, and `request_uri` or
    /// `request` (RFC 9101 §5: not both). A request whose members come unsigned in the URI is refused.
    static func parameters(of uri: String) throws(HoldfastError) -> (clientId: String?, source: Source) {
        let parsed: AuthorizationRequestURI
        do { parsed = try AuthorizationRequestURI(parsing: uri) } catch { throw HoldfastError(.requestInvalid, "the authorization request is not a URI") }
        if let request = parsed.request {
            guard parsed.requestUri == nil else {
                throw HoldfastError(.requestInvalid, "the authorization request has both request and request_uri (RFC 9101 §5)")
            }
            return (parsed.clientId, .value(request))
        }
        guard let reference = parsed.requestUri, let url = URL(string: reference), StatusListCache.fetchableURL(reference) != nil else {
            if parsed.passesRequestByValue {
                throw HoldfastError(.requestUnsupported, "only signed requests are accepted (request, or request_uri over https)")
            }
            throw HoldfastError(.requestInvalid, "the authorization request has neither request nor an https request_uri")
        }
        return (parsed.clientId, .reference(url))
    }

    /// What the checks every signed request object gets (``verifySignedObject(_:fetchedFrom:expectedClientId:at:)``)
    /// established, for the response-specific checks that follow: online (``verify(_:fetchedFrom:expectedClientId:at:)``,
    /// `direct_post.jwt`) or through the Digital Credentials API (`DigitalCredentialsRequestReader`, `dc_api.jwt`).
    struct SignedRequestObject: Sendable {
        var members: [String: JSONValue]
        var claims: RequestObject
        var clientId: String
        var presentationProtocol: PresentationProtocol
        /// The leaf's name the client id was matched with (`x509_hash`: the `fetchedFrom` host when the leaf names it).
        var verifierName: String?
        /// The dNSName an `x509_san_dns` client id names.
        var sanName: String?
        var dnsNames: Set<String>
        var leaf: Certificate
        /// Why the chain does not reach a trusted verifier certificate; nil when it does.
        var pathFailure: CertificatePathFailure?
        var expiresAt: Date?
    }

    /// Verifies `compact`, fetched from `fetchedFrom`, at `now`; `expectedClientId` is the URI's `client_id`.
    func verify(_ compact: String, fetchedFrom: URL?, expectedClientId: String?, at now: Date) async throws(HoldfastError) -> AuthorizationRequest {
        let object = try await verifySignedObject(compact, fetchedFrom: fetchedFrom, expectedClientId: expectedClientId, at: now)
        let (members, claims, clientId, leaf, dnsNames) = (object.members, object.claims, object.clientId, object.leaf, object.dnsNames)
        let (sanName, pathFailure, expiresAt, presentationProtocol) = (object.sanName, object.pathFailure, object.expiresAt, object.presentationProtocol)
        var verifierName = object.verifierName
        // The response (OpenID4VP 1.0 §8.3: direct_post.jwt, encrypted to the verifier's key).
        guard claims.responseType == OpenID4VPIdentifiers.vpTokenResponseType else {
            throw HoldfastError(.requestUnsupported, "response_type is not vp_token")
        }
        guard claims.responseMode == OpenID4VPIdentifiers.directPostJWTResponseMode else {
            throw HoldfastError(.requestUnsupported, "response_mode \(claims.responseMode ?? "none") is not direct_post.jwt")
        }
        guard let responseText = claims.responseUri, let responseUri = URL(string: responseText),
              StatusListCache.fetchableURL(responseText) != nil else {
            throw HoldfastError(.requestInvalid, "the request has no https response_uri")
        }
        let responseHost = responseUri.host?.lowercased()
        let trust: VerifierTrust
        if pathFailure == nil {
            trust = .certificate
        } else {
            // OpenID4VP 1.0 §5.9.3: a Client Identifier not otherwise trusted sends the response to the host it names.
            if let sanName, responseHost != sanName {
                throw HoldfastError(.clientIdMismatch, "the response_uri is not on the host the verifier's certificate names")
            }
            let named = responseHost.map(dnsNames.contains) ?? false
            trust = named && Self.isValid(leaf, at: now) ? .domain : .none
            // `.domain`: the host the response goes to, which the leaf names. `.none`: that host too, never a name of
            // the certificate, which nothing anchors (docs/sdk.md "Holder: presentation").
            verifierName = responseHost
        }
        try UnsupportedRequestParameter.refuse(members)
        guard let nonce = claims.nonce, !nonce.isEmpty else { throw HoldfastError(.requestInvalid, "the request has no nonce") }
        let (key, encryption) = try Self.responseEncryption(claims)
        let (requests, requirements) = try RequestQuery.requests(claims)
        return AuthorizationRequest(presentationProtocol: presentationProtocol, clientId: clientId, verifierName: verifierName, verifiedBy: trust,
                                    responseUri: responseUri, nonce: nonce, state: claims.state, requests: requests, requirements: requirements,
                                    encryptionKey: key, contentEncryption: encryption, expiresAt: expiresAt,
                                    presentationDefinitionId: claims.presentationDefinitionId)
    }

    /// The checks of a signed request object whatever its response mode: a compact JWS with `typ`
    /// `oauth-authz-req+jwt` (or none, or `JWT`), ES256/ES384 by its `x5c` leaf; `client_id` naming that leaf
    /// (`x509_hash`, `x509_san_dns`, or 18013-7:2024's bare host); `iat`/`exp`; and the chain's path to a trusted
    /// verifier certificate, required when `requireTrustedVerifier` (`VERIFIER_UNTRUSTED`).
    func verifySignedObject(_ compact: String, fetchedFrom: URL?, expectedClientId: String?,
                            at now: Date) async throws(HoldfastError) -> SignedRequestObject {
        let jws: JWS
        do { jws = try JWS(compactSerialization: compact) } catch {
            throw HoldfastError(.requestInvalid, "the request object is not a compact JWS: \(error)")
        }
        if let type = jws.header.typ, type.lowercased() != Self.requestType, type.uppercased() != "JWT" {
            throw HoldfastError(.requestInvalid, "the request object's typ is \(type), not \(Self.requestType)")
        }
        let chainDER: [[UInt8]]
        do { chainDER = try jws.header.x5c() ?? [] } catch { throw HoldfastError(.requestInvalid, "x5c is malformed: \(error)") }
        guard let leafDER = chainDER.first else { throw HoldfastError(.requestUnsupported, "the request object carries no x5c certificate") }
        guard chainDER.count <= Self.maximumChainLength else { throw HoldfastError(.requestInvalid, "x5c is longer than \(Self.maximumChainLength)") }
        let chain: [Certificate]
        do { chain = try chainDER.map { (der) throws(CertificatePathFailure) in try CertificateEncoding.certificate(derEncoded: der) } } catch {
            throw HoldfastError(.requestInvalid, "a certificate of x5c: \(error)")
        }
        do {
            try jws.verify(with: try JWSVerificationKey(certificate: leafDER), allowedAlgorithms: [.es256, .es384])
        } catch {
            throw HoldfastError(.requestSignatureInvalid, "the request object's signature does not verify with its x5c leaf")
        }
        guard let members = (try? JSONValue(json: jws.payload))?.objectValue else {
            throw HoldfastError(.requestInvalid, "the request object's payload is not a JSON object")
        }
        let claims = RequestObject(claims: members)

        // The client identifier and the certificate (OpenID4VP 1.0 §5.9.3; 18013-7:2024 Annex B).
        guard let clientId = claims.clientId else { throw HoldfastError(.requestInvalid, "the request object has no client_id") }
        if let expectedClientId, expectedClientId != clientId {
            throw HoldfastError(.clientIdMismatch, "the request object's client_id is not the one of the authorization request")
        }
        let leaf = chain[0]
        let dnsNames = Self.dnsNames(leaf)
        let presentationProtocol: PresentationProtocol
        var verifierName: String?
        // The dNSName the client id names (x509_san_dns), which the path validation's profile requires of the leaf.
        var sanName: String?
        let prefixed = ClientIdPrefix.split(clientId)
        if let prefixed, prefixed.prefix == .x509Hash {
            presentationProtocol = .openID4VP
            let hash = Base64URL.encode(SHA256.hash(data: leafDER))
            guard prefixed.value == hash else {
                throw HoldfastError(.clientIdMismatch, "x509_hash is not the SHA-256 of the request's signing certificate")
            }
            let host = fetchedFrom?.host?.lowercased()
            verifierName = host.flatMap { dnsNames.contains($0) ? $0 : nil } ?? dnsNames.sorted().first
        } else if let prefixed, prefixed.prefix == .x509SanDNS {
            presentationProtocol = .openID4VP
            let name = prefixed.value.lowercased()
            guard DNSName.isValid(name) else { throw HoldfastError(.clientIdMismatch, "x509_san_dns:\(prefixed.value) does not name a DNS name") }
            guard dnsNames.contains(name) else { throw HoldfastError(.clientIdMismatch, "\(name) is not a dNSName of the signing certificate") }
            verifierName = name
            sanName = name
        } else if claims.clientIdScheme == ClientIdPrefix.x509SanDNS.rawValue {
            presentationProtocol = .iso18013_7
            guard DNSName.isValid(clientId), dnsNames.contains(clientId.lowercased()) else {
                throw HoldfastError(.clientIdMismatch, "\(clientId) is not a dNSName of the signing certificate")
            }
            verifierName = clientId.lowercased()
            sanName = verifierName
        } else {
            throw HoldfastError(.requestUnsupported, "the client id \(clientId) has no x509_hash or x509_san_dns prefix")
        }

        // Time (RFC 9101 §10.2 lets the wallet refuse a stale request object).
        let issuedAt = claims.iat?.date
        let expiresAt = claims.exp?.date
        if let expiresAt, now >= expiresAt.addingTimeInterval(Self.skew) { throw HoldfastError(.requestExpired, "the request object has expired") }
        if let issuedAt, issuedAt > now.addingTimeInterval(Self.skew) { throw HoldfastError(.requestExpired, "the request object is issued in the future") }

        // Trust: a trusted verifier certificate; or, unless trust is required, what the certificate itself says.
        let pathFailure: CertificatePathFailure?
        do {
            _ = try await CertificatePathValidator(anchors: trustedCertificates, maximumLength: Self.maximumChainLength)
                .validate(chain: chain, profile: RequestObjectSignerProfile(dnsName: sanName), at: now)
            pathFailure = nil
        } catch {
            pathFailure = error
        }
        if let pathFailure, requireTrustedVerifier {
            throw HoldfastError(.verifierUntrusted, "the request object does not chain to a trusted verifier certificate (\(pathFailure))")
        }
        return SignedRequestObject(members: members, claims: claims, clientId: clientId, presentationProtocol: presentationProtocol,
                                   verifierName: verifierName, sanName: sanName, dnsNames: dnsNames, leaf: leaf, pathFailure: pathFailure,
                                   expiresAt: expiresAt)
    }

    /// The verifier's response encryption (OpenID4VP 1.0 §8.3): the first EC P-256 key of `client_metadata.jwks` for
    /// encryption (`use` `enc`, or none), public, and the first of `encrypted_response_enc_values_supported` (or
    /// 18013-7:2024's `authorization_encrypted_response_enc`) this SDK writes (A128GCM, A256GCM).
    static func responseEncryption(_ claims: RequestObject) throws(HoldfastError) -> (key: JWK, encryption: JWEContentEncryption) {
        let metadata = claims.clientMetadata ?? ClientMetadata()
        let keys = metadata.jwks?.keys ?? []
        guard let key = keys.first(where: { $0.serves(.encryption) && $0.kty.known == .ec && $0.crv?.known == .p256 && !$0.hasPrivateKey }) else {
            throw HoldfastError(.requestUnsupported, "client_metadata.jwks has no EC P-256 encryption key")
        }
        let offered = metadata.offeredContentEncryptions
        guard let encryption = offered.lazy.compactMap(JWEContentEncryption.init(rawValue:)).first else {
            throw HoldfastError(.requestUnsupported, "none of the response encryptions \(offered) is A128GCM or A256GCM")
        }
        return (key, encryption)
    }


    /// The leaf's SAN dNSNames that are valid DNS names (`DNSName`), lower-cased. An entry of another form — written
    /// with its client id prefix (`x509_san_dns:host`, seen in the wild), with a trailing dot, a wildcard — is not
    /// believed: swift-certificates applies a CA's name constraints only to valid DNS names (RFC 5280 §4.2.1.10), so
    /// such an entry would name a host no CA's constraints were applied to (docs/security.md "Certificate paths").
    static func dnsNames(_ certificate: Certificate) -> Set<String> {
        guard let names = try? certificate.extensions.subjectAlternativeNames else { return [] }
        var result = Set<String>()
        for name in names {
            if case .dnsName(let dns) = name, DNSName.isValid(dns) { result.insert(dns.lowercased()) }
        }
        return result
    }

    static func isValid(_ certificate: Certificate, at time: Date) -> Bool {
        time >= certificate.notValidBefore && time <= certificate.notValidAfter
    }

}

/// The query of a request as `MobileCredentialRequest`s (`PresentationQuery` of the `OpenID4VP` module reads both
/// forms): `dcql_query` (OpenID4VP 1.0) or `presentation_definition` (ISO/IEC TS 18013-7:2024), with what each
/// requires (`PresentationRequirements`).
enum RequestQuery {
    static func requests(_ claims: RequestObject) throws(HoldfastError) -> ([MobileCredentialRequest], PresentationRequirements) {
        func read(_ body: () throws(PresentationQuery.Failure) -> [RequestedCredential]) throws(HoldfastError) -> [RequestedCredential] {
            do { return try body() } catch { throw HoldfastError(.requestInvalid, error.description) }
        }
        let requested: [RequestedCredential]
        let requirements: PresentationRequirements
        if let dcql = claims.dcqlQuery, dcql.objectValue != nil {
            requested = try read { () throws(PresentationQuery.Failure) in try PresentationQuery.requests(dcql: dcql) }
            requirements = dcqlRequirements(dcql, requested)
        } else if let definition = claims.presentationDefinition, definition.objectValue != nil {
            requested = try read { () throws(PresentationQuery.Failure) in try PresentationQuery.requests(presentationDefinition: definition) }
            do { requirements = try PresentationRequirements(presentationDefinition: definition) } catch {
                throw HoldfastError(.requestInvalid, "presentation_definition: \(error.description)")
            }
        } else {
            throw HoldfastError(.requestInvalid, "the request has neither dcql_query nor presentation_definition")
        }
        guard !requested.isEmpty else { throw HoldfastError(.requestUnsupported, "the request asks for no mso_mdoc credential") }
        return (requested.map { MobileCredentialRequest(id: $0.id, docType: $0.docType, namespaces: $0.nameSpaces) }, requirements)
    }

    /// What the `mso_mdoc` credential queries of a DCQL query require (OpenID4VP 1.0 §6.3, §6.4.1): every claim, or
    /// one option of `claim_sets`, each with its `values`. Read leniently (other formats are the wallet's to skip, not
    /// to refuse, unlike `PresentationRequirements(dcql:)` which a verifier uses on its own query).
    static func dcqlRequirements(_ dcql: JSONValue, _ requested: [RequestedCredential]) -> PresentationRequirements {
        var credentials: [PresentationRequirements.Credential] = []
        for entry in dcql.objectValue?["credentials"]?.arrayValue ?? [] {
            guard let object = entry.objectValue, let id = object["id"]?.stringValue, let wanted = requested.first(where: { $0.id == id }) else { continue }
            var claims: [PresentationRequirements.Claim] = []
            for claim in object["claims"]?.arrayValue ?? [] {
                guard let members = claim.objectValue, let path = members["path"]?.arrayValue, path.count == 2,
                      let space = path[0].stringValue, let element = path[1].stringValue else { continue }
                claims.append(.init(id: members["id"]?.stringValue, nameSpace: space, element: element, values: members["values"]?.arrayValue))
            }
            let sets = object["claim_sets"]?.arrayValue?.map { $0.arrayValue?.compactMap(\.stringValue) ?? [] }
            credentials.append(.init(id: id, docType: wanted.docType, multiple: object["multiple"] == .bool(true), claims: claims,
                                     claimSets: sets))
        }
        return PresentationRequirements(credentials: credentials)
    }
}
