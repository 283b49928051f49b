/// How the in-memory ephemeral store's room is divided by purpose (DESIGN.md §4 "Ephemeral state"), so that
/// what anyone can cause to be written never takes the room of what authenticated calls need: spent registration
/// challenges in one part, the replay records of instance calls (DPoP `jti`) in the other. With Redis the room is
/// Redis' own (`maxmemory`); a full Redis answers like a full part here.
public struct EphemeralCapacity: Sendable, Equatable {
    /// Spent registration challenges kept until they expire (`HOLDFAST_EPHEMERAL_CHALLENGE_ENTRIES`).
    public var challengeEntries: Int
    /// DPoP `jti` records of instance calls (`HOLDFAST_EPHEMERAL_REPLAY_ENTRIES`).
    public var replayEntries: Int

    public static let defaultChallengeEntries = 100_000
    public static let defaultReplayEntries = 200_000
    static let allowedEntries = 100...50_000_000

    public init(challengeEntries: Int = defaultChallengeEntries, replayEntries: Int = defaultReplayEntries) {
        self.challengeEntries = challengeEntries
        self.replayEntries = replayEntries
    }

    mutating func apply(environment value: (String) -> String?) throws(ConfigurationError) {
        func entries(_ variable: String) throws(ConfigurationError) -> Int? {
            guard let text = value(variable) else { return nil }
            guard let parsed = Int(text), Self.allowedEntries.contains(parsed) else {
                throw ConfigurationError(variable: variable, reason: "must be an integer from \(Self.allowedEntries.lowerBound) to \(Self.allowedEntries.upperBound)")
            }
            return parsed
        }
        if let parsed = try entries("HOLDFAST_EPHEMERAL_CHALLENGE_ENTRIES") { challengeEntries = parsed }
        if let parsed = try entries("HOLDFAST_EPHEMERAL_REPLAY_ENTRIES") { replayEntries = parsed }
    }
}
