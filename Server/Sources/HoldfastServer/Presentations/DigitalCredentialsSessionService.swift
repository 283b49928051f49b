import CertificatePath
import COSE
import Crypto
import DigitalCredentials
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE
import MDoc
import OpenID4VP

/// `dc-api` sessions of the tenant's verifier (docs/server-api.md "Digital Credentials API"): one session offers the
/// page one request per protocol — OpenID4VP 1.0 Appendix A (`openid4vp-v1-signed`, `openid4vp-v1-unsigned`) and
/// ISO/IEC TS 18013-7 Annex C (`org-iso-mdoc`) — each with its own nonce and its own ephemeral P-256 key
/// (`DigitalCredentialsStore`), and takes the first answer the page posts (`respond`, in
/// DigitalCredentialsResponseService.swift). The session row, its single answer and its result are those of every
/// presentation session (`PresentationSessionStore`).
struct DigitalCredentialsSessionService: Sendable {
    /// OpenID4VP 1.0 Appendix A.2: the encrypted response mode of the Digital Credentials API.
    static let responseMode = "dc_api.jwt"
    /// The protocols offered when the session names none.
    static let defaultProtocols: [DigitalCredentialProtocol] = [.openID4VPSigned, .orgIsoMdoc]
    static let origins = 1...5
    /// OpenID4VP 1.0 Appendix A.3.2: the request object's `exp` at most this long after `iat`.
    static let requestObjectLifetime: Int64 = 300

    /// What a `dc-api` session stores about itself beside the common settings (`Settings.dcApi`).
    struct Settings: Codable {
        var protocols: [String]
        var origins: [String]
        var readerAuth: Bool
    }

    let sessions: PresentationSessionService
    let store: DigitalCredentialsStore

    var certificates: VerifierCertificates { sessions.certificates }

    // MARK: creating

