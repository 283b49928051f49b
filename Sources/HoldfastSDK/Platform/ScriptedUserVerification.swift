/// `UserVerification` for Linux, tests and simulated devices (DESIGN.md §3, "scripted"): the answers are given in
/// advance and used in order, one per prompt; the prompts are recorded. With no answer left, a prompt is
/// `unavailable` — a script never verifies a user by default.
public actor ScriptedUserVerification: UserVerification {
    /// One prompt's outcome.
    public enum Answer: Sendable, Hashable {
        case verified
        case refused(UserVerificationError)
    }

    /// A prompt the script answered.
    public struct Prompt: Sendable, Hashable {
        public let policy: UserVerificationPolicy
        public let reason: String
    }

    private var answers: [Answer]
    private var unavailablePolicies: [UserVerificationPolicy: UserVerificationError]
    /// Every prompt so far, in order.
    public private(set) var prompts: [Prompt] = []

    /// - Parameters:
    ///   - answers: the outcomes of the next prompts, in order.
    ///   - unavailablePolicies: policies the "device" cannot evaluate, with the error `checkAvailability` and
    ///     `verify` throw for each.
    public init(answers: [Answer] = [], unavailablePolicies: [UserVerificationPolicy: UserVerificationError] = [:]) {
        self.answers = answers
        self.unavailablePolicies = unavailablePolicies
    }

    /// Appends answers for later prompts.
    public func enqueue(_ more: Answer...) {
        answers.append(contentsOf: more)
    }

    /// The answers not used yet.
    public var remainingAnswers: [Answer] { answers }

    public func checkAvailability(of policy: UserVerificationPolicy) async throws(UserVerificationError) {
        if let error = unavailablePolicies[policy] { throw error }
    }

    public func verify(_ policy: UserVerificationPolicy, reason: String) async throws(UserVerificationError) {
        if let error = unavailablePolicies[policy] { throw error }
        prompts.append(Prompt(policy: policy, reason: reason))
        guard !answers.isEmpty else { throw .unavailable("the script has no answer left for \"\(reason)\"") }
        switch answers.removeFirst() {
        case .verified: return
        case .refused(let error): throw error
        }
    }
}
