/// `playIntegrity` of an Android application (docs/server-api.md "Play Integrity"): the keys the Play Console gives for "decrypt
/// and verify locally" and what a token's verdicts must say.
///
/// `decryptionKey` is write-only: the tenant seals it with its master key (`sealedDecryptionKey`, kept in the stored
/// document only) and never shows either in an answer.
public struct PlayIntegritySettings: Codable, Sendable, Hashable {
    /// Registrations must carry an `integrityToken`.
    public var required: Bool
    /// Standard base64 of the 32-byte AES key (A256KW); nil in answers, and in a `PUT` that keeps the stored key.
    public var decryptionKey: String?
    /// PEM of the EC P-256 public key that signs the verdict (ES256).
    public var verificationKey: String
    public var requiredDeviceVerdict: PlayIntegrityDeviceVerdict
    /// `appIntegrity.appRecognitionVerdict` must be `PLAY_RECOGNIZED`.
    public var requirePlayRecognized: Bool
    /// How old `requestDetails.timestampMillis` may be (10 … 3600).
    public var maxAgeSeconds: Int
    /// The master key's seal of the decryption key: in the stored document only, never in a request or an answer.
    public var sealedDecryptionKey: String?

    public static let defaultMaxAgeSeconds = 300
    public static let allowedMaxAgeSeconds: ClosedRange<Int> = 10 ... 3600

    public init(required: Bool = false, decryptionKey: String?, verificationKey: String,
                requiredDeviceVerdict: PlayIntegrityDeviceVerdict = .meetsDeviceIntegrity, requirePlayRecognized: Bool = true,
                maxAgeSeconds: Int = PlayIntegritySettings.defaultMaxAgeSeconds, sealedDecryptionKey: String? = nil) {
        self.required = required
        self.decryptionKey = decryptionKey
        self.verificationKey = verificationKey
        self.requiredDeviceVerdict = requiredDeviceVerdict
        self.requirePlayRecognized = requirePlayRecognized
        self.maxAgeSeconds = maxAgeSeconds
        self.sealedDecryptionKey = sealedDecryptionKey
    }

    private enum CodingKeys: String, CodingKey {
        case required, decryptionKey, verificationKey, requiredDeviceVerdict, requirePlayRecognized, maxAgeSeconds,
             sealedDecryptionKey
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // Absent members take their defaults; a present one (null included) must have its type.
        func value<T: Decodable>(_ key: CodingKeys, _ fallback: T) throws -> T {
            container.contains(key) ? try container.decode(T.self, forKey: key) : fallback
        }
        required = try value(.required, false)
        decryptionKey = try container.decodeIfPresent(String.self, forKey: .decryptionKey)
        verificationKey = try container.decode(String.self, forKey: .verificationKey)
        requiredDeviceVerdict = try value(.requiredDeviceVerdict, .meetsDeviceIntegrity)
        requirePlayRecognized = try value(.requirePlayRecognized, true)
        maxAgeSeconds = try value(.maxAgeSeconds, Self.defaultMaxAgeSeconds)
        sealedDecryptionKey = try container.decodeIfPresent(String.self, forKey: .sealedDecryptionKey)
    }

    /// Writes every member but the key; the sealed key only when set (the stored document).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(required, forKey: .required)
        try container.encode(verificationKey, forKey: .verificationKey)
        try container.encode(requiredDeviceVerdict, forKey: .requiredDeviceVerdict)
        try container.encode(requirePlayRecognized, forKey: .requirePlayRecognized)
        try container.encode(maxAgeSeconds, forKey: .maxAgeSeconds)
        try container.encodeIfPresent(sealedDecryptionKey, forKey: .sealedDecryptionKey)
    }

    /// The settings as an answer shows them: neither the key nor its seal.
    public var redacted: PlayIntegritySettings {
        var copy = self
        copy.decryptionKey = nil
        copy.sealedDecryptionKey = nil
        return copy
    }
}

/// `deviceIntegrity.deviceRecognitionVerdict` labels (developer.android.com "Integrity verdicts"), weakest first:
/// STRONG implies DEVICE implies BASIC.
public enum PlayIntegrityDeviceVerdict: String, Codable, Sendable, Hashable, CaseIterable, Comparable {
    case meetsBasicIntegrity = "MEETS_BASIC_INTEGRITY"
    case meetsDeviceIntegrity = "MEETS_DEVICE_INTEGRITY"
    case meetsStrongIntegrity = "MEETS_STRONG_INTEGRITY"

    private var rank: Int {
        switch self {
        case .meetsBasicIntegrity: 0
        case .meetsDeviceIntegrity: 1
        case .meetsStrongIntegrity: 2
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}
