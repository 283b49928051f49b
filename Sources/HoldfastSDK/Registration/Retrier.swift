/// Runs one protocol attempt under the `RetryPolicy` (DESIGN.md §1 R): transient failures (no answer, 5xx, 429) wait
/// with exponential backoff and jitter through the `Sleeper` and start again — the attempt always fetches a fresh
/// challenge; `INVALID_CHALLENGE` / `CHALLENGE_EXPIRED` start again at once; `ATTESTATION_FAILED` is retried once.
/// When transient failures outlast the policy the error is `NETWORK_ERROR`.
struct Retrier: Sendable {
    let policy: RetryPolicy
    let sleeper: any Sleeper
    let jitter: @Sendable () -> Double

    func run<T>(isolation: isolated (any Actor)? = #isolation,
                _ attempt: () async throws(HoldfastError) -> T) async throws(HoldfastError) -> T {
        var networkRetries = 0
        var challengeRestarts = 0
        var attestationRetries = 0
        while true {
            do {
                return try await attempt()
            } catch {
                if error.isTransient {
                    guard networkRetries < policy.maximumNetworkRetries else {
                        throw HoldfastError(.networkError, "gave up after \(networkRetries + 1) attempts: \(error.message)",
                                            httpStatus: error.httpStatus, problem: error.problem)
                    }
                    do {
                        try await sleeper.sleep(seconds: policy.delay(forRetry: networkRetries, jitter: jitter()))
                    } catch {
                        throw HoldfastError(.networkError, "cancelled while waiting to retry")
                    }
                    networkRetries += 1
                } else if error.code == .invalidChallenge || error.code == .challengeExpired || error.code == .issuedBeforeStoreReset,
                          challengeRestarts < policy.maximumChallengeRestarts {
                    challengeRestarts += 1
                } else if error.code == .attestationFailed, attestationRetries < policy.maximumAttestationRetries {
                    attestationRetries += 1
                } else {
                    throw error
                }
            }
        }
    }
}
