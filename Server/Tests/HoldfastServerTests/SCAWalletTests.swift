import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JOSE
import Synchronization
import Testing

/// The SCA wallet's back end (docs/server-api.md "SCA wallet (back end)"): a wallet made for a user, activated once with its code and the
/// registration core, locked, unlocked and deleted; and every proof that must fail, failing with its code.
@Suite struct SCAWalletTests {
    static let base = "https://api.bank.example"
    static let policies = #"""
    [{"method":"POST","pathTemplate":"/v1/beneficiaries","signedFields":"all","requiredPatterns":["pin","biometry"]},
     {"method":"GET","pathTemplate":"/v1/cardimages","signedFields":["cardId"],"requiredPatterns":["pin","biometry"]},
     {"method":"PUT","pathTemplate":"/v1/cards/{cardId}/Activate","signedFields":"all","requiredPatterns":[]},
     {"method":"PUT","pathTemplate":"/v1/cards/{cardId}","signedFields":"all","requiredPatterns":["pin"]},
     {"method":"DELETE","pathTemplate":"/v1/cards/{cardId}","signedFields":"all","requiredPatterns":["pin"]}]
    """#

    /// The credentials each test wallet enrolled (docs/DESIGN.md "The SCA wallet's PIN"), by wallet id.
    struct Enrolled: Sendable {
        let pinSecret: [UInt8]
        let keyShare: [UInt8]
        let pinKey: P256.Signing.PrivateKey
        let biometryKey: P256.Signing.PrivateKey?
    }
    static let enrolled = Mutex<[String: Enrolled]>([:])
    /// Proof counters, increasing over every test's proofs, so that each wallet's are increasing in the order made.
    static let counters = Mutex<Int64>(0)
    static func nextCounter() -> Int64 { counters.withLock { $0 += 1; return $0 } }

    /// A wallet made, activated with a fresh key over an assertion, and its PIN enrolled as a device does; the key and
    /// the wallet id.
    static func activatedWallet(_ kit: ServerTestKit, applicationId: String, userId: String = "user-1",
                                protection: SCAAccessProtection = .pin) async throws
        -> (key: P256.Signing.PrivateKey, walletId: String, code: String) {
        let created = try await kit.admin(SCARoutes.Template.wallets, .post,
                                          #"{"applicationId":"\#(applicationId)","userId":"\#(userId)","settings":{"accessProtection":"\#(protection.rawValue)"}}"#)
        try #require(created.status == .created, "\(created.text)")
        let wallet = try HoldfastJSON.decode(SCAWalletCreated.self, from: Data(created.body.readableBytesView))
        let key = P256.Signing.PrivateKey()
        let activation = try await activate(kit, applicationId: applicationId, code: wallet.activationCode, key: key)
        try #require(activation.status == .created, "\(activation.text)")
        if protection != .none {
            let credentials = Enrolled(pinSecret: random(), keyShare: random(), pinKey: P256.Signing.PrivateKey(),
                                       biometryKey: protection.allowsBiometry ? P256.Signing.PrivateKey() : nil)
            let answer = try await enrol(kit, walletId: wallet.walletId, key: key, credentials, protection: protection)
            try #require(answer.status == .ok, "\(answer.text)")
            enrolled.withLock { $0[wallet.walletId] = credentials }
        }
        return (key, wallet.walletId, wallet.activationCode)
    }

    static func enrol(_ kit: ServerTestKit, walletId: String, key: P256.Signing.PrivateKey, _ credentials: Enrolled,
                      protection: SCAAccessProtection = .pin, current: [UInt8]? = nil) async throws -> TestResponse {
        let pin = protection.allowsPIN
        let enrolment = SCACredentialsEnrolment(
            currentPinSecret: current.map(Base64URL.encode), pinSecret: pin ? Base64URL.encode(credentials.pinSecret) : nil,
            keyShare: pin ? Base64URL.encode(credentials.keyShare) : nil, pinKey: pin ? InstancePublicKey(credentials.pinKey.publicKey).encoded : nil,
            biometryKey: credentials.biometryKey.map { InstancePublicKey($0.publicKey).encoded })
        return try await device(kit, .put, SCARoutes.Template.credentials, walletId: walletId, key: key,
                                body: String(decoding: try HoldfastJSON.encode(enrolment), as: UTF8.self)).0
    }

    static func random() -> [UInt8] { (0 ..< 32).map { _ in UInt8.random(in: 0 ... 255) } }

    static func activate(_ kit: ServerTestKit, applicationId: String, code: String, key: P256.Signing.PrivateKey) async throws -> TestResponse {
        let registration = try ServerTestKit.registration(challenge: try await kit.challenge(applicationId), key: key)
        let request = SCAActivationRequest(activationCode: code, challenge: registration.challenge, publicKey: registration.publicKey,
                                           assertion: registration.assertion, device: .init(model: "iPhone16,1", appVersion: "2.4.0"))
        return try await kit.client.execute(uri: SCARoutes.Template.activations.template, method: .post, headers: .json(bearer: nil),
                                            body: jsonBody(String(decoding: try HoldfastJSON.encode(request), as: UTF8.self)))
    }

    /// A proof signed as a device signs it: by the wallet key `key` for `none`, by the wallet's enrolled PIN or biometry
    /// key for `pin` or `biometry` (`signingKey` overrides), with the next counter (`counter` overrides).
    static func proof(walletId: String, key: P256.Signing.PrivateKey, method: String, url: String, body: JSONValue?,
                      pattern: SCAPattern = .pin, iat: Date = Date(), jti: String = UUID().uuidString,
                      signedMethod: String? = nil, signedURL: String? = nil, signedBody: JSONValue? = nil,
                      signingKey: P256.Signing.PrivateKey? = nil, counter: Int64? = nil) throws -> String {
        let policies = try JSONDecoder().decode([SCAPolicy].self, from: Data(Self.policies.utf8))
        let payload = try SCAPayload(method: method, url: url, body: body,
                                     policy: SCAPolicy.matching(policies, method: method, url: URL(string: url)!))
        let claims = SCAProofClaims(method: signedMethod ?? payload.method, url: signedURL ?? payload.url, body: signedBody ?? payload.body, message: "Approve", pattern: pattern,
                                    signatureInputData: .null, walletId: walletId, iat: Int64(iat.timeIntervalSince1970), jti: jti,
                                    counter: counter ?? nextCounter())
        let credentials = enrolled.withLock { $0[walletId] }
        let signer = signingKey ?? (pattern == .pin ? credentials?.pinKey : pattern == .biometry ? credentials?.biometryKey : nil) ?? key
        return try JWS.sign(payload: try JSONEncoder().encode(claims), header: claims.header, key: JWSSigningKey(signer)).compactSerialization
    }

    static func verify(_ kit: ServerTestKit, proof: String, method: String, url: String, body: JSONValue?,
                       bearer: String? = nil) async throws -> SCAProofVerification {
        let request = SCAProofVerifyRequest(proof: proof, method: method, url: url, body: body)
        let answer = try await kit.client.execute(uri: SCARoutes.Template.verifyProof.template, method: .post, headers: .json(bearer: bearer ?? kit.adminKey),
                                                  body: jsonBody(String(decoding: try HoldfastJSON.encode(request), as: UTF8.self)))
        try #require(answer.status == .ok, "\(answer.status) \(answer.text)")
        return try HoldfastJSON.decode(SCAProofVerification.self, from: Data(answer.body.readableBytesView))
    }

    @Test(arguments: StorageBackend.available)
    func aWalletIsMadeActivatedOnceLockedUnlockedAndDeleted(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let applicationId = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let (key, walletId, code) = try await Self.activatedWallet(kit, applicationId: applicationId)
            // The code is spent: a second activation, even with a new key and challenge, is refused.
            let again = try await Self.activate(kit, applicationId: applicationId, code: code, key: P256.Signing.PrivateKey())
            #expect(again.status == .badRequest && again.problem?.code == "INVALID_ACTIVATION_CODE")
            let unknown = try await Self.activate(kit, applicationId: applicationId, code: "0000-0000-0000", key: key)
            #expect(unknown.problem?.code == "INVALID_ACTIVATION_CODE")

            let wallet = try await kit.admin(SCARoutes.Template.wallet, ["walletId": walletId], .get).wire(SCAWallet.self)
            #expect(wallet.state == "active" && wallet.userId == "user-1" && wallet.accessProtection == "pin")
            #expect(wallet.pinAttemptsLeft == 3 && wallet.device?.model == "iPhone16,1" && wallet.publicKeyJwk != nil)
            let listed = try await kit.admin(SCARoutes.Template.wallets, query: "?userId=user-1", .get).wire(SCAWalletList.self)
            #expect(listed.data.map(\.id) == [walletId])

            let locked = try await kit.admin(SCAAdminRoutes.Template.lock, ["walletId": walletId], .put, #"{"reason":"LOST_DEVICE"}"#)
            #expect(try locked.wire(SCAWallet.self).state == "locked")
            #expect(try await kit.admin(SCAAdminRoutes.Template.lock, ["walletId": walletId], .put, #"{"reason":"BORED"}"#).status == .badRequest)
            // PIN_ATTEMPTS is the tenant's own reason, not one a back end gives.
            #expect(try await kit.admin(SCAAdminRoutes.Template.lock, ["walletId": walletId], .put, #"{"reason":"PIN_ATTEMPTS"}"#)
                .problem?.errors?.first?.field == "reason")
            #expect(try await kit.admin(SCAAdminRoutes.Template.unlock, ["walletId": walletId], .put).wire(SCAWallet.self).state == "active")
            #expect(try await kit.admin(SCAAdminRoutes.Template.resetCredentials, ["walletId": walletId], .put).status == .ok)
            #expect(try await kit.admin(SCARoutes.Template.wallet, ["walletId": walletId], .delete).status == .noContent)
            #expect(try await kit.admin(SCARoutes.Template.wallet, ["walletId": walletId], .get).wire(SCAWallet.self).state == "deleted")
            #expect(try await kit.admin(SCAAdminRoutes.Template.unlock, ["walletId": walletId], .put).status == .conflict)

            // Every change is an event for the device, in order.
            let types = try await TestServices.with(kit.configuration) { services in
                try await services.database.sql.raw("SELECT type FROM sca_events WHERE wallet_id = \(bind: walletId) ORDER BY sequence").all()
                    .map { try $0.decode(column: "type", as: String.self) }
            }
            #expect(types == ["loaded", "locked", "unlocked", "credentialsReset", "deleted"])
            #expect(try await kit.admin(SCARoutes.Template.wallets, .post, #"{"applicationId":"\#(applicationId)","userId":""}"#).status == .badRequest)
            #expect(try await kit.admin(SCARoutes.Template.wallets, .post, #"{"applicationId":"\#(UUID().uuidString.lowercased())","userId":"u"}"#).status == .notFound)
        }
    }

    @Test(arguments: StorageBackend.available)
    func proofsThatMustFailFailWithTheirCodes(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let applicationId = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            #expect(try await kit.admin(SCARoutes.Template.policies, .put, Self.policies).status == .ok)
            let policies = try await kit.client.execute(uri: SCARoutes.Template.policies.template, method: .get)
            #expect(policies.status == .ok)
            let served = try JSONDecoder().decode([SCAPolicy].self, from: Data(policies.body.readableBytesView))
            #expect(served.count == 5)
            let (key, walletId, _) = try await Self.activatedWallet(kit, applicationId: applicationId)
            let beneficiary: JSONValue = .object(["name": .string("Alex Martin"), "iban": .string("FR7630001007941234567890185"),
                                                  "accessTag": .string("t-1")])
            let url = "\(Self.base)/v1/beneficiaries"

            let good = try Self.proof(walletId: walletId, key: key, method: "POST", url: url, body: beneficiary)
            let accepted = try await Self.verify(kit, proof: good, method: "POST", url: url, body: beneficiary)
            #expect(accepted.valid && accepted.walletId == walletId && accepted.userId == "user-1" && accepted.pattern == .pin, "\(accepted)")
            func code(_ proof: String, method: String = "POST", url: String = url, body: JSONValue? = beneficiary) async throws -> SCAProofFailureCode? {
                try await Self.verify(kit, proof: proof, method: method, url: url, body: body).code
            }
            // Replayed.
            #expect(try await code(good) == SCAProofFailureCode.replayed)
            // For another url, or with a field added or removed.
            #expect(try await code(try Self.proof(walletId: walletId, key: key, method: "POST", url: url, body: beneficiary),
                                   url: "\(Self.base)/v1/beneficiaries?x=1".replacingOccurrences(of: "beneficiaries?x=1", with: "beneficiaries2"))
                    == SCAProofFailureCode.policyNotFound)
            var added = beneficiary.objectValue!
            added["bic"] = .string("BDFEFRPPCCT")
            #expect(try await code(try Self.proof(walletId: walletId, key: key, method: "POST", url: url, body: beneficiary), body: .object(added))
                    == SCAProofFailureCode.payloadMismatch)
            #expect(try await code(try Self.proof(walletId: walletId, key: key, method: "POST", url: url, body: beneficiary),
                                   body: .object(["name": .string("Alex Martin")])) == SCAProofFailureCode.payloadMismatch)
            #expect(try await code(try Self.proof(walletId: walletId, key: key, method: "POST", url: url, body: beneficiary,
                                                  signedURL: "https://evil.example/v1/beneficiaries")) == SCAProofFailureCode.payloadMismatch)
            // A proof for DELETE of a card presented with a PUT of the same card, the same url and the same body `{}`,
            // both methods having policies: only the signed method differs, and it is refused for it.
            let card = "\(Self.base)/v1/cards/998"
            let deletion = try Self.proof(walletId: walletId, key: key, method: "DELETE", url: card, body: nil)
            #expect(try await code(deletion, method: "PUT", url: card, body: .object([:])) == SCAProofFailureCode.methodMismatch)
            #expect(try await Self.verify(kit, proof: deletion, method: "DELETE", url: card, body: nil).valid)
            #expect(try await code(try Self.proof(walletId: walletId, key: key, method: "PUT", url: card, body: .object([:]), signedMethod: "put"),
                                   method: "PUT", url: card, body: .object([:])) == SCAProofFailureCode.methodMismatch)
            // A GET whose query was changed after signing.
            let images = "\(Self.base)/v1/cardimages?cardId=123"
            #expect(try await code(try Self.proof(walletId: walletId, key: key, method: "GET", url: images, body: nil), method: "GET",
                                   url: "\(Self.base)/v1/cardimages?cardId=124", body: nil) == SCAProofFailureCode.payloadMismatch)
            #expect(try await Self.verify(kit, proof: try Self.proof(walletId: walletId, key: key, method: "GET", url: images, body: nil),
                                          method: "GET", url: images + "&accessTag=z", body: nil).valid)
            // A pattern weaker than the policy; possession alone where the policy asks for nothing more.
            #expect(try await code(try Self.proof(walletId: walletId, key: key, method: "POST", url: url, body: beneficiary, pattern: .none))
                    == SCAProofFailureCode.patternInsufficient)
            let activate = "\(Self.base)/v1/cards/9/Activate"
            #expect(try await Self.verify(kit, proof: try Self.proof(walletId: walletId, key: key, method: "PUT", url: activate, body: nil, pattern: .none),
                                          method: "PUT", url: activate, body: nil).valid)
            // Signed by another key; iat too old; not a proof at all.
            #expect(try await code(try Self.proof(walletId: walletId, key: key, method: "POST", url: url, body: beneficiary,
                                                  signingKey: P256.Signing.PrivateKey())) == SCAProofFailureCode.signatureInvalid)
            // A pin proof signed by the wallet key, which signs without the PIN: the pattern is the key's.
            #expect(try await code(try Self.proof(walletId: walletId, key: key, method: "POST", url: url, body: beneficiary, signingKey: key))
                    == SCAProofFailureCode.signatureInvalid)
            #expect(try await code(try Self.proof(walletId: walletId, key: key, method: "POST", url: url, body: beneficiary,
                                                  iat: Date().addingTimeInterval(-301))) == SCAProofFailureCode.expired)
            #expect(try await code("not.a.proof") == SCAProofFailureCode.malformed)
            #expect(try await code(try Self.proof(walletId: UUID().uuidString.lowercased(), key: key, method: "POST", url: url, body: beneficiary))
                    == SCAProofFailureCode.walletNotFound)
            // From a locked wallet, then a deleted one.
            _ = try await kit.admin(SCAAdminRoutes.Template.lock, ["walletId": walletId], .put, #"{"reason":"FRAUD_SUSPICION"}"#)
            #expect(try await code(try Self.proof(walletId: walletId, key: key, method: "POST", url: url, body: beneficiary)) == SCAProofFailureCode.walletLocked)
            _ = try await kit.admin(SCAAdminRoutes.Template.unlock, ["walletId": walletId], .put)
            #expect(try await Self.verify(kit, proof: try Self.proof(walletId: walletId, key: key, method: "POST", url: url, body: beneficiary),
                                          method: "POST", url: url, body: beneficiary).valid)
            _ = try await kit.admin(SCARoutes.Template.wallet, ["walletId": walletId], .delete)
            #expect(try await code(try Self.proof(walletId: walletId, key: key, method: "POST", url: url, body: beneficiary)) == SCAProofFailureCode.walletDeleted)

            // A key of scope sca may verify and do nothing else; a verifier key may not verify.
            let sca = try await kit.admin(AdminKeyRoutes.Template.keys, .post, #"{"name":"bank","scope":"sca"}"#).wire(CreatedAdminKey.self)
            #expect(try await code(good).map { _ in true } == true)
            #expect(try await Self.verify(kit, proof: good, method: "POST", url: url, body: beneficiary, bearer: sca.key).code != nil)
            #expect(try await kit.client.execute(uri: SCARoutes.Template.wallets.template + "?userId=user-1", method: .get, headers: .bearer(sca.key)).status == .forbidden)
            let verifier = try await kit.admin(AdminKeyRoutes.Template.keys, .post, #"{"name":"web","scope":"verifier"}"#).wire(CreatedAdminKey.self)
            let refused = try await kit.client.execute(uri: SCARoutes.Template.verifyProof.template, method: .post, headers: .json(bearer: verifier.key),
                                                       body: jsonBody(#"{"proof":"x","method":"GET","url":"https://a.example/"}"#))
            #expect(refused.status == .forbidden)
        }
    }

    /// A device call to a wallet route of the contract (`SCARoutes.Template.pinAttempts`, `.events`) for `walletId`,
    /// `query` appended as written, with a DPoP proof of `key` (RFC 9449; no access token).
    static func device(_ kit: ServerTestKit, _ method: HTTPRequest.Method, _ route: RouteTemplate, walletId: String, query: String = "",
                       key: P256.Signing.PrivateKey, body: String? = nil, proof: String? = nil,
                       headers extra: HTTPFields = [:]) async throws -> (TestResponse, String) {
        let path = route.path(["walletId": walletId])
        let dpop = try proof ?? DPoPProof.create(method: method.rawValue, uri: ServerTestKit.publicURL + path,
                                                 key: JWSSigningKey(key), issuedAt: Date())
        var headers = body == nil ? HTTPFields() : HTTPFields.json(bearer: nil)
        headers[HTTPField.Name("DPoP")!] = dpop
        headers.append(contentsOf: extra)
        return (try await kit.client.execute(uri: path + query, method: method, headers: headers, body: body.map(jsonBody)), dpop)
    }

    /// Server-sent events as (id, type) pairs.
    static func events(_ text: String) -> [(Int64, String)] {
        text.components(separatedBy: "\n\n").compactMap { block in
            let lines = block.split(separator: "\n")
            guard let id = lines.first(where: { $0.hasPrefix("id: ") }).flatMap({ Int64($0.dropFirst(4)) }),
                  let type = lines.first(where: { $0.hasPrefix("event: ") }).map({ String($0.dropFirst(7)) }) else { return nil }
            return (id, type)
        }
    }

    /// The device's side: the PIN secret checked here, wrong ones counted to the lock, the key share released only for
    /// the right one; the events in order and resumable, every call made with the wallet key and single use.
    @Test(arguments: StorageBackend.available)
    func theDevicesPinAttemptsAreCheckedHereAndItReadsItsEvents(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let applicationId = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let (key, walletId, _) = try await Self.activatedWallet(kit, applicationId: applicationId)
            let credentials = try #require(Self.enrolled.withLock { $0[walletId] })
            let attempts = SCARoutes.Template.pinAttempts
            let wrongSecret = #"{"pinSecret":"\#(Base64URL.encode(Self.random()))"}"#
            let rightSecret = #"{"pinSecret":"\#(Base64URL.encode(credentials.pinSecret))"}"#
            let (first, used) = try await Self.device(kit, .post, attempts, walletId: walletId, key: key, body: wrongSecret)
            #expect(first.status == .ok)
            #expect(try first.wire(SCAPinAttemptResult.self) == SCAPinAttemptResult(outcome: .failure, pinAttemptsLeft: 2, state: "active"))
            // The same proof again, another key's proof, no proof: refused before anything is counted.
            #expect(try await Self.device(kit, .post, attempts, walletId: walletId, key: key, body: wrongSecret, proof: used).0.status == .unauthorized)
            #expect(try await Self.device(kit, .post, attempts, walletId: walletId, key: P256.Signing.PrivateKey(), body: wrongSecret).0.status == .unauthorized)
            #expect(try await kit.client.execute(uri: attempts.path(["walletId": walletId]), method: .post, headers: .json(bearer: nil), body: jsonBody(wrongSecret)).status == .unauthorized)
            // Not a secret, or the old report of an outcome (which a copy of the device could send to win its attempts back).
            #expect(try await Self.device(kit, .post, attempts, walletId: walletId, key: key, body: #"{"pinSecret":"short"}"#).0.problem?.errors?.first?.field == "pinSecret")
            #expect(try await Self.device(kit, .post, attempts, walletId: walletId, key: key, body: #"{"outcome":"success"}"#).0.status == .badRequest)
            let right = try await Self.device(kit, .post, attempts, walletId: walletId, key: key, body: rightSecret).0.wire(SCAPinAttemptResult.self)
            #expect(right == SCAPinAttemptResult(outcome: .success, pinAttemptsLeft: 3, state: "active", keyShare: Base64URL.encode(credentials.keyShare)))
            for left in [2, 1] {
                let wrong = try await Self.device(kit, .post, attempts, walletId: walletId, key: key, body: wrongSecret).0.wire(SCAPinAttemptResult.self)
                #expect(wrong.pinAttemptsLeft == left && wrong.keyShare == nil)
            }
            let locking = try await Self.device(kit, .post, attempts, walletId: walletId, key: key, body: wrongSecret).0
            #expect(try locking.wire(SCAPinAttemptResult.self) == SCAPinAttemptResult(outcome: .failure, pinAttemptsLeft: 0, state: "locked"))
            // Brute force beyond the maximum needs the back end: a locked wallet takes no more attempts, the right one neither.
            #expect(try await Self.device(kit, .post, attempts, walletId: walletId, key: key, body: rightSecret).0.status == .conflict)
            #expect(try await kit.admin(SCARoutes.Template.wallet, ["walletId": walletId], .get).wire(SCAWallet.self).lockReason == "PIN_ATTEMPTS")

            let feed = SCARoutes.Template.events, wait0 = "?\(SCARoutes.Query.wait)=0"
            let all = Self.events(try await Self.device(kit, .get, feed, walletId: walletId, query: wait0, key: key).0.text)
            #expect(all.map(\.1) == ["loaded", "countersUpdated", "countersUpdated", "countersUpdated", "countersUpdated", "locked"])
            #expect(all.map(\.0) == all.map(\.0).sorted())
            // Resumed from the last id seen: only what came after.
            _ = try await kit.admin(SCAAdminRoutes.Template.unlock, ["walletId": walletId], .put)
            let resumed = try await Self.device(kit, .get, feed, walletId: walletId, query: wait0, key: key, headers: [HTTPField.Name("Last-Event-ID")!: String(all.last!.0)]).0
            #expect(resumed.headers[.contentType] == "text/event-stream")
            #expect(Self.events(resumed.text).map(\.1) == ["unlocked"])
            #expect(try await Self.device(kit, .get, feed, walletId: walletId, query: "?\(SCARoutes.Query.wait)=61", key: key).0.status == .badRequest)
            // An event that comes while the feed is open is written to it.
            async let waiting = Self.device(kit, .get, feed, walletId: walletId,
                                        query: "?\(SCARoutes.Query.wait)=8&\(SCARoutes.Query.after)=\(all.last!.0 + 1)", key: key)
            try await Task.sleep(for: .milliseconds(700))
            _ = try await kit.admin(SCAAdminRoutes.Template.resetCredentials, ["walletId": walletId], .put)
            #expect(Self.events(try await waiting.0.text).map(\.1) == ["credentialsReset"])
        }
    }

    @Test(arguments: StorageBackend.available)
    func eligibilityRulesDecideChecksRecordDenialsAndTellActivatedWallets(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let applicationId = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let (_, walletId, _) = try await Self.activatedWallet(kit, applicationId: applicationId)   // iPhone16,1, app 2.4.0
            func check(model: String, version: String, compromised: Bool = false) async throws -> SCAEligibilityCheckResponse {
                let request = SCAEligibilityCheckRequest(applicationId: applicationId, device: .init(model: model, appVersion: version),
                                                         integrity: .init(compromised: compromised, signals: compromised ? ["root"] : nil))
                let answer = try await kit.client.execute(uri: SCARoutes.Template.eligibilityChecks.template, method: .post, headers: .json(bearer: nil),
                                                          body: jsonBody(String(decoding: try HoldfastJSON.encode(request), as: UTF8.self)))
                try #require(answer.status == .ok, "\(answer.text)")
                return try HoldfastJSON.decode(SCAEligibilityCheckResponse.self, from: Data(answer.body.readableBytesView))
            }
            #expect(try await check(model: "iPhone16,1", version: "2.4.0").eligible)
            let sunset = Date().addingTimeInterval(30 * 86_400)
            let rules = SCAEligibilityRules(blockedDeviceModels: ["iPhone9,1"], minimumAppVersions: [
                SCAMinimumAppVersion(version: "2.0"),
                SCAMinimumAppVersion(applicationId: applicationId, version: "2.5", sunsetAt: sunset),
            ])
            let put = try await kit.admin(SCARoutes.Template.eligibility, .put, String(decoding: try HoldfastJSON.encode(rules), as: UTF8.self))
            #expect(put.status == .ok, "\(put.text)")
            #expect(try await kit.admin(SCARoutes.Template.eligibility, .get).wire(SCAEligibilityRules.self).blockedDeviceModels == ["iPhone9,1"])
            #expect(try await kit.admin(SCARoutes.Template.eligibility, .put, #"{"blockedDeviceModels":[],"minimumAppVersions":[{"version":"two"}]}"#)
                .problem?.errors?.first?.field == "minimumAppVersions[0].version")

            // Integrity, then model, then version; each denial recorded under its reference.
            let rooted = try await check(model: "iPhone16,1", version: "2.4.0", compromised: true)
            #expect(!rooted.eligible && rooted.reason == SCAIneligibilityReason.deviceIntegrity)
            let blocked = try await check(model: "iPhone9,1", version: "2.4.0")
            #expect(!blocked.eligible && blocked.reason == SCAIneligibilityReason.deviceModelBlocked)
            let old = try await check(model: "iPhone16,1", version: "1.9.9")
            #expect(!old.eligible && old.reason == SCAIneligibilityReason.appVersionUnsupported)
            let scheduled = try await check(model: "iPhone16,1", version: "2.4.0")
            #expect(scheduled.eligible && scheduled.appSunset?.version == "2.5" && scheduled.denialReference == nil)
            #expect(try await check(model: "iPhone16,1", version: "2.5.0").appSunset == nil)
            let reference = try #require(blocked.denialReference)
            let denial = try await kit.admin(SCAAdminRoutes.Template.denial, ["reference": reference], .get).wire(SCAEligibilityDenial.self)
            #expect(denial.reason == SCAIneligibilityReason.deviceModelBlocked && denial.device.model == "iPhone9,1")
            #expect(try await kit.admin(SCAAdminRoutes.Template.denial, ["reference": try #require(rooted.denialReference)], .get)
                .wire(SCAEligibilityDenial.self).signals == ["root"])
            #expect(try await kit.admin(SCAAdminRoutes.Template.denial, ["reference": "DEN-nope"], .get).status == .notFound)

            // The activated wallet (2.4.0) hears of its sunset once; blocking its model loses it its eligibility.
            _ = try await kit.admin(SCARoutes.Template.eligibility, .put, String(decoding: try HoldfastJSON.encode(rules), as: UTF8.self))
            var blocking = rules
            blocking.blockedDeviceModels.append("iPhone16,1")
            _ = try await kit.admin(SCARoutes.Template.eligibility, .put, String(decoding: try HoldfastJSON.encode(blocking), as: UTF8.self))
            let events = try await TestServices.with(kit.configuration) { services in
                try await services.database.sql.raw("SELECT type, data FROM sca_events WHERE wallet_id = \(bind: walletId) ORDER BY sequence").all()
                    .map { "\(try $0.decode(column: "type", as: String.self)) \(try $0.decode(column: "data", as: String.self))" }
            }
            #expect(events.count == 3, "\(events)")
            #expect(events.dropFirst().first?.hasPrefix("appSunsetScheduled") == true && events.dropFirst().first?.contains("2.5") == true)
            #expect(events.last == #"deviceEligibilityLost {"reason":"DEVICE_MODEL_BLOCKED"}"#)
        }
    }

    /// The check is public: past the hourly cap over all sources a denial is answered but not stored.
    @Test func eligibilityDenialsStopBeingStoredAtTheHourlyCap() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let applicationId = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            try await TestServices.with(kit.configuration) { services in
                var service = SCAServices(database: services.database, logger: services.logger, random: services.random).eligibility
                service.maximumDenialsPerHour = 2
                var references: [String] = []
                for _ in 0..<3 {
                    let answer = try await service.check(SCAEligibilityCheckRequest(applicationId: applicationId, device: .init(model: "m", appVersion: "1"),
                                                                                     integrity: .init(compromised: true)), now: Date())
                    #expect(!answer.eligible && answer.reason == SCAIneligibilityReason.deviceIntegrity)
                    references.append(try #require(answer.denialReference))
                }
                #expect(try await service.denial(reference: references[1]).reason == SCAIneligibilityReason.deviceIntegrity)
                await #expect(throws: SCAError.denialNotFound(reference: references[2])) { try await service.denial(reference: references[2]) }
            }
        }
    }
}
