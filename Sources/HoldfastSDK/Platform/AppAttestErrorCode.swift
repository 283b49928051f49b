/// DeviceCheck's App Attest error codes (`DCError.Code.rawValue`) and the `PlatformAttestationError` each becomes —
/// written over plain `Int` values so that the decision builds and is tested on Linux. The values are
/// DeviceCheck/DCError.h's; on Apple platforms a test compares them with the framework's.
///
/// The decision (docs/sdk.md "Registration errors"): a device that cannot attest at all (`featureUnsupported`) is
/// `unavailable`; Apple's attestation service unreachable (`serverUnavailable`) is `temporarilyUnavailable` — both
/// fall back to an assertion when the application allows it; anything else is a failed attestation.
enum AppAttestErrorCode {
    static let unknownSystemFailure = 0
    static let featureUnsupported = 1
    static let invalidInput = 2
    static let invalidKey = 3
    static let serverUnavailable = 4

    /// The error for a failed App Attest call; `code` is `nil` when DeviceCheck gave no `DCError`.
    static func platformAttestationError(code: Int?, description: String) -> PlatformAttestationError {
        switch code {
        case featureUnsupported: .unavailable("App Attest is not supported: \(description)")
        case serverUnavailable: .temporarilyUnavailable("Apple's App Attest service cannot be reached now: \(description)")
        default: .failed(description)
        }
    }
}
