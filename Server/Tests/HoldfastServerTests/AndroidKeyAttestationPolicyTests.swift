import Attestation
import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastServer
import HummingbirdTesting
import Testing
import TestSupport

/// docs/server-api.md "Android Key Attestation policy": an Android application's `keyAttestation` settings decide what the
/// chain's root of trust and certificate validity must show. Each refusal is tested with a chain that is honest in
/// every other way; the instance shows what the root of trust said.
@Suite struct AndroidKeyAttestationPolicyTests {
    static func application(name: String = "Wallet Android \(UUID().uuidString.prefix(8))", keyAttestation: String) -> String {
        let thumbprint = ServerTestKit.signingDigest.map { String(format: "%02x", $0) }.joined()
        return #"{"type":"android","name":"\#(name)","clientId":"wallet-android","packageName":"com.example.wallet","packageSigningCertificateThumbprints":["\#(thumbprint)"],"keyAttestation":\#(keyAttestation)}"#
    }

    /// Registers a fresh key with a chain from the kit's authority over the real binding nonce.
    static func register(_ kit: ServerTestKit, _ applicationId: String, verifiedBootState: UInt8 = 0, deviceLocked: Bool = true,
                         expiredIntermediate: Bool = false) async throws -> TestResponse {
        let challenge = try await kit.challenge(applicationId)
        let key = P256.Signing.PrivateKey()
        let nonce = BindingNonce(challenge: challenge, publicKey: InstancePublicKey(key.publicKey))
        let chain = try kit.authority.androidChain(instanceKey: key.publicKey, challenge: nonce.bytes, packageName: "com.example.wallet",
                                                   signingDigest: ServerTestKit.signingDigest, verifiedBootState: verifiedBootState,
                                                   deviceLocked: deviceLocked, expiredIntermediate: expiredIntermediate)
        return try await kit.register(applicationId, try ServerTestKit.registration(
            challenge: challenge, key: key, attestation: .androidKeyAttestation(certificateChain: chain)))
    }

    static func instances(_ kit: ServerTestKit, _ applicationId: String) async throws -> [InstanceListItem] {
        try await kit.admin(TetheringRoutes.Template.instances, ["applicationId": applicationId], .get).wire(InstancePage.self).data
    }

    // MARK: the settings

    @Test func absentPolicyMembersDefaultToTrueAndAreShown() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let created = try await kit.createApplication(Self.application(keyAttestation: #"{"required":true}"#))
            guard case .android(let settings) = created.platform else { Issue.record("not android"); return }
            #expect(settings.keyAttestation == .init(required: true, requireVerifiedBoot: true, requireLockedBootloader: true,
                                                     acceptExpiredChain: true))
            let shown = try await kit.admin(TetheringRoutes.Template.application, ["applicationId": try #require(created.id)], .get)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(shown.text.utf8)) as? [String: Any])
            let keyAttestation = try #require(json["keyAttestation"] as? [String: Any])
            #expect(keyAttestation["requireVerifiedBoot"] as? Bool == true)
            #expect(keyAttestation["requireLockedBootloader"] as? Bool == true)
            #expect(keyAttestation["acceptExpiredChain"] as? Bool == true)
        }
    }

    @Test func policyMembersAreValidated() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            for (member, value, code) in [("requireVerifiedBoot", #""no""#, ProblemDetails.FieldError.wrongType),
                                          ("requireLockedBootloader", "0", ProblemDetails.FieldError.wrongType),
                                          ("acceptExpiredChain", "null", ProblemDetails.FieldError.wrongType)] {
                let response = try await kit.admin(TetheringRoutes.Template.applications, .post,
                                                   Self.application(keyAttestation: #"{"required":true,"\#(member)":\#(value)}"#))
                #expect(response.status == .badRequest, "\(member)")
                #expect(response.problemCode == "VALIDATION_FAILED", "\(response.text)")
                #expect(response.problem?.errors?.map(\.field) == ["keyAttestation.\(member)"], "\(response.text)")
                #expect(response.problem?.errors?.first?.code == code, "\(response.text)")
            }
        }
    }

    // MARK: registration under the settings

    @Test(arguments: StorageBackend.available)
    func verifiedLockedDeviceIsShownOnTheInstance(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let id = try #require(try await kit.createApplication(Self.application(keyAttestation: #"{"required":true}"#)).id)
            let response = try await Self.register(kit, id)
            #expect(response.status == .created, "\(response.text)")
            let instance = try #require(try await Self.instances(kit, id).first)
            #expect(instance.attestation == InstanceAttestation(androidVerifiedBoot: .verified, bootloaderLocked: true))
            let raw = try await kit.admin(TetheringRoutes.Template.instances, ["applicationId": id], .get).text
            #expect(raw.contains(#""androidVerifiedBoot":"VERIFIED""#) && raw.contains(#""bootloaderLocked":true"#), "\(raw)")
        }
    }

