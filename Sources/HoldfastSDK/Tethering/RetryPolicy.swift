/// Bounded retries (DESIGN.md §1 R): network errors and 5xx answers are retried with exponential backoff and
/// jitter, each time from a fresh challenge; `INVALID_CHALLENGE` / `CHALLENGE_EXPIRED` restart from step 1 (no
/// wait); `ATTESTATION_FAILED` is retried once.
public struct RetryPolicy: Sendable, Hashable {
    /// Retries after the first attempt for network errors and 5xx.
    public var maximumNetworkRetries: Int
    /// The first backoff; doubled on each retry.
    public var initialDelay: Double
    /// No backoff is longer than this.
    public var maximumDelay: Double
    /// Restarts from step 1 after a refused challenge.
    public var maximumChallengeRestarts: Int
    /// Retries after `ATTESTATION_FAILED`.
    public var maximumAttestationRetries: Int

    public init(maximumNetworkRetries: Int = 4, initialDelay: Double = 0.5, maximumDelay: Double = 8,
                maximumChallengeRestarts: Int = 2, maximumAttestationRetries: Int = 1) {
        self.maximumNetworkRetries = max(0, min(maximumNetworkRetries, 10))
        self.initialDelay = max(0, initialDelay)
        self.maximumDelay = max(0, maximumDelay)
        self.maximumChallengeRestarts = max(0, min(maximumChallengeRestarts, 10))
        self.maximumAttestationRetries = max(0, min(maximumAttestationRetries, 3))
    }

    /// The wait before retry `retry` (0-based): `min(maximumDelay, initialDelay · 2^retry)`, scaled by
    /// `0.5 + jitter / 2` ("equal jitter"), so it lies between half and all of the exponential value.
    public func delay(forRetry retry: Int, jitter: Double) -> Double {
        let exponential = min(maximumDelay, initialDelay * Double(1 << min(retry, 20)))
        return exponential * (0.5 + min(max(jitter, 0), 1) / 2)
    }
}
