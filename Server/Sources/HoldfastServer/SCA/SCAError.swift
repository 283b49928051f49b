import HoldfastProtocol
import Hummingbird

/// Why an SCA wallet operation failed (docs/server-api.md "SCA wallet (back end)"). The codes are `HoldfastErrorCode`s, shared with the SDK;
/// this type only decides status, title and headers (STYLE habit 5). Validation failures stay
/// `ProblemError.validation` (400 `VALIDATION_FAILED` with the fields at fault), as everywhere.
public enum SCAError: Error, Sendable, Equatable, ProblemConvertible {
    /// No wallet with this id (or an id that is not one).
    case walletNotFound(id: String)
    /// The wallet is in a state the operation does not apply to (a locked wallet unlocked twice is fine; a deleted
    /// one locked is not).
    case walletState(SCAWalletState)
    /// The activation code is unknown, used already or expired.
    case invalidActivationCode
    /// Too many wrong codes were given for this activation (its selector).
    case activationLocked
    /// The source's budget of wrong codes for this hour is spent; `retryAfter` seconds until the hour ends.
    case activationAttemptsExhausted(retryAfter: Int64)
    /// No recorded eligibility denial with this reference.
    case denialNotFound(reference: String)
    /// A PIN attempt for a wallet whose customer has no PIN enrolled (yet, or since a reset).
    case credentialsNotSet
    /// New credentials for a wallet whose biometry key is enrolled and that has no PIN to prove them by: the back
    /// end resets its credentials first.
    case credentialsSet

    public var problemStatus: HTTPResponse.Status {
        switch self {
        case .walletNotFound, .denialNotFound: .notFound
        case .walletState, .credentialsNotSet, .credentialsSet: .conflict
        case .invalidActivationCode, .activationLocked: .badRequest
        case .activationAttemptsExhausted: .tooManyRequests
        }
    }

    public var problemCode: HoldfastErrorCode {
        switch self {
        case .walletNotFound, .denialNotFound: .notFound
        case .walletState, .credentialsNotSet, .credentialsSet: .conflict
        case .invalidActivationCode: .invalidActivationCode
        case .activationLocked: .activationLocked
        case .activationAttemptsExhausted: .activationAttemptsExhausted
        }
    }

    public var problemTitle: String {
        switch self {
        case .walletNotFound: "Wallet not found"
        case .walletState: "Wallet state"
        case .invalidActivationCode: "Invalid activation code"
        case .activationLocked: "Activation locked"
        case .activationAttemptsExhausted: "Activation attempts exhausted"
        case .denialNotFound: "Denial not found"
        case .credentialsNotSet: "Credentials not set"
        case .credentialsSet: "Credentials set"
        }
    }

    public var problemDetail: String? {
        switch self {
        case .walletNotFound(let id): "no SCA wallet \(id.prefix(64))"
        case .walletState(let state): "the wallet is \(state)"
        case .invalidActivationCode: "the activation code is unknown, used already or expired"
        case .activationLocked: "too many wrong codes were given for this activation: the wallet must be made again (a new code)"
        case .activationAttemptsExhausted: "too many wrong activation codes from this source this hour; try again later"
        case .denialNotFound(let reference): "no eligibility denial \(reference.prefix(64))"
        case .credentialsNotSet: "the customer's PIN is not enrolled: set the credentials first"
        case .credentialsSet: "the credentials are set and there is no PIN to prove them by: the back end resets them first"
        }
    }

    public var problemHeaders: HTTPFields {
        guard case .activationAttemptsExhausted(let retryAfter) = self else { return [:] }
        return [.retryAfter: String(retryAfter)]
    }
}

extension SCAError: CustomStringConvertible {
    public var description: String { "\(problemCode.rawValue) (\(problemStatus.code)): \(problemDetail ?? problemTitle)" }
}
