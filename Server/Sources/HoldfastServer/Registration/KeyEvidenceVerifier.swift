import Attestation
import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE

/// Registration protocol step 5 (docs/server-api.md "Registration wire format"): checks the evidence for an instance key against the application's
/// settings — App Attest (iOS) or Android Key Attestation, each over the binding nonce, or, where the application
/// does not require attestation (or the dev bypass applies), the assertion: a signature over the nonce by the key.
///
/// Trust anchors come from `TetheringConfiguration`; the platform roots unless a test injects its own.
struct KeyEvidenceVerifier: Sendable {
    let appAttest: AppAttestVerifier
    private let androidRoots: [AttestationCertificate]
    private let androidPolicy: AndroidKeyAttestationPolicy
    private let revocations: AndroidRevocations
    let playIntegrity: PlayIntegrityVerifier

    init(configuration: TetheringConfiguration, revocations: AndroidRevocations, masterKey: MasterKey? = nil) {
        playIntegrity = PlayIntegrityVerifier(masterKey: masterKey)
        appAttest = configuration.appAttestTrustedRoots.map { AppAttestVerifier(trustedRoots: $0) } ?? AppAttestVerifier()
        androidRoots = configuration.androidTrustedRoots ?? GoogleAttestationRoots.all
        androidPolicy = configuration.androidPolicy
        self.revocations = revocations
    }

    /// The Android verifier for an application's `keyAttestation` settings, with the status list in force now (it may
    /// have been refreshed since the last call); the verified-issuer cache is shared, so a fresh verifier costs nothing.
    func android(for settings: HolderApplication.KeyAttestationSettings) -> AndroidKeyAttestationVerifier {
        AndroidKeyAttestationVerifier(trustedRoots: androidRoots, revocationList: revocations.current,
                                      policy: Self.policy(androidPolicy, for: settings))
    }

    /// The tenant's Android policy (`TetheringConfiguration.androidPolicy`: security level, the non-CA exemption) with
    /// the application's own choices (docs/server-api.md "Android Key Attestation policy"): `requireVerifiedBoot` accepts only
    /// `Verified` (otherwise any state, and rootOfTrust may be absent), `requireLockedBootloader` requires
    /// `deviceLocked`, and `acceptExpiredChain: false` refuses an expired certificate above the leaf.
    static func policy(_ base: AndroidKeyAttestationPolicy,
                       for settings: HolderApplication.KeyAttestationSettings) -> AndroidKeyAttestationPolicy {
        var policy = base
        policy.acceptedBootStates = settings.requireVerifiedBoot ? [.verified] : []
        policy.requireDeviceLocked = settings.requireLockedBootloader
        policy.expiry = settings.acceptExpiredChain ? .acceptExpired : .enforce
        return policy
    }

    /// The evidence of a registration or rotation request.
    ///
    /// - Parameters:
    ///   - integrityToken: a Play Integrity token over `nonce` (docs/server-api.md "Play Integrity"), checked beside the chain or
    ///     the assertion, or alone (it then stands for the assertion).
    ///   - integrityTokenRequired: whether the application's `playIntegrity.required` applies (registration).
    func verify(attestation: AttestationValue?, keyId: String?, assertion: String?, integrityToken: String? = nil,
                integrityTokenRequired: Bool = false, publicKey: InstancePublicKey, nonce: BindingNonce,
                application: HolderApplication, developmentMode: Bool, at now: Date) async throws -> VerifiedKeyEvidence {
        if attestation != nil, assertion != nil {
            throw ProblemError.invalidField("assertion", code: ProblemDetails.FieldError.conflicting,
                                            detail: "send either attestation or assertion, not both")
        }
        var integrity: PlayIntegrityVerdicts?
        if let integrityToken {
            do {
                integrity = try playIntegrity.verify(integrityToken, nonce: nonce, application: application, at: now)
            } catch {
                throw error.problem
            }
        } else if integrityTokenRequired, !developmentMode, case .android(let settings) = application.platform,
                  settings.playIntegrity?.required == true {
            throw TetheringError.integrityTokenRequired
        }
        let verdicts = integrity.map { InstanceAttestation(playIntegrity: $0) }
        guard let attestation else {
            if application.requiresAttestation, !developmentMode { throw TetheringError.attestationRequired }
            if assertion == nil, let verdicts { return VerifiedKeyEvidence(type: .none, appAttest: nil, attestation: verdicts) }
            guard let assertion else {
                throw ProblemError.invalidField("assertion", code: ProblemDetails.FieldError.required,
                                                detail: "an attestation or an assertion over the binding nonce is required")
            }
            do {
                try InstanceAssertion.verify(assertion, nonce: nonce, publicKey: publicKey.key)
            } catch {
                throw TetheringError.invalidAttestation(error.description)
            }
            return VerifiedKeyEvidence(type: .none, appAttest: nil, attestation: verdicts)
        }
        let payload: PlatformAttestationPayload
        do {
            payload = try PlatformAttestationPayload(attestation: attestation, keyId: keyId)
        } catch {
            throw TetheringError.invalidAttestation(error.description)
        }
        switch (payload, application.platform) {
        case (.appAttest(let object, let keyIdBytes), .ios(let settings)):
            let environment: Attestation.AppAttestEnvironment =
                settings.appAttest.environment == .production ? .production : .development
            let result = try await Self.mapping {
                try await appAttest.verifyAttestation(object, keyId: keyIdBytes, clientDataHash: nonce.bytes,
                                                      appId: Self.appId(settings), environment: environment, at: now)
            }
            return VerifiedKeyEvidence(type: .appAttestation, appAttest: .init(
                keyId: Data(result.keyId).base64EncodedString(), publicKey: Data(result.publicKey).base64EncodedString(),
                counter: Int64(result.counter)))
        case (.androidKeyAttestation(let chain), .android(let settings)):
            var attestation = try await verifyAndroid(chain: chain, nonce: nonce, publicKey: publicKey, settings: settings, at: now)
            attestation.playIntegrity = integrity
            return VerifiedKeyEvidence(type: .keyAttestation, appAttest: nil, attestation: attestation)
        default:
            throw TetheringError.invalidAttestation(
                "the attestation is not of this application's platform (\(application.platform.holderPlatform.rawValue))")
        }
    }

