import Foundation

/// What ties the SDK to a tenant (DESIGN.md §1 T): the tenant's host and the holder application the app is
/// registered as. Without it, tethering and wallet attestation fail with `NOT_CONFIGURED`.
public struct PlatformConfiguration: Sendable, Hashable {
    /// `tenant.example.com` (HTTPS is implied) or a full base URL (`http://127.0.0.1:8080` for local servers).
    public var tenantHost: String
    public var applicationId: String
    /// Retries of network errors and 5xx answers.
    public var retryPolicy: RetryPolicy
    /// Renew the license once this fraction of its lifetime has passed (when online).
    public var renewalFraction: Double
    /// When the platform cannot attest, register with an assertion (`appAttestationType: none`) instead of failing
    /// with `ATTESTATION_UNAVAILABLE`. The tenant still decides whether it accepts it.
    public var allowsAssertionFallback: Bool
    /// The waits of the automatic work (docs/sdk.md "Holder: automatic tethering") after a failed pass: exponential from
    /// `initialDelay` to `maximumDelay` while the tenant cannot be reached, `maximumDelay` after a refusal. Only
    /// the delays are used.
    public var automaticBackoff: RetryPolicy
    /// An id of the app's own that the tenant stores with the instance.
    public var externalReferenceId: String?
    /// The SDK version reported in `sdkDetails`.
    public var sdkVersion: String

    #if DEBUG
    /// Dev / QA bypass (DESIGN.md §1 R): sends `X-Holdfast-Dev-Mode: true` on tenant calls. Compiled only in debug
    /// builds; the tenant accepts it only for non-production applications that allow it.
    public var developmentIntegrityBypass = false
    #endif

    public init(tenantHost: String, applicationId: String, retryPolicy: RetryPolicy = RetryPolicy(),
                renewalFraction: Double = 0.75, allowsAssertionFallback: Bool = true, externalReferenceId: String? = nil,
                sdkVersion: String = HoldfastSDKInfo.version,
                automaticBackoff: RetryPolicy = RetryPolicy(initialDelay: 15, maximumDelay: 900)) {
        self.tenantHost = tenantHost
        self.applicationId = applicationId
        self.retryPolicy = retryPolicy
        self.renewalFraction = min(max(renewalFraction, 0), 1)
        self.allowsAssertionFallback = allowsAssertionFallback
        self.externalReferenceId = externalReferenceId
        self.sdkVersion = sdkVersion
        self.automaticBackoff = automaticBackoff
    }

    /// The tenant's base URL, or `nil` when `tenantHost` cannot be one.
    var baseURL: URL? {
        let text = tenantHost.contains("://") ? tenantHost : "https://" + tenantHost
        guard let url = URL(string: text.hasSuffix("/") ? String(text.dropLast()) : text),
              let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil else { return nil }
        return url
    }
}
