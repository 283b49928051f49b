import Attestation
import Foundation

/// Settings of tethering and device registration (docs/server-api.md "API"): challenge lifetime, DPoP checks, the wallet
/// attestation lifetime, and the attestation trust anchors.
///
/// The trust anchors default to the real ones (Apple's App Attest root, Google's attestation roots). Tests inject
/// their own test CAs here; nothing but an explicit configuration ever trusts them.
public struct TetheringConfiguration: Sendable {
    /// How long a registration challenge may be used (`HOLDFAST_CHALLENGE_LIFETIME_SECS`, default 300).
    public var challengeLifetime: Duration
    /// RFC 9449 §8: when true, every instance call must carry a server-issued `nonce` in its DPoP proof
    /// (`HOLDFAST_DPOP_NONCE=required`); a proof without one is answered 401 `use_dpop_nonce` with a `DPoP-Nonce`.
    public var requireDPoPNonce: Bool
    /// How long a server DPoP nonce stays acceptable.
    public var dpopNonceLifetime: Duration
    /// RFC 9449 §4.3 step 11: how old a proof's `iat` may be, and how far in the future.
    public var dpopMaximumAge: TimeInterval
    public var dpopMaximumFutureSkew: TimeInterval
    /// Lifetime of wallet attestations (draft-ietf-oauth-attestation-based-client-auth: short-lived).
    public var walletAttestationLifetime: TimeInterval
    /// App Attest roots; nil means Apple's App Attestation Root CA.
    public var appAttestTrustedRoots: [AttestationCertificate]?
    /// Android Key Attestation roots; nil means Google's roots.
    public var androidTrustedRoots: [AttestationCertificate]?
    /// What an Android attestation must show beyond the chain, challenge and app.
    public var androidPolicy: AndroidKeyAttestationPolicy
    /// Google's attestation status list: the bundled snapshot, a file, or a URL (`HOLDFAST_ANDROID_REVOCATION_LIST`).
    public var androidRevocationList: RevocationListSource
    /// How often a file or URL list is read again (`HOLDFAST_ANDROID_REVOCATION_REFRESH_SECS`, default 3600).
    public var androidRevocationRefresh: Duration

    public static let defaultChallengeLifetimeSeconds = 300
    public static let maximumChallengeLifetimeSeconds = 3600
    public static let defaultRevocationRefreshSeconds = 3600
    public static let revocationRefreshSecondsRange = 60...604_800

    public init(challengeLifetime: Duration = .seconds(defaultChallengeLifetimeSeconds), requireDPoPNonce: Bool = false,
                dpopNonceLifetime: Duration = .seconds(300), dpopMaximumAge: TimeInterval = 60,
                dpopMaximumFutureSkew: TimeInterval = 60, walletAttestationLifetime: TimeInterval = 3600,
                appAttestTrustedRoots: [AttestationCertificate]? = nil,
                androidTrustedRoots: [AttestationCertificate]? = nil,
                androidPolicy: AndroidKeyAttestationPolicy = .production,
                androidRevocationList: RevocationListSource = .bundled,
                androidRevocationRefresh: Duration = .seconds(defaultRevocationRefreshSeconds)) {
        self.challengeLifetime = challengeLifetime
        self.requireDPoPNonce = requireDPoPNonce
        self.dpopNonceLifetime = dpopNonceLifetime
        self.dpopMaximumAge = dpopMaximumAge
        self.dpopMaximumFutureSkew = dpopMaximumFutureSkew
        self.walletAttestationLifetime = walletAttestationLifetime
        self.appAttestTrustedRoots = appAttestTrustedRoots
        self.androidTrustedRoots = androidTrustedRoots
        self.androidPolicy = androidPolicy
        self.androidRevocationList = androidRevocationList
        self.androidRevocationRefresh = androidRevocationRefresh
    }

    /// Applies `HOLDFAST_CHALLENGE_LIFETIME_SECS`, `HOLDFAST_DPOP_NONCE` (`required` | `off`),
    /// `HOLDFAST_ANDROID_REVOCATION_LIST` (a path or an http(s) URL) and `HOLDFAST_ANDROID_REVOCATION_REFRESH_SECS`.
    mutating func apply(environment value: (String) -> String?) throws(ConfigurationError) {
        if let text = value("HOLDFAST_CHALLENGE_LIFETIME_SECS") {
            guard let seconds = Int(text), (10...Self.maximumChallengeLifetimeSeconds).contains(seconds) else {
                throw ConfigurationError(variable: "HOLDFAST_CHALLENGE_LIFETIME_SECS",
                                         reason: "must be an integer from 10 to \(Self.maximumChallengeLifetimeSeconds)")
            }
            challengeLifetime = .seconds(seconds)
        }
        if let text = value("HOLDFAST_DPOP_NONCE") {
            switch text.lowercased() {
            case "required": requireDPoPNonce = true
            case "off": requireDPoPNonce = false
            default: throw ConfigurationError(variable: "HOLDFAST_DPOP_NONCE", reason: "must be required or off")
            }
        }
        if let text = value("HOLDFAST_ANDROID_REVOCATION_LIST") {
            androidRevocationList = try RevocationListSource(parsing: text)
        }
        if let text = value("HOLDFAST_ANDROID_REVOCATION_REFRESH_SECS") {
            let range = Self.revocationRefreshSecondsRange
            guard let seconds = Int(text), range.contains(seconds) else {
                throw ConfigurationError(variable: "HOLDFAST_ANDROID_REVOCATION_REFRESH_SECS",
                                         reason: "must be an integer from \(range.lowerBound) to \(range.upperBound)")
            }
            androidRevocationRefresh = .seconds(seconds)
        }
    }

    var description: [String] {
        ["challenge lifetime: \(challengeLifetime.components.seconds)s",
         "dpop nonce: \(requireDPoPNonce ? "required" : "off")",
         "attestation roots: \(appAttestTrustedRoots == nil && androidTrustedRoots == nil ? "platform" : "injected")",
         "android revocation list: \(androidRevocationList)"
             + (androidRevocationList == .bundled ? "" : ", refreshed every \(androidRevocationRefresh.components.seconds)s")]
    }
}