    /// An Android chain whose leaf is the instance key, attested over `nonce` for the application's package, under
    /// the application's `keyAttestation` policy; what its root of trust showed.
    func verifyAndroid(chain: [[UInt8]], nonce: BindingNonce, publicKey: InstancePublicKey,
                       settings: HolderApplication.AndroidSettings, at now: Date) async throws -> InstanceAttestation {
        let certificates = try Self.mappingSync { try CertificateChainDecoder.decode(derList: chain) }
        let result = try await Self.mapping {
            try await android(for: settings.keyAttestation).verify(chain: certificates, challenge: nonce.bytes, packageName: settings.packageName,
                                     signingCertificateDigests: settings.packageSigningCertificateThumbprints, at: now)
        }
        guard let leafKey = try? P256.Signing.PublicKey(derRepresentation: result.publicKey),
              leafKey.x963Representation == publicKey.key.x963Representation else {
            throw TetheringError.invalidAttestation("the attested key (leaf certificate) is not publicKey")
        }
        return Self.attestation(of: result.rootOfTrust)
    }

    /// The instance's record of a Key Attestation root of trust (empty when the chain had none).
    static func attestation(of root: RootOfTrust?) -> InstanceAttestation {
        guard let root else { return InstanceAttestation() }
        let boot: AndroidVerifiedBoot = switch root.verifiedBootState {
        case .verified: .verified
        case .selfSigned: .selfSigned
        case .unverified: .unverified
        case .failed: .failed
        }
        return InstanceAttestation(androidVerifiedBoot: boot, bootloaderLocked: root.deviceLocked)
    }

    /// A renewal's App Attest assertion over `nonce` by the instance's App Attest key; returns the new counter.
    func verifyAssertion(_ encoded: String, instance: HolderInstance, nonce: BindingNonce,
                         settings: HolderApplication.IOSSettings) throws -> Int64 {
        guard let key = instance.appAttestPublicKey.flatMap({ Data(base64Encoded: $0) }), let counter = instance.appAttestCounter,
              let stored = UInt32(exactly: counter) else {
            throw TetheringError.attestationRequired
        }
        guard encoded.utf8.count <= AppAttestVerifier.maximumInputSize * 2, let assertion = Base64URL.decode(encoded) else {
            throw ProblemError.invalidField("appAttestAssertion", code: ProblemDetails.FieldError.invalidValue, detail: "must be unpadded base64url")
        }
        let result = try Self.mappingSync {
            try appAttest.verifyAssertion(assertion, publicKey: Array(key), clientDataHash: nonce.bytes,
                                          appId: Self.appId(settings), previousCounter: stored)
        }
        return Int64(result.counter)
    }

    static func appId(_ settings: HolderApplication.IOSSettings) -> String { "\(settings.teamId).\(settings.bundleId)" }

    /// `INVALID_ATTESTATION` for input that is not an attestation at all, `INVALID_CHALLENGE` for one over another
    /// nonce (docs/sdk.md "Registration errors": the device starts again with a new challenge), `ATTESTATION_FAILED` for
    /// one that is refused otherwise; the verifier's own code is in the detail.
    static func problem(for error: AttestationError) -> TetheringError {
        switch error {
        case .invalidFormat, .chainTooLong: TetheringError.invalidAttestation(error.description)
        case .nonceMismatch: TetheringError.nonceMismatch(error.description)
        default: TetheringError.attestationFailed(error.description)
        }
    }

    private static func mapping<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as AttestationError { throw problem(for: error) }
    }

    private static func mappingSync<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as AttestationError { throw problem(for: error) }
    }
}
