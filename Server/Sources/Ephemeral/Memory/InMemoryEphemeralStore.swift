/// The embedded default `EphemeralStore` (DESIGN.md §4): a dictionary inside an actor, for a single server node.
///
/// Every operation runs on the actor, so `take` and `setIfAbsent` are atomic without further locking. Expiry is
/// lazy (an expired entry is treated as absent and dropped when touched) plus a sweep of every expired entry at
/// most once per `sweepInterval` and whenever the store is full, so memory stays bounded by `maxEntries` live
/// entries of at most `maxValueBytes` each.
public actor InMemoryEphemeralStore: EphemeralStore {
    public struct Limits: Sendable {
        /// Live (unexpired) entries at most; a new key beyond it fails with `EPHEMERAL_STORE_FULL`.
        public var maxEntries: Int
        /// Bytes of one value at most; beyond it `VALUE_TOO_LARGE`.
        public var maxValueBytes: Int
        /// How often, at most, a write sweeps out every expired entry (bounding the memory of keys never read again).
        public var sweepInterval: Duration

        public init(maxEntries: Int = 100_000, maxValueBytes: Int = 64 * 1024, sweepInterval: Duration = .seconds(10)) {
            self.maxEntries = max(1, maxEntries)
            self.maxValueBytes = max(0, maxValueBytes)
            self.sweepInterval = sweepInterval
        }
    }

    private struct Entry {
        var value: [UInt8]
        /// On the time source's line.
        var expiresAt: Duration
    }

    public nonisolated let backendName = "memory"
    public nonisolated let limits: Limits
    private let timeSource: EphemeralTimeSource
    private var entries: [String: Entry] = [:]
    private var lastSweep: Duration
    /// Milliseconds since 1970 (`establishEpoch`).
    private var epoch: Int64?

    public init(limits: Limits = Limits(), timeSource: EphemeralTimeSource = .system) {
        self.limits = limits
        self.timeSource = timeSource
        self.lastSweep = timeSource.now()
    }

    /// Entries held, expired ones not yet swept included (for tests and metrics).
    public var storedEntryCount: Int { entries.count }

    public func setIfAbsent(_ key: String, value: [UInt8], ttl: Duration) throws -> Bool {
        let lifetime = try ttl.ephemeralLifetime("ttl")
        try checkValueSize(value)
        let now = timeSource.now()
        if liveEntry(key, now: now) != nil { return false }
        try insert(key, Entry(value: value, expiresAt: now + .milliseconds(lifetime)), now: now)
        return true
    }

    public func set(_ key: String, value: [UInt8], ttl: Duration) throws {
        let lifetime = try ttl.ephemeralLifetime("ttl")
        try checkValueSize(value)
        let now = timeSource.now()
        try insert(key, Entry(value: value, expiresAt: now + .milliseconds(lifetime)), now: now)
    }

    public func take(_ key: String) -> [UInt8]? {
        guard let entry = liveEntry(key, now: timeSource.now()) else { return nil }
        entries[key] = nil
        return entry.value
    }

    public func get(_ key: String) -> [UInt8]? {
        liveEntry(key, now: timeSource.now())?.value
    }

    @discardableResult
    public func delete(_ key: String) -> Bool {
        let present = liveEntry(key, now: timeSource.now()) != nil
        entries[key] = nil
        return present
    }

    /// Counters are kept as decimal ASCII, as Redis keeps them, so `get` reads the same bytes on both backends.
    public func increment(_ key: String, window: Duration) throws -> Int64 {
        let lifetime = try window.ephemeralLifetime("window")
        let now = timeSource.now()
        guard var entry = liveEntry(key, now: now) else {
            try insert(key, Entry(value: Array("1".utf8), expiresAt: now + .milliseconds(lifetime)), now: now)
            return 1
        }
        guard entry.value.count <= 20,
              let current = Int64(String(decoding: entry.value, as: UTF8.self)),
              current < Int64.max
        else {
            throw EphemeralStoreError(code: EphemeralStoreError.Code.valueNotInteger,
                                      message: "the value of '\(key)' is not an integer or would overflow")
        }
        let next = current + 1
        entry.value = Array(String(next).utf8)
        entries[key] = entry
        return next
    }

    public func ping() {}

    /// The memory is the process's: it is lost only with the process, whose successor establishes a new epoch at
    /// its start. A store whose epoch was never established (a tool, a test) refuses nothing for its age.
    public func establishEpoch(now: Int64) -> Int64 {
        if let epoch { return epoch }
        epoch = now
        return now
    }

    public func spend(_ key: String, issuedAt: Int64, ttl: Duration, now: Int64) throws -> SpendOutcome {
        if let epoch, issuedAt < epoch { return .issuedBeforeEpoch }
        return try setIfAbsent(key, value: [1], ttl: ttl) ? .spent : .alreadySpent
    }

    /// True when a new key would be refused now (`EPHEMERAL_STORE_FULL`): the store holds `maxEntries` live entries.
    public func isFull() -> Bool {
        if entries.count >= limits.maxEntries { sweepExpired() }
        return entries.count >= limits.maxEntries
    }

    /// Drops every expired entry now.
    public func sweepExpired() {
        let now = timeSource.now()
        entries = entries.filter { $0.value.expiresAt > now }
        lastSweep = now
    }

    // MARK: -

    private func liveEntry(_ key: String, now: Duration) -> Entry? {
        guard let entry = entries[key] else { return nil }
        if entry.expiresAt <= now {
            entries[key] = nil
            return nil
        }
        return entry
    }

    private func insert(_ key: String, _ entry: Entry, now: Duration) throws {
        if now - lastSweep >= limits.sweepInterval { sweepExpired() }
        if entries[key] == nil, entries.count >= limits.maxEntries {
            sweepExpired()
            guard entries.count < limits.maxEntries else {
                throw EphemeralStoreError(code: EphemeralStoreError.Code.storeFull,
                                          message: "the in-memory ephemeral store holds its maximum of \(limits.maxEntries) live entries")
            }
        }
        entries[key] = entry
    }

    private func checkValueSize(_ value: [UInt8]) throws {
        guard value.count <= limits.maxValueBytes else {
            throw EphemeralStoreError(code: EphemeralStoreError.Code.valueTooLarge,
                                      message: "a value of \(value.count) bytes exceeds the limit of \(limits.maxValueBytes)")
        }
    }
}