    func create(_ request: PresentationSessionRequest, adminKeyID: String, now: Date) async throws -> DigitalCredentialsSessionCreated {
        var errors: [ProblemDetails.FieldError] = []
        func refuse(_ field: String, _ detail: String, code: String = ProblemDetails.FieldError.invalidValue) {
            errors.append(.init(field: field, code: code, detail: detail))
        }
        if request.mode != .crossDevice { refuse("mode", "a dc-api session has no mode: the browser reaches the wallet") }
        if request.redirectUri != nil { refuse("redirectUri", "a dc-api answer comes back to the page, not to a redirect") }
        if request.authorizationEndpoint != nil { refuse("authorizationEndpoint", "a dc-api request goes to the browser, not to a wallet URL") }
        let lifetime = request.expiresInSeconds ?? PresentationSessionService.defaultLifetime
        if !PresentationSessionService.lifetimes.contains(lifetime) {
            refuse("expiresInSeconds", "\(PresentationSessionService.lifetimes.lowerBound) to \(PresentationSessionService.lifetimes.upperBound)",
                    code: ProblemDetails.FieldError.outOfRange)
        }
        let dcApi = request.dcApi ?? .init()
        let protocols = (dcApi.protocols ?? PresentationSessionRequest.DCAPI.defaultProtocols).map(DigitalCredentialProtocol.init(rawValue:))
        if protocols.isEmpty || protocols.count > DigitalCredentialProtocol.all.count {
            refuse("dcApi.protocols", "one to three of \(Self.known)", code: ProblemDetails.FieldError.invalidLength)
        } else if let unknown = protocols.first(where: { !$0.isKnown }) {
            refuse("dcApi.protocols", "\(String(unknown.rawValue.prefix(64))) is not one of \(Self.known)")
        } else if Set(protocols).count != protocols.count {
            refuse("dcApi.protocols", "each protocol once")
        }
        let origins = dcApi.origins ?? []
        if !Self.origins.contains(origins.count) {
            refuse("dcApi.origins", "1 to 5 web origins the page is served from", code: ProblemDetails.FieldError.invalidLength)
        } else {
            let tenantIsHTTP = sessions.publicURL().lowercased().hasPrefix("http:")
            for (index, origin) in origins.enumerated() {
                if let problem = Self.originProblem(origin, tenantIsHTTP: tenantIsHTTP) { refuse("dcApi.origins[\(index)]", problem) }
            }
            if Set(origins).count != origins.count { refuse("dcApi.origins", "each origin once") }
        }
        let readerAuth = dcApi.readerAuth ?? true
        // ISO/IEC 18013-5 §9.1.4 with ISO/IEC TS 18013-7 Annex C: ReaderAuthentication signs the SessionTranscript,
        // which holds the origin of the page; a signature names one origin, and a wallet checks it against the
        // origin its browser reports (docs/server-api.md "Digital Credentials API").
        if readerAuth, protocols.contains(.orgIsoMdoc), origins.count > 1 {
            refuse("dcApi.readerAuth", "org-iso-mdoc reader authentication signs the page's origin: give one origin, or readerAuth false")
        }
        let prefix = ClientIdPrefix(rawValue: request.clientIdPrefix ?? ClientIdPrefix.x509Hash.rawValue)
        if prefix == nil {
            refuse("clientIdPrefix", #""x509_hash" or "x509_san_dns""#)
        } else if prefix == .x509SanDNS, protocols.contains(.openID4VPSigned), !DNSName.isValid(certificates.host) {
            refuse("clientIdPrefix", "x509_san_dns needs a DNS host in HOLDFAST_PUBLIC_URL, not \(certificates.host)")
        }
        var requests: [RequestedCredential] = []
        if let dcql = request.query.dcql {
            do {
                _ = try PresentationRequirements(dcql: dcql)
                requests = try PresentationQuery.requests(dcql: dcql)
                if protocols.contains(.orgIsoMdoc), let reason = Self.notItemsRequests(dcql, requests) {
                    refuse("dcApi.protocols", "org-iso-mdoc asks with one ItemsRequest per docType, and this DCQL query \(reason)")
                }
            } catch let failure as PresentationRequirements.Invalid {
                refuse("query.dcql", failure.description)
            } catch {
                refuse("query.dcql", "credentials with an id, format mso_mdoc, meta.doctype_value and [namespace, element] claim paths")
            }
        } else if let docType = request.query.docType, !docType.isEmpty, docType.utf8.count <= 256,
                  let spaces = request.query.nameSpaces, !spaces.isEmpty, spaces.allSatisfy({ !$0.key.isEmpty && !$0.value.isEmpty }),
                  spaces.values.reduce(0, { $0 + $1.count }) <= 200 {
            requests = [RequestedCredential(id: "credential", docType: docType, nameSpaces: spaces)]
        } else {
            refuse("query", "{docType, nameSpaces: {namespace: {element: intentToRetain}}}, or dcql")
        }
        guard errors.isEmpty else { throw ProblemError.validation(errors) }

        let id = sessions.random.identifier()
        let clientId = prefix == .x509SanDNS
            ? ClientIdPrefix.x509SanDNS.clientId(certificates.host)
            : ClientIdPrefix.x509Hash.clientId(Base64URL.encode(SHA256.hash(data: certificates.requestSigner.der)))
        var settings = PresentationSessionService.Settings(
            presentationProtocol: .dcAPI, mode: .crossDevice, redirectUri: nil, clientId: clientId, requests: requests,
            dcql: request.query.dcql, kid: sessions.token(12), authorizationEndpoint: nil)
        settings.dcApi = Settings(protocols: protocols.map(\.rawValue), origins: origins, readerAuth: readerAuth)
        let expiresAt = now.addingTimeInterval(TimeInterval(lifetime))
        var stored: [DigitalCredentialsStore.Request] = []
        var digital: [DigitalCredentialsSessionCreated.Request] = []
        for item in protocols {
            let key = P256.KeyAgreement.PrivateKey()
            let kid = sessions.token(12)
            if item == .orgIsoMdoc {
                let request = try annexCRequest(settings, key: key, origins: origins, readerAuth: readerAuth)
                stored.append(.init(protocol: item, nonce: Base64URL.encode(request.encryptionInfo.nonce), kid: kid, key: key,
                                    encryptionInfo: request.encryptionInfo.base64URL))
                digital.append(.init(protocol: item.rawValue, data: request.data))
            } else {
                let nonce = sessions.token(32)
                let parameters = try openID4VPParameters(settings, nonce: nonce, key: key, kid: kid, origins: origins, now: now,
                                                         expiresAt: expiresAt, signed: item == .openID4VPSigned)
                let data: [String: JSONValue] = item == .openID4VPSigned ? ["request": .string(try signed(parameters))] : parameters
                stored.append(.init(protocol: item, nonce: nonce, kid: kid, key: key, encryptionInfo: nil))
                digital.append(.init(protocol: item.rawValue, data: data))
            }
        }
        // The session row's own nonce, state and key are never sent: each request has its own.
        try await store.insert(id: id, settings: settings, nonce: sessions.token(32), state: sessions.token(32),
                               key: P256.KeyAgreement.PrivateKey(), requests: stored, createdBy: adminKeyID, createdAt: now,
                               expiresAt: expiresAt)
        return DigitalCredentialsSessionCreated(sessionId: id, digital: .init(requests: digital), expiresAt: expiresAt)
    }

    private static let known = DigitalCredentialProtocol.all.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")

    // MARK: the requests

    /// OpenID4VP 1.0 Appendix A.2/A.3: the request parameters (HAIP 1.0 `client_metadata`, the DCQL query); with
    /// `signed`, also `client_id` and `expected_origins`, which only a signed request carries (A.3.2).
    func openID4VPParameters(_ settings: PresentationSessionService.Settings, nonce: String, key: P256.KeyAgreement.PrivateKey, kid: String,
                             origins: [String], now: Date, expiresAt: Date, signed: Bool) throws -> [String: JSONValue] {
        let issuedAt = Int64(now.timeIntervalSince1970)
        let metadata = ClientMetadata(
            jwks: JWKSet(keys: [JWK(publicKey: key.publicKey, kid: kid, use: .encryption, alg: "ECDH-ES")]),
            encryptedResponseEncValuesSupported: ["A128GCM", "A256GCM"],
            vpFormatsSupported: .init(msoMdoc: .init(issuerauthAlgValues: [-7], deviceauthAlgValues: [-7])))
        var parameters: [String: JSONValue] = [
            "iat": .integer(issuedAt),
            "exp": .integer(min(issuedAt + Self.requestObjectLifetime, Int64(expiresAt.timeIntervalSince1970))),
            "response_type": .string(OpenID4VPIdentifiers.vpTokenResponseType),
            "response_mode": .string(Self.responseMode),
            "nonce": .string(nonce),
            "dcql_query": settings.dcql ?? PresentationQuery.dcql(settings.requests),
            "client_metadata": try JSONValue(json: Array(try JSONEncoder().encode(metadata))),
        ]
        if signed {
            parameters["client_id"] = .string(settings.clientId)
            parameters["expected_origins"] = .array(origins.map(JSONValue.string))
        }
        return parameters
    }

    /// OpenID4VP 1.0 Appendix A.3.2: the request object, ES256 by the tenant's request signer, `typ`
    /// `oauth-authz-req+jwt`, `x5c` [signer, CA].
    private func signed(_ parameters: [String: JSONValue]) throws -> String {
        var header = JOSEHeader()
        header.typ = OpenID4VPIdentifiers.requestObjectType
        header.setX5C([certificates.requestSigner.der, certificates.ca.der])
        return try JWS.sign(payload: try JSONValue.object(parameters).jsonBytes(), header: header,
                            key: JWSSigningKey(certificates.requestSigner.privateKey)).compactSerialization
    }

    /// ISO/IEC TS 18013-7 Annex C: a DeviceRequest with one ItemsRequest per docType and an EncryptionInfo for `key`;
    /// with `readerAuth`, each DocRequest signed by the request signer over the Annex C SessionTranscript of the
    /// session's one origin.
    private func annexCRequest(_ settings: PresentationSessionService.Settings, key: P256.KeyAgreement.PrivateKey,
                               origins: [String], readerAuth: Bool) throws -> AnnexCRequest {
        let itemsRequests = settings.requests.map { requested in
            ItemsRequest(docType: requested.docType, nameSpaces: requested.nameSpaces.sorted { $0.key < $1.key }.map { space, elements in
                ItemsRequest.NameSpace(space, elements: elements.sorted { $0.key < $1.key }.map { ItemsRequest.DataElement($0.key, intentToRetain: $0.value) })
            })
        }
        let encryptionInfo = try EncryptionInfo(recipientPublicKey: key.publicKey)
        guard readerAuth, let origin = origins.first else { return AnnexCRequest(itemsRequests: itemsRequests, encryptionInfo: encryptionInfo) }
        return try AnnexCRequest(itemsRequests: itemsRequests, encryptionInfo: encryptionInfo, origin: origin,
                                 readerSigner: COSESigningKey.p256(certificates.requestSigner.privateKey),
                                 certificateChain: [certificates.requestSigner.der, certificates.ca.der])
    }

    /// Why a DCQL query cannot be written as one ItemsRequest per docType (ISO/IEC 18013-5 §8.3.2.1.2.1 asks for
    /// elements, all of them required): nil when it can.
    static func notItemsRequests(_ dcql: JSONValue, _ requests: [RequestedCredential]) -> String? {
        let object = dcql.objectValue ?? [:]
        if object["credential_sets"] != nil { return "has credential_sets" }
        let credentials = object["credentials"]?.arrayValue ?? []
        if requests.count != credentials.count { return "has a credential that is not an mso_mdoc" }
        if Set(requests.map(\.docType)).count != requests.count { return "asks for one docType twice" }
        for credential in credentials {
            let members = credential.objectValue ?? [:]
            let id = String((members["id"]?.stringValue ?? "?").prefix(64))
            if members["claim_sets"] != nil { return "gives claim_sets (\(id))" }
            if members["multiple"] == .bool(true) { return "asks for multiple presentations (\(id))" }
            let claims = members["claims"]?.arrayValue ?? []
            if claims.isEmpty { return "asks for no claim (\(id))" }
            if claims.contains(where: { $0.objectValue?["values"] != nil }) { return "asks for claim values (\(id))" }
        }
        return nil
    }

    /// Why `origin` is not a web origin the page may be served from (RFC 6454 §6.2 serialization, as the browser
    /// reports it: lower-case scheme and host, no default port, no path): https, or http for a loopback host when
    /// the tenant itself is served over http (a development set-up). Nil when it may.
    static func originProblem(_ origin: String, tenantIsHTTP: Bool) -> String? {
        let shape = "a web origin scheme://host[:port] as a browser serializes it (no path, no trailing slash)"
        guard origin.utf8.count <= 256, let url = URLComponents(string: origin), let scheme = url.scheme, let host = url.host, !host.isEmpty,
              url.path.isEmpty, url.query == nil, url.fragment == nil, url.user == nil, url.password == nil else { return shape }
        let defaultPort = scheme == "https" ? 443 : 80
        let hostText = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let serialized = "\(scheme.lowercased())://\(hostText.lowercased())" + (url.port.map { $0 == defaultPort ? "" : ":\($0)" } ?? "")
        guard serialized == origin else { return shape + ": \(serialized)" }
        switch scheme {
        case "https":
            return nil
        case "http":
            let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            let loopback = bare == "localhost" || bare.hasSuffix(".localhost") || bare == "::1" || bare.hasPrefix("127.")
            guard loopback else { return "http only for a loopback host (localhost, 127.0.0.1, [::1]); https otherwise" }
            return tenantIsHTTP ? nil : "http only when the tenant's public URL is http too"
        default:
            return "https (or http for a loopback host)"
        }
    }
}
