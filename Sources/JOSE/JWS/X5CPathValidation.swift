public import CertificatePath
import Foundation

/// The `X5CChainValidator` of the project's one certificate path validator (docs/DESIGN.md "Certificate paths"):
/// the `x5c` chain (RFC 7515 §4.1.6) must reach one of the validator's anchors under swift-certificates' RFC 5280 policy, the
/// issuer rules, validity at `now()`, and `profile`. A refusal throws the ``CertificatePathFailure`` (its `code` is
/// stable), which ``JWSVerifier`` reports as `certificateChainRejected`.
public struct X5CPathValidation<Profile: CertificatePathProfile>: X5CChainValidator {
    public var validator: CertificatePathValidator
    public var profile: Profile
    public var now: @Sendable () -> Date

    public init(validator: CertificatePathValidator, profile: Profile, now: @escaping @Sendable () -> Date) {
        self.validator = validator
        self.profile = profile
        self.now = now
    }

    public func validate(chain: [[UInt8]], header: JOSEHeader) async throws {
        _ = try await validator.validate(chain: chain, profile: profile, at: now())
    }
}
