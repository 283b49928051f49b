/// `attestation` of an instance (docs/server-api.md "Android Key Attestation policy", "Play Integrity"): what the platform's
/// evidence said about the device when it was last attested. Every member is written, `null` when that evidence
/// was not given (an assertion registration, an iOS instance).
public struct InstanceAttestation: Codable, Sendable, Hashable {
    /// The Key Attestation `rootOfTrust.verifiedBootState` (source.android.com "Key and ID attestation").
    public var androidVerifiedBoot: AndroidVerifiedBoot?
    /// The Key Attestation `rootOfTrust.deviceLocked`.
    public var bootloaderLocked: Bool?
    /// The verdicts of a Play Integrity token.
    public var playIntegrity: PlayIntegrityVerdicts?

    public init(androidVerifiedBoot: AndroidVerifiedBoot? = nil, bootloaderLocked: Bool? = nil,
                playIntegrity: PlayIntegrityVerdicts? = nil) {
        self.androidVerifiedBoot = androidVerifiedBoot
        self.bootloaderLocked = bootloaderLocked
        self.playIntegrity = playIntegrity
    }

    /// Nothing attested.
    public var isEmpty: Bool { androidVerifiedBoot == nil && bootloaderLocked == nil && playIntegrity == nil }

    /// This record with the members `other` has replaced (a renewal's fresh evidence keeps what it does not restate).
    public func updated(with other: InstanceAttestation) -> InstanceAttestation {
        InstanceAttestation(androidVerifiedBoot: other.androidVerifiedBoot ?? androidVerifiedBoot,
                            bootloaderLocked: other.bootloaderLocked ?? bootloaderLocked,
                            playIntegrity: other.playIntegrity ?? playIntegrity)
    }

    private enum CodingKeys: String, CodingKey { case androidVerifiedBoot, bootloaderLocked, playIntegrity }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(androidVerifiedBoot, forKey: .androidVerifiedBoot)
        try container.encode(bootloaderLocked, forKey: .bootloaderLocked)
        try container.encode(playIntegrity, forKey: .playIntegrity)
    }
}

/// `VerifiedBootState` of the Key Attestation root of trust, spelled as Google's attestation tools write it.
public enum AndroidVerifiedBoot: String, Codable, Sendable, Hashable, CaseIterable {
    case verified = "VERIFIED"
    case selfSigned = "SELF_SIGNED"
    case unverified = "UNVERIFIED"
    case failed = "FAILED"
}

/// What a Play Integrity token said (developer.android.com "Integrity verdicts"): `deviceIntegrity
/// .deviceRecognitionVerdict` as given, and `appIntegrity.appRecognitionVerdict`.
public struct PlayIntegrityVerdicts: Codable, Sendable, Hashable {
    public var deviceRecognitionVerdict: [String]
    public var appRecognitionVerdict: String

    public init(deviceRecognitionVerdict: [String], appRecognitionVerdict: String) {
        self.deviceRecognitionVerdict = deviceRecognitionVerdict
        self.appRecognitionVerdict = appRecognitionVerdict
    }
}
