import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastServer
import HummingbirdTesting
import JOSE
import Testing
import TestSupport

/// docs/server-api.md "Play Integrity": tokens made here in exactly the format the Play Integrity API hands a device (compact
/// JWE, A256KW + A256GCM, around a compact ES256 JWS) with the suite's own keys, each refusal by a token honest in
/// every other way; and one token made by a second implementation (python `cryptography`).
@Suite struct PlayIntegrityTests {
    /// The keys the Play Console would give, and the verdict a device on a genuine, Play-recognised install gets.
    struct Console: Sendable {
        let decryptionKey = SymmetricKey(size: .bits256)
        let signingKey = P256.Signing.PrivateKey()
        var decryptionKeyBase64: String { decryptionKey.withUnsafeBytes { Data($0).base64EncodedString() } }

        func settings(_ extra: String = "") -> String {
            let pem = signingKey.publicKey.pemRepresentation.replacingOccurrences(of: "\n", with: "\\n")
            return #"{"decryptionKey":"\#(decryptionKeyBase64)","verificationKey":"\#(pem)"\#(extra)}"#
        }

        /// The payload for `nonce`, with `change` applied to the honest one.
        static func payload(nonce: BindingNonce, at now: Date = Date(), _ change: (inout [String: Any]) -> Void = { _ in }) -> [String: Any] {
            let digest = Base64URL.encode(ServerTestKit.signingDigest)
            var request: [String: Any] = ["requestPackageName": "com.example.wallet", "nonce": Base64URL.encode(nonce.bytes),
                                          "timestampMillis": String(Int64(now.timeIntervalSince1970 * 1000))]
            var app: [String: Any] = ["appRecognitionVerdict": "PLAY_RECOGNIZED", "packageName": "com.example.wallet",
                                      "certificateSha256Digest": [digest], "versionCode": "42"]
            var device: [String: Any] = ["deviceRecognitionVerdict": ["MEETS_DEVICE_INTEGRITY"]]
            var payload: [String: Any] = ["requestDetails": request, "appIntegrity": app, "deviceIntegrity": device,
                                          "accountDetails": ["appLicensingVerdict": "LICENSED"]]
            change(&payload)
            request = payload["requestDetails"] as? [String: Any] ?? request
            app = payload["appIntegrity"] as? [String: Any] ?? app
            device = payload["deviceIntegrity"] as? [String: Any] ?? device
            return payload
        }

        func token(_ payload: [String: Any], signer: P256.Signing.PrivateKey? = nil, kek: SymmetricKey? = nil) throws -> String {
            let json = try JSONSerialization.data(withJSONObject: payload)
            let jws = try JWS.sign(payload: Array(json), key: JWSSigningKey(signer ?? signingKey))
            return try JWE.encrypt(plaintext: Array(jws.compactSerialization.utf8), keyEncryptionKey: kek ?? decryptionKey)
        }
    }

    static func application(_ console: Console, name: String = "Wallet Android \(UUID().uuidString.prefix(8))",
                            keyAttestationRequired: Bool = false, playIntegrity extra: String = "") -> String {
        let thumbprint = ServerTestKit.signingDigest.map { String(format: "%02x", $0) }.joined()
        return #"{"type":"android","name":"\#(name)","clientId":"wallet-android","packageName":"com.example.wallet","packageSigningCertificateThumbprints":["\#(thumbprint)"],"keyAttestation":{"required":\#(keyAttestationRequired)},"playIntegrity":\#(console.settings(extra))}"#
    }

    /// A registration whose `integrityToken` is made by `make` from the binding nonce; with an assertion unless
    /// `alone`.
    static func register(_ kit: ServerTestKit, _ applicationId: String, alone: Bool = true,
                         chain: Bool = false, make: (BindingNonce) async throws -> String?) async throws -> TestResponse {
        let challenge = try await kit.challenge(applicationId)
        let key = P256.Signing.PrivateKey()
        let nonce = BindingNonce(challenge: challenge, publicKey: InstancePublicKey(key.publicKey))
        var request: InstanceRegistrationRequest
        if chain {
            let certificates = try kit.authority.androidChain(instanceKey: key.publicKey, challenge: nonce.bytes,
                                                              packageName: "com.example.wallet", signingDigest: ServerTestKit.signingDigest)
            request = try ServerTestKit.registration(challenge: challenge, key: key,
                                                     attestation: .androidKeyAttestation(certificateChain: certificates))
        } else {
            request = try ServerTestKit.registration(challenge: challenge, key: key, assertion: !alone)
        }
        request.integrityToken = try await make(nonce)
        return try await kit.register(applicationId, request)
    }

