import Crypto
import Foundation
import HoldfastProtocol
import HoldfastSDK
import JOSE

/// A scripted, in-memory tenant implementing the tethering endpoints of docs/server-api.md's API section as an `HTTPTransport`: a real
/// ES256 tenant key, single-use challenges, real binding-nonce and assertion checks, real DPoP verification
/// (`DPoPVerifier`, `jti` single use, `ath`, `cnf.jkt`), an optional RFC 9449 server nonce, and scripted faults.
actor FakeTenant: HTTPTransport {
    enum Fault: Sendable { case network, tlsHandshake, status(Int), problem(Int, HoldfastErrorCode), raw(Int, String) }
    struct NetworkDown: Error {}
    enum Checked { case accepted(InstancePublicKey, AppAttestationType), refused(TransportResponse) }

    struct Instance: Sendable {
        var jkt: String
        var publicKey: P256.Signing.PublicKey
        var status: InstanceStatus
        var appAttestationType: AppAttestationType
        var revoked = false
    }

    static let issuer = "https://tenant.test"
    let baseURL = URL(string: "https://tenant.test")!
    let applicationId = "app-1"
    let clientId = "client-1"
    let tenantKey = JWSSigningKey(P256.Signing.PrivateKey(), kid: "tenant-1")
    private let deviceClock: ManualClock
    /// Tenant time minus device time.
    var skew: TimeInterval
    var maxTimeOffline: TimeInterval = 3600
    var requiresAttestation = false
    var manualApproval = false
    var requireDPoPNonce = false
    var currentNonce = "server-nonce-1"
    var offline = false
    var rotateNonceOnRefusal = false
    var challengeDelay: Double = 0
    private var faults: [String: [Fault]] = [:]
    private var challenges: [String: Date] = [:]
    private var usedJTIs: Set<String> = []
    private(set) var instances: [String: Instance] = [:]
    private(set) var requests: [(route: String, request: TransportRequest)] = []
    private(set) var lastProof: DPoPVerifiedProof?
    private var counter = 0

    init(deviceClock: ManualClock, skew: TimeInterval = 0) {
        self.deviceClock = deviceClock
        self.skew = skew
    }

    var now: Date { deviceClock.now().addingTimeInterval(skew) }
    var jwks: JWKSet { JWKSet(keys: [tenantKey.publicJWK]) }

    func count(_ route: String) -> Int { requests.filter { $0.route == route }.count }
    func lastRequest(_ route: String) -> TransportRequest? { requests.last { $0.route == route }?.request }
    func inject(_ fault: Fault, on route: String, times: Int = 1) { faults[route, default: []] += Array(repeating: fault, count: times) }
    func setOffline(_ value: Bool) { offline = value }
    func setRequiresAttestation(_ value: Bool) { requiresAttestation = value }
    func setManualApproval(_ value: Bool) { manualApproval = value }
    func setRequireDPoPNonce(_ value: Bool) { requireDPoPNonce = value }
    func setRotateNonceOnRefusal(_ value: Bool) { rotateNonceOnRefusal = value }
    func setChallengeDelay(_ seconds: Double) { challengeDelay = seconds }
    func revoke(_ instanceId: String) { instances[instanceId]?.revoked = true }

    // MARK: HTTPTransport

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        if offline { throw NetworkDown() }
        let parts = request.url.path.split(separator: "/").map(String.init)
        let route: String
        switch (request.method, parts.count, parts.last) {
        case ("POST", 5, "challenges"): route = "challenges"
        case ("POST", 5, "instances"): route = "register"
        case ("POST", 5, "license"): route = "license"
        case ("POST", 6, "rotate"): route = "rotate"
        case ("POST", 5, "wallet-attestations"): route = "wallet"
        case (_, 1, "resource"): route = "resource"
        default: route = "unknown"
        }
        requests.append((route, request))
        if var queue = faults[route], !queue.isEmpty {
            let fault = queue.removeFirst()
            faults[route] = queue
            switch fault {
            case .network: throw NetworkDown()
            case .tlsHandshake:
                throw URLSessionTransport.TransportFailure(description: "the TLS handshake failed (wrong version number)",
                                                           isTLSFailure: true)
            case .status(let status): return problem(status, .internalError, "scripted")
            case .problem(let status, let code): return problem(status, code, "scripted")
            case .raw(let status, let body): return TransportResponse(status: status, headers: ["Date": HTTPDate.format(now)], body: Data(body.utf8))
            }
        }
        switch route {
        case "challenges":
            if challengeDelay > 0 { try await Task.sleep(nanoseconds: UInt64(challengeDelay * 1_000_000_000)) }
            return issueChallenge()
        case "register": return register(request)
        case "license": return instanceCall(request, instanceId: parts[3], allowExpired: true) { _, instance, id in
            self.renew(request, instance: instance, instanceId: id) }
        case "rotate": return instanceCall(request, instanceId: parts[3], allowExpired: false) { _, instance, id in
            self.rotate(request, instance: instance, instanceId: id) }
        case "wallet": return instanceCall(request, instanceId: parts[3], allowExpired: false) { _, instance, _ in
            self.walletAttestation(instance: instance) }
        case "resource": return instanceCall(request, instanceId: nil, allowExpired: false) { _, _, _ in
            self.json(200, ["ok": "yes"]) }
        default: return problem(404, .notFound, "no route")
        }
    }

    // MARK: endpoints

    private func issueChallenge() -> TransportResponse {
        let challenge = Base64URL.encode((0 ..< 32).map { _ in UInt8.random(in: 0 ... 255) })
        let expiresAt = now.addingTimeInterval(300)
        challenges[challenge] = expiresAt
        return json(201, ChallengeResponse(challenge: challenge, expiresAt: expiresAt))
    }

    /// Consumes `challenge` once and checks the key's evidence over the binding nonce.
    private func checkEvidence(challenge: String, publicKey: String, attestation: AttestationValue?, assertion: String?,
                               keyId: String?) -> Checked {
        guard let expiresAt = challenges.removeValue(forKey: challenge) else {
            return .refused(problem(400, .invalidChallenge, "unknown or used challenge"))
        }
        guard now < expiresAt else { return .refused(problem(400, .challengeExpired, "expired")) }
        let key: InstancePublicKey
        do { key = try InstancePublicKey(encoded: publicKey) } catch { return .refused(problem(400, .validationFailed, "publicKey")) }
        let nonce = BindingNonce(challenge: challenge, publicKey: key)
        if let attestation {
            guard case .appAttest(let object, _) = try? PlatformAttestationPayload(attestation: attestation, keyId: keyId) else {
                return .refused(problem(400, .invalidAttestation, "attestation"))
            }
            guard object == ScriptedAttestation.attestPrefix + nonce.bytes else {
                return .refused(problem(403, .attestationFailed, "attestation does not carry the binding nonce"))
            }
            return .accepted(key, .appAttestation)
        }
        guard !requiresAttestation else { return .refused(problem(403, .attestationRequired, "attestation required")) }
        guard let assertion else { return .refused(problem(400, .validationFailed, "attestation or assertion")) }
        do { try InstanceAssertion.verify(assertion, nonce: nonce, publicKey: key.key) } catch {
            return .refused(problem(400, .invalidAttestation, "assertion does not verify"))
        }
        return .accepted(key, AppAttestationType.none)
    }

    private func register(_ request: TransportRequest) -> TransportResponse {
        guard let body = request.body, let registration = try? HoldfastJSON.decode(InstanceRegistrationRequest.self, from: body) else {
            return problem(400, .validationFailed, "body")
        }
        switch checkEvidence(challenge: registration.challenge, publicKey: registration.publicKey,
                             attestation: registration.attestation, assertion: registration.assertion, keyId: registration.keyId) {
        case .refused(let response): return response
        case .accepted(let key, let type):
            counter += 1
            let id = "inst-\(counter)"
            let jkt = (try? JWK(publicKey: key.key).thumbprint()) ?? ""
            let status: InstanceStatus = manualApproval ? .pending : .registered
            instances[id] = Instance(jkt: jkt, publicKey: key.key, status: status, appAttestationType: type)
            guard status == .registered else {
                return json(201, InstanceRegistrationResponse(instanceId: id, status: .pending, licenseToken: nil, licenseExpiresAt: nil))
            }
            let (token, expiresAt) = license(instanceId: id, jkt: jkt)
            return json(201, InstanceRegistrationResponse(instanceId: id, status: .registered, licenseToken: token,
                                                          licenseExpiresAt: expiresAt))
        }
    }

    private func renew(_ request: TransportRequest, instance: Instance, instanceId: String) -> TransportResponse {
        let body = request.body.flatMap { try? HoldfastJSON.decode(LicenseRenewalRequest.self, from: $0) } ?? LicenseRenewalRequest()
        if instance.appAttestationType == .appAttestation {
            guard let challenge = body.challenge, challenges.removeValue(forKey: challenge) != nil,
                  let assertion = body.appAttestAssertion.flatMap(Base64URL.decode) else {
                return problem(403, .attestationRequired, "renewal needs a fresh assertion")
            }
            let nonce = BindingNonce(challenge: challenge, publicKey: InstancePublicKey(instance.publicKey))
            guard assertion == ScriptedAttestation.assertPrefix + nonce.bytes else { return problem(403, .attestationFailed, "assertion") }
        }
        let (token, expiresAt) = license(instanceId: instanceId, jkt: instance.jkt)
        return json(200, LicenseRenewalResponse(instanceId: instanceId, licenseToken: token, licenseExpiresAt: expiresAt))
    }

    private func rotate(_ request: TransportRequest, instance: Instance, instanceId: String) -> TransportResponse {
        guard let body = request.body, let rotation = try? HoldfastJSON.decode(KeyRotationRequest.self, from: body) else {
            return problem(400, .validationFailed, "body")
        }
        switch checkEvidence(challenge: rotation.challenge, publicKey: rotation.publicKey, attestation: rotation.attestation,
                             assertion: rotation.assertion, keyId: rotation.keyId) {
        case .refused(let response): return response
        case .accepted(let key, let type):
            let jkt = (try? JWK(publicKey: key.key).thumbprint()) ?? ""
            instances[instanceId] = Instance(jkt: jkt, publicKey: key.key, status: .registered, appAttestationType: type)
            let (token, expiresAt) = license(instanceId: instanceId, jkt: jkt)
            return json(200, KeyRotationResponse(instanceId: instanceId, licenseToken: token, licenseExpiresAt: expiresAt))
        }
    }

    private func walletAttestation(instance: Instance) -> TransportResponse {
        let expiresAt = now.addingTimeInterval(600)
        let claims = WalletAttestationClaims(issuer: Self.issuer, clientId: clientId, instanceKey: JWK(publicKey: instance.publicKey),
                                             issuedAt: now, expiresAt: expiresAt)
        guard let jwt = try? JWT.sign(claims: claims.jwtClaims, header: WalletAttestationClaims.header(kid: "tenant-1"), key: tenantKey) else {
            return problem(500, .internalError, "signing")
        }
        return json(200, WalletAttestationResponse(walletAttestation: jwt, expiresAt: expiresAt))
    }

    // MARK: license tokens and DPoP

    private func license(instanceId: String, jkt: String) -> (String, Date) {
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let expiresAt = issuedAt.addingTimeInterval(maxTimeOffline)
        let claims = LicenseTokenClaims(issuer: Self.issuer, instanceId: instanceId, applicationId: applicationId,
                                        keyThumbprint: jkt, issuedAt: issuedAt, expiresAt: expiresAt, jti: UUID().uuidString)
        let token = (try? JWT.sign(claims: claims.jwtClaims, header: LicenseTokenClaims.header(kid: "tenant-1"), key: tenantKey)) ?? ""
        return (token, expiresAt)
    }

    /// License token + DPoP proof checks of every instance call (RFC 9449).
    private func instanceCall(_ request: TransportRequest, instanceId: String?, allowExpired: Bool,
                              handler: (String, Instance, String) -> TransportResponse) -> TransportResponse {
        guard let token = request.header(HoldfastHeaders.authorization).flatMap(HoldfastHeaders.licenseToken(fromAuthorization:)),
              let jws = try? JWS(compactSerialization: token),
              (try? jws.verify(with: tenantKey.verificationKey)) != nil,
              jws.header.typ == LicenseTokenClaims.type,
              let claims = (try? JWTClaims(payload: jws.payload)).flatMap(LicenseTokenClaims.init(claims:)),
              claims.issuer == Self.issuer, claims.applicationId == applicationId else {
            return problem(401, .invalidToken, "license token")
        }
        if let instanceId, claims.instanceId != instanceId { return problem(401, .invalidToken, "token of another instance") }
        guard let instance = instances[claims.instanceId] else { return problem(404, .instanceNotFound, "instance") }
        guard !instance.revoked else { return problem(401, .instanceRevoked, "revoked") }
        guard claims.keyThumbprint == instance.jkt else { return problem(401, .invalidToken, "token of a replaced key") }
        if !allowExpired, now >= claims.expiresAt { return problem(401, .licenseExpired, "expired") }
        guard let proof = request.header(HoldfastHeaders.dpop) else { return problem(401, .invalidDPoPProof, "no proof") }
        let verified: DPoPVerifiedProof
        do {
            verified = try DPoPVerifier().verify(proof, for: DPoPRequest(method: request.method, uri: request.url.absoluteString,
                                                                         accessToken: token,
                                                                         expectedNonce: requireDPoPNonce ? currentNonce : nil,
                                                                         expectedThumbprint: instance.jkt), at: now)
        } catch JOSEError.dpopMissingNonce, JOSEError.dpopNonceMismatch {
            var response = problem(401, .useDPoPNonce, "use the nonce")
            // A misbehaving server offers a nonce it will not accept.
            response.headers[HoldfastHeaders.dpopNonce] = rotateNonceOnRefusal ? "stale-" + UUID().uuidString : currentNonce
            response.headers[HoldfastHeaders.wwwAuthenticate] = HoldfastHeaders.useDPoPNonceChallenge
            return response
        } catch {
            return problem(401, .invalidDPoPProof, "\(error)")
        }
        guard usedJTIs.insert(verified.jti).inserted else { return problem(401, .invalidDPoPProof, "jti replay") }
        lastProof = verified
        return handler(token, instance, claims.instanceId)
    }

    // MARK: responses

    private func json(_ status: Int, _ value: some Encodable) -> TransportResponse {
        TransportResponse(status: status, headers: ["Content-Type": "application/json", "Date": HTTPDate.format(now)],
                     body: (try? HoldfastJSON.encode(value)) ?? Data())
    }

    private func problem(_ status: Int, _ code: HoldfastErrorCode, _ detail: String) -> TransportResponse {
        let body = ProblemDetails(status: status, code: code, title: code.rawValue, detail: detail, requestId: "req")
        return TransportResponse(status: status, headers: ["Content-Type": ProblemDetails.mediaType, "Date": HTTPDate.format(now)],
                            body: (try? HoldfastJSON.encode(body)) ?? Data())
    }
}
