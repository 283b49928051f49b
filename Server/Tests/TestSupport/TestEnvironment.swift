import Foundation

/// Where the test suites find what lives outside the package: the shared vectors, the interop peers and the
/// optional PostgreSQL / Redis servers that `.ci/run` starts.
public enum TestEnvironment {
    /// The tenant package's root (Server/), found from this file's location (Server/Tests/TestSupport/TestEnvironment.swift).
    /// Symlinks are resolved, so a development package that links these folders still finds the real root.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The repository's root: the app-facing package, README.md, docs/ and Examples/ (docs/DESIGN.md §3).
    public static let repositoryRoot: URL = packageRoot.deletingLastPathComponent()

    /// `../shared` beside the project, or `HOLDFAST_SHARED_DIR`.
    public static let sharedDirectory: URL = {
        if let override = ProcessInfo.processInfo.environment["HOLDFAST_SHARED_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared")
    }()

    public static let vectorsDirectory: URL = sharedDirectory.appendingPathComponent("vectors")

    /// A file of `shared/vectors/`, by its path relative to that folder.
    public static func vectorURL(_ relativePath: String) -> URL {
        vectorsDirectory.appendingPathComponent(relativePath)
    }

    /// The bytes of a file of `shared/vectors/`.
    public static func vector(_ relativePath: String) throws -> Data {
        try Data(contentsOf: vectorURL(relativePath))
    }

    /// A JSON vector file decoded as a dictionary.
    public static func jsonVector(_ relativePath: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: vector(relativePath))
        guard let dictionary = object as? [String: Any] else {
            throw TestSupportError("\(relativePath) is not a JSON object")
        }
        return dictionary
    }

    /// `HOLDFAST_TEST_POSTGRES_URL`, set by `.ci/run`; the PostgreSQL variants of the storage tests skip without it.
    public static var postgresURL: String? { nonEmpty("HOLDFAST_TEST_POSTGRES_URL") }

    /// `HOLDFAST_TEST_REDIS_URL`, set by `.ci/run`; the Redis variants of the ephemeral-store tests skip without it.
    public static var redisURL: String? { nonEmpty("HOLDFAST_TEST_REDIS_URL") }

    static func nonEmpty(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }
}

public struct TestSupportError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Decodes a hex string (whitespace ignored) — test-only convenience.
public func hexBytes(_ hex: String) -> [UInt8] {
    let digits = hex.filter { !$0.isWhitespace }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    var index = digits.startIndex
    while index < digits.endIndex {
        let next = digits.index(index, offsetBy: 2, limitedBy: digits.endIndex) ?? digits.endIndex
        guard let byte = UInt8(digits[index..<next], radix: 16) else { preconditionFailure("bad hex in test: \(hex)") }
        bytes.append(byte)
        index = next
    }
    return bytes
}

/// Hex string of bytes, lower case.
public func hexString<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
    bytes.map { String(format: "%02x", $0) }.joined()
}
