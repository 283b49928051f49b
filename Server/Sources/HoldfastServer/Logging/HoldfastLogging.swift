import Logging

/// The server's loggers, built from the configuration without touching `LoggingSystem` (which may be
/// bootstrapped once per process), so tests and `holdfast demo` can build many applications.
public enum HoldfastLogging {
    public static func logger(_ configuration: HoldfastConfiguration, label: String = "holdfast",
                              sink: LogSink = .standardError) -> Logger {
        Logger(label: label) { label in
            JSONLogHandler(label: label, level: configuration.logLevel, format: configuration.logFormat, sink: sink)
        }
    }

    /// For the executable: every logger of the process (libraries included) writes in Holdfast's format.
    public static func bootstrapProcess(_ configuration: HoldfastConfiguration) {
        LoggingSystem.bootstrap { label in
            JSONLogHandler(label: label, level: configuration.logLevel, format: configuration.logFormat)
        }
    }
}
