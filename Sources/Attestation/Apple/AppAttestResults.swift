/// App Attest environments, told apart by the AAGUID of the attestation's authenticator data.
public enum AppAttestEnvironment: String, Sendable, Hashable, CaseIterable {
    case development
    case production

    /// `appattestdevelop`, or `appattest` followed by seven 0x00 bytes.
    public var aaguid: [UInt8] {
        switch self {
        case .development: Array("appattestdevelop".utf8)
        case .production: Array("appattest".utf8) + [UInt8](repeating: 0, count: 7)
        }
    }
}

/// What a verified App Attest attestation proved.
public struct AppAttestAttestationResult: Sendable, Hashable {
    /// The credential public key as an X9.62 uncompressed P-256 point (65 bytes); store it for assertions.
    public let publicKey: [UInt8]
    /// SHA-256 of `publicKey`; equals the key id the app sent.
    public let keyId: [UInt8]
    public let environment: AppAttestEnvironment
    /// `attStmt.receipt`, kept for Apple's fraud-metric service.
    public let receipt: [UInt8]
    /// The sign counter to store (always 0 for an attestation).
    public let counter: UInt32
}

/// What a verified App Attest assertion proved.
public struct AppAttestAssertionResult: Sendable, Hashable {
    /// The new counter; persist it and require a greater one next time.
    public let counter: UInt32
}
