extension Duration {
    /// The duration in milliseconds, with its fraction (for latencies in logs and benchmarks).
    public var inMilliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }

    /// The duration in whole milliseconds, rounded down (for timestamps kept as milliseconds since 1970).
    public var wholeMilliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
