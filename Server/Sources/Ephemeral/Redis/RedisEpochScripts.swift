/// The Lua scripts that keep the store's epoch (docs/operations.md "A store that lost its memory"), run atomically by Redis.
///
/// Both begin alike. `KEYS[1]` is the epoch (milliseconds since 1970 on Redis's clock, no expiry), `KEYS[2]` the
/// `run_id` of the Redis process that the epoch belongs to, `ARGV[1]` the node's clock (used only where Redis cannot
/// give its own time in a script that writes, before 3.2), `ARGV[2]` the `run_id` the node's connection read when
/// it opened ('' when Redis refused `INFO`). The epoch is written anew, as Redis's `TIME`, when it is missing (the
/// memory was lost) or when the recorded `run_id` is not the connected server's (the server was started again —
/// from an old snapshot it still holds an epoch, and the records spent since that snapshot are gone).
enum RedisEpochScripts {
    /// Why the script answered the epoch it did (its last element).
    enum Reason: Int64 {
        /// The epoch was there, written by the Redis process now running.
        case unchanged = 0
        /// There was no epoch: an empty Redis (its first use, or one that lost its memory).
        case epochMissing = 1
        /// There was an epoch, but another Redis process wrote it: a restart, whatever it kept.
        case serverRestarted = 2
    }

    static let epochKey = "store-epoch"
    static let runIDKey = "store-epoch-run-id"

    /// Leaves the epoch in `e` and the reason in `reason`.
    private static let prelude = """
        if redis.replicate_commands then redis.replicate_commands() end
        local e = redis.call('GET', KEYS[1])
        local reason = 0
        if ARGV[2] ~= '' and redis.call('GET', KEYS[2]) ~= ARGV[2] then
          redis.call('SET', KEYS[2], ARGV[2])
          if e then reason = 2 end
          e = false
        end
        if not e then
          e = ARGV[1]
          if redis.replicate_commands then
            local t = redis.call('TIME')
            e = string.format('%.0f', tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))
          end
          redis.call('SET', KEYS[1], e)
          if reason == 0 then reason = 1 end
        end

        """

    /// `{epoch, reason}`.
    static let epoch = prelude + """
        return {e, reason}
        """

    /// `KEYS[3]` the item, `ARGV[3]` its lifetime in milliseconds: `{epoch, 1 when recorded now (SET NX PX) else 0,
    /// reason}`, in one atomic step.
    static let spend = prelude + """
        if redis.call('SET', KEYS[3], '1', 'NX', 'PX', ARGV[3]) then return {e, 1, reason} end
        return {e, 0, reason}
        """
}