    static func instances(_ kit: ServerTestKit, _ applicationId: String) async throws -> [InstanceListItem] {
        try await kit.admin(TetheringRoutes.Template.instances, ["applicationId": applicationId], .get).wire(InstancePage.self).data
    }

    // MARK: settings

    @Test(arguments: StorageBackend.available)
    func theDecryptionKeyIsSealedAndNeverShown(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let console = Console()
            let name = "Wallet Android \(UUID().uuidString.prefix(8))"
            let created = try await kit.admin(TetheringRoutes.Template.applications, .post, Self.application(console, name: name))
            #expect(created.status == .created, "\(created.text)")
            let id = try #require(try created.wire(HolderApplication.self).id)
            let shown = try await kit.admin(TetheringRoutes.Template.application, ["applicationId": id], .get).text
            let listed = try await kit.admin(TetheringRoutes.Template.applications, .get).text
            for text in [created.text, shown, listed] {
                #expect(!text.contains(console.decryptionKeyBase64) && !text.contains("decryptionKey")
                        && !text.contains("sealedDecryptionKey"), "\(text)")
            }
            let json = try #require(try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])
            let integrity = try #require(json["playIntegrity"] as? [String: Any])
            #expect(integrity["required"] as? Bool == false && integrity["requiredDeviceVerdict"] as? String == "MEETS_DEVICE_INTEGRITY"
                    && integrity["requirePlayRecognized"] as? Bool == true && integrity["maxAgeSeconds"] as? Int == 300)
            // At rest: sealed under the master key, not the key itself.
            let stored = try #require(try await StorageBackend.withDatabase(kit.configuration.database) { database in
                try await HolderApplicationStore(database: database).get(id: id)
            })
            guard case .android(let settings) = stored.platform else { Issue.record("not android"); return }
            let seal = try #require(settings.playIntegrity?.sealedDecryptionKey)
            #expect(settings.playIntegrity?.decryptionKey == nil && !seal.contains(console.decryptionKeyBase64))
            // A PUT without the key (what GET shows) keeps the sealed one: tokens still decrypt.
            var document = try #require(try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])
            document["id"] = nil
            let put = try await kit.admin(TetheringRoutes.Template.application, ["applicationId": id], .put,
                                          String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self))
            #expect(put.status == .ok, "\(put.text)")
            let registered = try await Self.register(kit, id) { try console.token(Console.payload(nonce: $0)) }
            #expect(registered.status == .created, "\(registered.text)")
        }
    }

    @Test func settingsAreValidated() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let console = Console()
            let short = Data(repeating: 1, count: 16).base64EncodedString()
            let cases: [(String, String, String)] = [
                (#"{"decryptionKey":"\#(short)","verificationKey":"PEM"}"#, "playIntegrity.decryptionKey", "INVALID_VALUE"),
                (#"{"decryptionKey":"\#(console.decryptionKeyBase64)","verificationKey":"not a key"}"#, "playIntegrity.verificationKey", "INVALID_VALUE"),
                (console.settings(#","maxAgeSeconds":5"#), "playIntegrity.maxAgeSeconds", "OUT_OF_RANGE"),
                (console.settings(#","requiredDeviceVerdict":"MEETS_NOTHING""#), "playIntegrity.requiredDeviceVerdict", "INVALID_VALUE"),
                (console.settings(#","requirePlayRecognized":null"#), "playIntegrity.requirePlayRecognized", "WRONG_TYPE"),
                (console.settings(#","sealedDecryptionKey":"AAAA""#), "playIntegrity.sealedDecryptionKey", "READ_ONLY"),
            ]
            let thumbprint = ServerTestKit.signingDigest.map { String(format: "%02x", $0) }.joined()
            for (integrity, field, code) in cases {
                let body = #"{"type":"android","name":"A \#(UUID().uuidString.prefix(8))","clientId":"c","packageName":"com.example.wallet","packageSigningCertificateThumbprints":["\#(thumbprint)"],"keyAttestation":{"required":false},"playIntegrity":\#(integrity)}"#
                let response = try await kit.admin(TetheringRoutes.Template.applications, .post, body)
                #expect(response.problemCode == "VALIDATION_FAILED", "\(field): \(response.text)")
                #expect(response.problem?.errors?.contains { $0.field.hasPrefix(field) && $0.code == code } == true, "\(field): \(response.text)")
            }
            // No key at all on creation.
            let pem = console.signingKey.publicKey.pemRepresentation.replacingOccurrences(of: "\n", with: "\\n")
            let keyless = #"{"type":"android","name":"B \#(UUID().uuidString.prefix(8))","clientId":"c","packageName":"com.example.wallet","packageSigningCertificateThumbprints":["\#(thumbprint)"],"keyAttestation":{"required":false},"playIntegrity":{"verificationKey":"\#(pem)"}}"#
            let response = try await kit.admin(TetheringRoutes.Template.applications, .post, keyless)
            #expect(response.problem?.errors?.first?.field == "playIntegrity.decryptionKey", "\(response.text)")
        }
    }

    // MARK: registration

    @Test(arguments: StorageBackend.available)
    func aTokenAloneRegistersAndTheInstanceShowsItsVerdicts(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let console = Console()
            let id = try #require(try await kit.createApplication(Self.application(console)).id)
            let response = try await Self.register(kit, id) { try console.token(Console.payload(nonce: $0)) }
            #expect(response.status == .created, "\(response.text)")
            let instance = try #require(try await Self.instances(kit, id).first)
            #expect(instance.attestation.playIntegrity == PlayIntegrityVerdicts(
                deviceRecognitionVerdict: ["MEETS_DEVICE_INTEGRITY"], appRecognitionVerdict: "PLAY_RECOGNIZED"))
            #expect(instance.attestation.androidVerifiedBoot == nil)
        }
    }

    @Test func aTokenBesideAKeyAttestationChainIsCheckedToo() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let console = Console()
            let id = try #require(try await kit.createApplication(Self.application(console, keyAttestationRequired: true)).id)
            let both = try await Self.register(kit, id, chain: true) { try console.token(Console.payload(nonce: $0)) }
            #expect(both.status == .created, "\(both.text)")
            let instance = try #require(try await Self.instances(kit, id).first)
            #expect(instance.attestation == InstanceAttestation(
                androidVerifiedBoot: .verified, bootloaderLocked: true,
                playIntegrity: PlayIntegrityVerdicts(deviceRecognitionVerdict: ["MEETS_DEVICE_INTEGRITY"], appRecognitionVerdict: "PLAY_RECOGNIZED")))
            // A good chain does not carry a bad token.
            let badToken = try await Self.register(kit, id, chain: true) {
                try console.token(Console.payload(nonce: $0) { $0["deviceIntegrity"] = ["deviceRecognitionVerdict": [String]()] })
            }
            #expect(badToken.problemCode == "ATTESTATION_FAILED", "\(badToken.text)")
            // And the token does not stand in for a chain the application requires.
            let tokenOnly = try await Self.register(kit, id) { try console.token(Console.payload(nonce: $0)) }
            #expect(tokenOnly.problemCode == "ATTESTATION_REQUIRED", "\(tokenOnly.text)")
        }
    }

    @Test func requiredMeansARegistrationWithoutATokenIsRefused() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let console = Console()
            let id = try #require(try await kit.createApplication(Self.application(console, playIntegrity: #","required":true"#)).id)
            let without = try await Self.register(kit, id, alone: false) { _ in nil }
            #expect(without.status == .forbidden)
            #expect(without.problemCode == "ATTESTATION_REQUIRED", "\(without.text)")
            let with = try await Self.register(kit, id, alone: false) { try console.token(Console.payload(nonce: $0)) }
            #expect(with.status == .created, "\(with.text)")
        }
    }

    /// Every check, each by a token honest in every other way: (what, extra settings, token maker, problem code,
    /// Play Integrity code).
    @Test func eachCheckRefusesOnItsOwn() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let console = Console()
            let other = Console()
            typealias Maker = @Sendable (BindingNonce) throws -> String
            // Each token is dated when it is made, right before its registration: the cases run one after another.
            let cases: [(String, String, Maker, String, String)] = [
                ("another decryption key", "", { try console.token(Console.payload(nonce: $0), kek: other.decryptionKey) },
                 "ATTESTATION_FAILED", "PLAY_INTEGRITY_DECRYPTION_FAILED"),
                ("another signing key", "", { try console.token(Console.payload(nonce: $0), signer: other.signingKey) },
                 "ATTESTATION_FAILED", "PLAY_INTEGRITY_SIGNATURE_INVALID"),
                ("the nonce as padded standard base64", "", { nonce in
                    try console.token(Console.payload(nonce: nonce) { payload in
                        var request = payload["requestDetails"] as! [String: Any]
                        request["nonce"] = Data(nonce.bytes).base64EncodedString()
                        payload["requestDetails"] = request
                    })
                }, "INVALID_CHALLENGE", "PLAY_INTEGRITY_NONCE_MISMATCH"),
                ("another requestPackageName", "", { try console.token(Console.payload(nonce: $0) { payload in
                    var request = payload["requestDetails"] as! [String: Any]
                    request["requestPackageName"] = "com.evil.wallet"
                    payload["requestDetails"] = request
                }) }, "ATTESTATION_FAILED", "PLAY_INTEGRITY_PACKAGE_MISMATCH"),
                ("another appIntegrity.packageName", "", { try console.token(Console.payload(nonce: $0) { payload in
                    var app = payload["appIntegrity"] as! [String: Any]
                    app["packageName"] = "com.evil.wallet"
                    payload["appIntegrity"] = app
                }) }, "ATTESTATION_FAILED", "PLAY_INTEGRITY_PACKAGE_MISMATCH"),
                ("another signing certificate", "", { try console.token(Console.payload(nonce: $0) { payload in
                    var app = payload["appIntegrity"] as! [String: Any]
                    app["certificateSha256Digest"] = [Base64URL.encode([UInt8](repeating: 0xCD, count: 32))]
                    payload["appIntegrity"] = app
                }) }, "ATTESTATION_FAILED", "PLAY_INTEGRITY_CERTIFICATE_MISMATCH"),
                ("basic integrity where device is required", "", { try console.token(Console.payload(nonce: $0) {
                    $0["deviceIntegrity"] = ["deviceRecognitionVerdict": ["MEETS_BASIC_INTEGRITY"]]
                }) }, "ATTESTATION_FAILED", "PLAY_INTEGRITY_DEVICE_VERDICT"),
                ("device integrity where strong is required", #","requiredDeviceVerdict":"MEETS_STRONG_INTEGRITY""#, {
                    try console.token(Console.payload(nonce: $0))
                }, "ATTESTATION_FAILED", "PLAY_INTEGRITY_DEVICE_VERDICT"),
                ("an app Play does not recognise", "", { try console.token(Console.payload(nonce: $0) { payload in
                    var app = payload["appIntegrity"] as! [String: Any]
                    app["appRecognitionVerdict"] = "UNRECOGNIZED_VERSION"
                    payload["appIntegrity"] = app
                }) }, "ATTESTATION_FAILED", "PLAY_INTEGRITY_APP_NOT_RECOGNIZED"),
                ("a token older than maxAgeSeconds and the skew", "", {
                    try console.token(Console.payload(nonce: $0, at: Date().addingTimeInterval(-300 - 60 - 30)))
                }, "ATTESTATION_FAILED", "PLAY_INTEGRITY_TIMESTAMP"),
                ("a token from the future beyond the skew", "", {
                    try console.token(Console.payload(nonce: $0, at: Date().addingTimeInterval(60 + 30)))
                }, "ATTESTATION_FAILED", "PLAY_INTEGRITY_TIMESTAMP"),
                ("not a JWE", "", { _ in "not.a.token" }, "INVALID_ATTESTATION", "PLAY_INTEGRITY_MALFORMED"),
            ]
            for (what, extra, make, problem, code) in cases {
                let id = try #require(try await kit.createApplication(Self.application(console, playIntegrity: extra)).id)
                let response = try await Self.register(kit, id, make: make)
                #expect(response.problemCode == problem, "\(what): \(response.text)")
                #expect(response.problem?.detail?.contains(code) == true, "\(what): \(response.text)")
            }
        }
    }

    /// The other side of each threshold: what the rules allow is accepted.
    @Test func whatTheRulesAllowIsAccepted() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let console = Console()
            // Each token is dated when it is made, right before its registration: the cases run one after another.
            typealias Maker = @Sendable (BindingNonce) throws -> String
            let cases: [(String, String, Maker)] = [
                ("strong integrity where device is required (STRONG implies DEVICE)", "", { try console.token(Console.payload(nonce: $0) {
                    $0["deviceIntegrity"] = ["deviceRecognitionVerdict": ["MEETS_STRONG_INTEGRITY"]]
                }) }),
                ("basic where basic is required", #","requiredDeviceVerdict":"MEETS_BASIC_INTEGRITY""#, { try console.token(Console.payload(nonce: $0) {
                    $0["deviceIntegrity"] = ["deviceRecognitionVerdict": ["MEETS_BASIC_INTEGRITY"]]
                }) }),
                ("an unrecognised app where recognition is not required", #","requirePlayRecognized":false"#, {
                    try console.token(Console.payload(nonce: $0) { payload in
                        var app = payload["appIntegrity"] as! [String: Any]
                        app["appRecognitionVerdict"] = "UNEVALUATED"
                        payload["appIntegrity"] = app
                    })
                }),
                ("a token maxAgeSeconds old, within the skew", "", {
                    try console.token(Console.payload(nonce: $0, at: Date().addingTimeInterval(-300 - 30)))
                }),
                ("timestampMillis as a JSON number", "", { try console.token(Console.payload(nonce: $0) { payload in
                    var request = payload["requestDetails"] as! [String: Any]
                    request["timestampMillis"] = Int64(Date().timeIntervalSince1970 * 1000)
                    payload["requestDetails"] = request
                }) }),
            ]
            for (what, extra, make) in cases {
                let id = try #require(try await kit.createApplication(Self.application(console, playIntegrity: extra)).id)
                let response = try await Self.register(kit, id, make: make)
                #expect(response.status == .created, "\(what): \(response.text)")
            }
        }
    }

    /// A second implementation (python `cryptography`: RFC 3394 key wrap, AES-GCM, ECDSA) makes a token the tenant takes.
    @Test(.enabled(if: Peer.isAvailable, Peer.unavailableReason))
    func aTokenMadeByPythonCryptographyIsAccepted() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let console = Console()
            let id = try #require(try await kit.createApplication(Self.application(console)).id)
            let script = Peer.projectScriptsDirectory.appendingPathComponent("play_integrity_token.py")
            let made = Locked<Peer.Result?>(nil)
            let response = try await Self.register(kit, id) { nonce in
                let payload = String(decoding: try JSONSerialization.data(withJSONObject: Console.payload(nonce: nonce)), as: UTF8.self)
                let result = try await Peer.run(script: script, ["make", console.decryptionKeyBase64,
                                                                 console.signingKey.pemRepresentation, payload])
                made.withLock { $0 = result }
                return try result.object()["token"] as? String
            }
            let result = made.withLock { $0 }
            #expect(result?.accepted == true, "\(result?.stdout ?? "") \(result?.stderr ?? "")")
            #expect(response.status == .created, "\(response.text)")
            #expect(try await Self.instances(kit, id).first?.attestation.playIntegrity?.appRecognitionVerdict == "PLAY_RECOGNIZED")
        }
    }
}