    @Test func unverifiedBootIsRefusedUnlessTheApplicationAllowsIt() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let strict = try #require(try await kit.createApplication(Self.application(keyAttestation: #"{"required":true}"#)).id)
            let refused = try await Self.register(kit, strict, verifiedBootState: 2)
            #expect(refused.status == .forbidden)
            #expect(refused.problemCode == "ATTESTATION_FAILED")
            #expect(refused.problem?.detail?.contains("BOOT_STATE_REJECTED") == true, "\(refused.text)")

            let relaxed = try #require(try await kit.createApplication(
                Self.application(keyAttestation: #"{"required":true,"requireVerifiedBoot":false}"#)).id)
            let accepted = try await Self.register(kit, relaxed, verifiedBootState: 2)
            #expect(accepted.status == .created, "\(accepted.text)")
            #expect(try await Self.instances(kit, relaxed).first?.attestation
                    == InstanceAttestation(androidVerifiedBoot: .unverified, bootloaderLocked: true))
        }
    }

    @Test func unlockedBootloaderIsRefusedUnlessTheApplicationAllowsIt() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let strict = try #require(try await kit.createApplication(Self.application(keyAttestation: #"{"required":true}"#)).id)
            let refused = try await Self.register(kit, strict, deviceLocked: false)
            #expect(refused.status == .forbidden)
            #expect(refused.problemCode == "ATTESTATION_FAILED")
            #expect(refused.problem?.detail?.contains("BOOT_STATE_REJECTED") == true, "\(refused.text)")

            let relaxed = try #require(try await kit.createApplication(
                Self.application(keyAttestation: #"{"required":true,"requireLockedBootloader":false}"#)).id)
            let accepted = try await Self.register(kit, relaxed, deviceLocked: false)
            #expect(accepted.status == .created, "\(accepted.text)")
            #expect(try await Self.instances(kit, relaxed).first?.attestation
                    == InstanceAttestation(androidVerifiedBoot: .verified, bootloaderLocked: false))
        }
    }

    /// Both boot settings relaxed by `PUT`: the same kind of device that was refused registers.
    @Test func relaxingBothBootSettingsAdmitsAnUnlockedUnverifiedDevice() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let name = "Wallet Android \(UUID().uuidString.prefix(8))"
            let id = try #require(try await kit.createApplication(Self.application(name: name, keyAttestation: #"{"required":true}"#)).id)
            #expect(try await Self.register(kit, id, verifiedBootState: 2, deviceLocked: false).problemCode == "ATTESTATION_FAILED")
            let put = try await kit.admin(TetheringRoutes.Template.application, ["applicationId": id], .put, Self.application(
                name: name, keyAttestation: #"{"required":true,"requireVerifiedBoot":false,"requireLockedBootloader":false}"#))
            #expect(put.status == .ok, "\(put.text)")
            let accepted = try await Self.register(kit, id, verifiedBootState: 2, deviceLocked: false)
            #expect(accepted.status == .created, "\(accepted.text)")
            #expect(try await Self.instances(kit, id).first?.attestation
                    == InstanceAttestation(androidVerifiedBoot: .unverified, bootloaderLocked: false))
        }
    }

    @Test func expiredIntermediateIsAcceptedByDefaultAndRefusedWhenTheApplicationSaysSo() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let lenient = try #require(try await kit.createApplication(Self.application(keyAttestation: #"{"required":true}"#)).id)
            let accepted = try await Self.register(kit, lenient, expiredIntermediate: true)
            #expect(accepted.status == .created, "\(accepted.text)")

            let strict = try #require(try await kit.createApplication(
                Self.application(keyAttestation: #"{"required":true,"acceptExpiredChain":false}"#)).id)
            let refused = try await Self.register(kit, strict, expiredIntermediate: true)
            #expect(refused.status == .forbidden)
            #expect(refused.problemCode == "ATTESTATION_FAILED")
            #expect(refused.problem?.detail?.contains("CERTIFICATE_EXPIRED") == true, "\(refused.text)")
            // The same application accepts a chain whose certificates are all within their validity.
            #expect(try await Self.register(kit, strict).status == .created)
        }
    }

    /// Renewal's fresh chain is held to the same settings, and updates what the instance shows.
    @Test func renewalChainsFollowThePolicyAndUpdateTheInstance() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let name = "Wallet Android \(UUID().uuidString.prefix(8))"
            let id = try #require(try await kit.createApplication(Self.application(
                name: name, keyAttestation: #"{"required":true,"requireLockedBootloader":false}"#)).id)
            let key = P256.Signing.PrivateKey()
            let publicKey = InstancePublicKey(key.publicKey)
            func chain(_ challenge: String, locked: Bool) throws -> [[UInt8]] {
                try kit.authority.androidChain(instanceKey: key.publicKey, challenge: BindingNonce(challenge: challenge, publicKey: publicKey).bytes,
                                               packageName: "com.example.wallet", signingDigest: ServerTestKit.signingDigest,
                                               deviceLocked: locked)
            }
            func renewal(locked: Bool) async throws -> String {
                let challenge = try await kit.challenge(id)
                let request = LicenseRenewalRequest(challenge: challenge, attestation: PlatformAttestationPayload
                    .androidKeyAttestation(certificateChain: try chain(challenge, locked: locked)).wire.attestation)
                return String(decoding: try HoldfastJSON.encode(request), as: UTF8.self)
            }
            let challenge = try await kit.challenge(id)
            let registered = try await kit.register(id, try ServerTestKit.registration(
                challenge: challenge, key: key, attestation: .androidKeyAttestation(certificateChain: try chain(challenge, locked: false))))
                .wire(InstanceRegistrationResponse.self)
            #expect(try await Self.instances(kit, id).first?.attestation.bootloaderLocked == false)
            let device = ServerTestKit.Device(key: key, instanceId: registered.instanceId,
                                              licenseToken: try #require(registered.licenseToken), applicationId: id)
            let route = TetheringRoutes.Template.license
            let renewed = try await kit.call(device, route, body: try await renewal(locked: true))
            #expect(renewed.status == .ok, "\(renewed.text)")
            #expect(try await Self.instances(kit, id).first?.attestation
                    == InstanceAttestation(androidVerifiedBoot: .verified, bootloaderLocked: true))
            let put = try await kit.admin(TetheringRoutes.Template.application, ["applicationId": id], .put,
                                          Self.application(name: name, keyAttestation: #"{"required":true}"#))
            #expect(put.status == .ok, "\(put.text)")
            let refused = try await kit.call(device, route, body: try await renewal(locked: false))
            #expect(refused.problemCode == "ATTESTATION_FAILED", "\(refused.text)")
            #expect(refused.problem?.detail?.contains("BOOT_STATE_REJECTED") == true, "\(refused.text)")
        }
    }

    // MARK: the committed vectors under the policy the tenant derives from an application

    struct Vector {
        let chain: [AttestationCertificate]
        let challenge: [UInt8]
        let at: Date

        init(_ file: String, challengeHex: String, at instant: String) throws {
            chain = try CertificateChainDecoder.decode([UInt8](TestEnvironment.vector("android-key-attestation/" + file)))
            var bytes: [UInt8] = []
            var index = challengeHex.startIndex
            while index < challengeHex.endIndex {
                let next = challengeHex.index(index, offsetBy: 2)
                bytes.append(try #require(UInt8(challengeHex[index..<next], radix: 16)))
                index = next
            }
            challenge = bytes
            at = try #require(ISO8601DateFormatter().date(from: instant))
        }

        /// The tenant's verifier for an application's settings, on the tenant's base policy.
        func verify(_ settings: HolderApplication.KeyAttestationSettings,
                    base: AndroidKeyAttestationPolicy = .production) async throws -> AndroidKeyAttestationResult {
            let verifier = AndroidKeyAttestationVerifier(policy: KeyEvidenceVerifier.policy(base, for: settings))
            return try await verifier.verify(chain: chain, challenge: challenge, at: at)
        }
    }

    static func code(_ body: () async throws -> Void) async -> String? {
        do { try await body(); return nil } catch let error as AttestationError { return error.code } catch { return "\(error)" }
    }

    /// Sony Xperia 10 III (index.json: factory-provisioned, its intermediates and the 2016 root certificate expired
    /// at its verifyAt; root of trust Verified and locked; its attestation key certificate says cA=FALSE).
    static func sony() throws -> Vector {
        try Vector("android-keyattestation/testdata/sony-xperia10-iii/sdk33/TEE_EC.pem",
                   challengeHex: "3eafe4d5dd0090de5a42b432b42481af5ce29963656b2584c59a492de16d00c9", at: "2026-06-04T14:59:05Z")
    }

    @Test func sonyChainIsRefusedUnderTheDefaultsWithItsCode() async throws {
        let sony = try Self.sony()
        let defaults = HolderApplication.KeyAttestationSettings(required: true)
        #expect(await Self.code { _ = try await sony.verify(defaults) } == "ISSUER_NOT_CA")
        // Its root of trust is Verified and locked: relaxing the boot settings does not change the refusal, which is
        // the chain's own (docs/server-api.md "Android Key Attestation policy").
        let relaxed = HolderApplication.KeyAttestationSettings(required: true, requireVerifiedBoot: false, requireLockedBootloader: false)
        #expect(await Self.code { _ = try await sony.verify(relaxed) } == "ISSUER_NOT_CA")
    }

    @Test func sonyChainWithExpiredIntermediatesIsAcceptedByDefaultAndRefusedWithoutAcceptExpiredChain() async throws {
        let sony = try Self.sony()
        let exempt = AndroidKeyAttestationPolicy(allowNonCAAttestationKeyCertificate: true)
        let result = try await sony.verify(.init(required: true), base: exempt)
        #expect(result.warnings == [.certificateExpiredIgnored])
        #expect(KeyEvidenceVerifier.attestation(of: result.rootOfTrust)
                == InstanceAttestation(androidVerifiedBoot: .verified, bootloaderLocked: true))
        #expect(await Self.code {
            _ = try await sony.verify(.init(required: true, acceptExpiredChain: false), base: exempt)
        } == "CERTIFICATE_EXPIRED")
    }

    /// akita SB_RSA_NONE (index.json: bootloader unlocked, verifiedBootState UNVERIFIED, all certificates valid).
    @Test func unlockedUnverifiedVectorIsRefusedByDefaultAndAcceptedWithBothBootSettingsRelaxed() async throws {
        let akita = try Vector("android-keyattestation/testdata/akita/sdk34/SB_RSA_NONE.pem",
                               challengeHex: "6368616c6c656e6765", at: "2024-09-26T22:31:27Z")
        #expect(await Self.code { _ = try await akita.verify(.init(required: true)) } == "BOOT_STATE_REJECTED")
        #expect(await Self.code {
            _ = try await akita.verify(.init(required: true, requireVerifiedBoot: false))
        } == "BOOT_STATE_REJECTED")
        #expect(await Self.code {
            _ = try await akita.verify(.init(required: true, requireLockedBootloader: false))
        } == "BOOT_STATE_REJECTED")
        let result = try await akita.verify(.init(required: true, requireVerifiedBoot: false, requireLockedBootloader: false))
        #expect(result.warnings.isEmpty)
        #expect(KeyEvidenceVerifier.attestation(of: result.rootOfTrust)
                == InstanceAttestation(androidVerifiedBoot: .unverified, bootloaderLocked: false))
    }
}
