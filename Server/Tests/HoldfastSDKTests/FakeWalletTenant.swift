import Crypto
import Foundation
import HoldfastProtocol
import HoldfastSDK
import JOSE

/// A scripted, in-memory tenant answering the SCA wallet's device routes of docs/server-api.md's "SCA wallet (back end)" as an
/// `HTTPTransport`: the eligibility check, the holder application's challenges, the activation (single-use code and
/// challenge, the key's assertion checked over its binding nonce), the policies, and — with a DPoP proof made by the
/// activated wallet key (RFC 9449, `jti` single use) — the event feed (`Last-Event-ID`), the credentials' enrolment and
/// the PIN attempts, checked against the enrolled PIN secret and counted here as the tenant does.
actor FakeWalletTenant: HTTPTransport {
    enum Fault: Sendable { case network, problem(Int, HoldfastErrorCode) }
    struct NetworkDown: Error {}

    let applicationId = "app-1"
    let walletId = "6f1c2a8e-3b4d-4c5e-9f60-718293a4b5c6"
    let userId = "user-1"
    var activationCode = "1234-5678-9012-3456"
    var accessProtection: SCAAccessProtection = .pin
    var maxPinAttempts = 3
    var eligibility = SCAEligibilityCheckResponse(eligible: true)
    var policies: [SCAPolicy] = []
    private let clock: ManualClock
    private var challenges: Set<String> = []
    private var usedJTIs: Set<String> = []
    private var faults: [String: [Fault]] = [:]
    /// The feed: (id, type, data as JSON text).
    private var events: [(id: Int64, type: String, data: String)] = []
    private(set) var walletKey: InstancePublicKey?
    private(set) var requests: [(route: String, request: TransportRequest)] = []
    /// The outcomes of the PIN attempts, in order.
    private(set) var pinReports: [SCAPinAttemptOutcome] = []
    private(set) var pinAttemptsLeft = 3
    private(set) var locked = false
    /// The enrolment as the device sent it.
    private(set) var enrolment: SCACredentialsEnrolment?
    private(set) var activations: [SCAActivationRequest] = []

    init(clock: ManualClock, accessProtection: SCAAccessProtection = .pin) {
        self.clock = clock
        self.accessProtection = accessProtection
    }

    var now: Date { clock.now() }

    func setActivationCode(_ code: String) { activationCode = code }
    func setEligibility(_ answer: SCAEligibilityCheckResponse) { eligibility = answer }
    func setPolicies(_ value: [SCAPolicy]) { policies = value }
    func inject(_ fault: Fault, on route: String, times: Int = 1) { faults[route, default: []] += Array(repeating: fault, count: times) }
    func count(_ route: String) -> Int { requests.filter { $0.route == route }.count }
    func lastRequest(_ route: String) -> TransportRequest? { requests.last { $0.route == route }?.request }

    /// Appends an event to the wallet's feed; `data` is a JSON object's text.
    func append(_ type: String, _ data: String = "{}") {
        events.append(((events.last?.id ?? 0) + 1, type, data))
    }

    // MARK: HTTPTransport

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let path = request.url.path
        let route: String
        switch (request.method, path) {
        case ("POST", SCARoutes.Template.eligibilityChecks.template): route = "eligibility"
        case ("POST", TetheringRoutes.challenges(applicationId: applicationId)): route = "challenges"
        case ("POST", SCARoutes.Template.activations.template): route = "activations"
        case ("GET", SCARoutes.Template.policies.template): route = "policies"
        case ("GET", SCARoutes.Template.events.path(["walletId": walletId])): route = "events"
        case ("POST", SCARoutes.Template.pinAttempts.path(["walletId": walletId])): route = "pin-attempts"
        case ("PUT", SCARoutes.Template.credentials.path(["walletId": walletId])): route = "credentials"
        default: route = "unknown"
        }
        requests.append((route, request))
        if var queue = faults[route], !queue.isEmpty {
            let fault = queue.removeFirst()
            faults[route] = queue
            switch fault {
            case .network: throw NetworkDown()
            case .problem(let status, let code): return problem(status, code, "scripted")
            }
        }
        switch route {
        case "eligibility":
            guard let body = request.body, (try? HoldfastJSON.decode(SCAEligibilityCheckRequest.self, from: body)) != nil else {
                return problem(400, .validationFailed, "body")
            }
            return json(200, eligibility)
        case "challenges":
            let challenge = Base64URL.encode((0 ..< 32).map { _ in UInt8.random(in: 0 ... 255) })
            challenges.insert(challenge)
            return json(201, ChallengeResponse(challenge: challenge, expiresAt: now.addingTimeInterval(300)))
        case "activations": return activate(request)
        case "policies": return json(200, policies)
        case "events":
            if let refused = walletProof(request) { return refused }
            let after = Int64(request.header(HoldfastHeaders.lastEventID) ?? "0") ?? 0
            var text = ": keep-alive\r\n\r\n"
            for event in events where event.id > after {
                text += "id: \(event.id)\nevent: \(event.type)\ndata: \(event.data)\n\n"
            }
            return TransportResponse(status: 200, headers: ["Content-Type": "text/event-stream", "Date": HTTPDate.format(now)],
                                     body: Data(text.utf8))
        case "pin-attempts":
            if let refused = walletProof(request) { return refused }
            guard let body = request.body, let attempt = try? HoldfastJSON.decode(SCAPinAttemptRequest.self, from: body) else {
                return problem(400, .validationFailed, "body")
            }
            guard !locked else { return problem(409, .conflict, "locked") }
            guard let enrolled = enrolment?.pinSecret else { return problem(409, .conflict, "no PIN") }
            return json(200, check(attempt.pinSecret, against: enrolled))
        case "credentials":
            if let refused = walletProof(request) { return refused }
            guard let body = request.body, let new = try? HoldfastJSON.decode(SCACredentialsEnrolment.self, from: body) else {
                return problem(400, .validationFailed, "body")
            }
            guard !locked else { return problem(409, .conflict, "locked") }
            if let enrolled = enrolment?.pinSecret {
                guard let current = new.currentPinSecret else { return problem(400, .validationFailed, "currentPinSecret") }
                let checked = check(current, against: enrolled)
                guard checked.outcome == .success else { return json(200, checked) }
            }
            enrolment = new
            pinAttemptsLeft = maxPinAttempts
            return json(200, SCAPinAttemptResult(outcome: .success, pinAttemptsLeft: maxPinAttempts, state: .active))
        default:
            return problem(404, .notFound, "no route")
        }
    }

    /// The tenant's PIN check: the secret against the enrolled one, a wrong one counted (and the feed told).
    private func check(_ secret: String, against enrolled: String) -> SCAPinAttemptResult {
        if secret == enrolled {
            pinReports.append(.success)
            pinAttemptsLeft = maxPinAttempts
            return SCAPinAttemptResult(outcome: .success, pinAttemptsLeft: pinAttemptsLeft, state: .active, keyShare: enrolment?.keyShare)
        }
        pinReports.append(.failure)
        pinAttemptsLeft = max(0, pinAttemptsLeft - 1)
        append("countersUpdated", #"{"pinAttemptsLeft":\#(pinAttemptsLeft)}"#)
        if pinAttemptsLeft == 0 {
            locked = true
            append("locked", #"{"reason":"PIN_ATTEMPTS"}"#)
        }
        return SCAPinAttemptResult(outcome: .failure, pinAttemptsLeft: pinAttemptsLeft, state: locked ? .locked : .active)
    }

    /// The back end's unlock and credentials reset, as they change the tenant's own state (their events appended).
    func unlock() {
        locked = false
        pinAttemptsLeft = maxPinAttempts
        append("unlocked")
    }

    func resetCredentials() {
        enrolment = nil
        pinAttemptsLeft = maxPinAttempts
        append("credentialsReset")
    }

    /// A one-time code and a challenge of this application, with the new key's assertion over its binding nonce.
    private func activate(_ request: TransportRequest) -> TransportResponse {
        guard let body = request.body, let activation = try? HoldfastJSON.decode(SCAActivationRequest.self, from: body) else {
            return problem(400, .validationFailed, "body")
        }
        activations.append(activation)
        guard activation.activationCode == activationCode, walletKey == nil else {
            return problem(400, .invalidActivationCode, "the activation code is unknown, used already or expired")
        }
        guard challenges.remove(activation.challenge) != nil else { return problem(400, .invalidChallenge, "unknown or used challenge") }
        guard let key = try? InstancePublicKey(encoded: activation.publicKey), let assertion = activation.assertion,
              (try? InstanceAssertion.verify(assertion, nonce: BindingNonce(challenge: activation.challenge, publicKey: key),
                                             publicKey: key.key)) != nil else {
            return problem(400, .invalidAttestation, "the assertion does not verify")
        }
        walletKey = key
        pinAttemptsLeft = maxPinAttempts
        append("loaded")
        return json(201, SCAActivationResponse(walletId: walletId, userId: userId, accessProtection: accessProtection,
                                               maxPinAttempts: maxPinAttempts))
    }

    /// nil when the request carries a fresh DPoP proof of the activated wallet key, the refusal otherwise.
    private func walletProof(_ request: TransportRequest) -> TransportResponse? {
        guard let key = walletKey, let thumbprint = try? key.thumbprint() else { return problem(401, .invalidToken, "no wallet") }
        guard let proof = request.header(HoldfastHeaders.dpop) else { return problem(401, .invalidDPoPProof, "no proof") }
        do {
            let verified = try DPoPVerifier().verify(proof, for: DPoPRequest(method: request.method, uri: request.url.absoluteString,
                                                                             expectedThumbprint: thumbprint), at: now)
            guard usedJTIs.insert(verified.jti).inserted else { return problem(401, .invalidDPoPProof, "jti replay") }
            return nil
        } catch {
            return problem(401, .invalidDPoPProof, "\(error)")
        }
    }

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
