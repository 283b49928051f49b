// swift-tools-version: 6.1
// Holdfast — an open, self-hostable mobile-credential platform. See docs/DESIGN.md §3 for the module map:
// the library modules (CBOR … Attestation) never import the server stack.
import PackageDescription

let package = Package(
    name: "Holdfast",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "CBOR", targets: ["CBOR"]),
        .library(name: "COSE", targets: ["COSE"]),
        .library(name: "JOSE", targets: ["JOSE"]),
        .library(name: "MDoc", targets: ["MDoc"]),
        .library(name: "StatusList", targets: ["StatusList"]),
        .library(name: "Attestation", targets: ["Attestation"]),
        .library(name: "Ephemeral", targets: ["Ephemeral"]),
        .library(name: "ClientAttestation", targets: ["ClientAttestation"]),
        .library(name: "HoldfastProtocol", targets: ["HoldfastProtocol"]),
        .library(name: "HoldfastAdmin", targets: ["HoldfastAdmin"]),
        .library(name: "HoldfastSDK", targets: ["HoldfastSDK"]),
        .library(name: "HoldfastServer", targets: ["HoldfastServer"]),
        .executable(name: "holdfast", targets: ["holdfast"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
    ],
    targets: [
        // MARK: libraries usable in an app, a server and a command-line tool alike
        .target(name: "CBOR"),
        .target(name: "COSE", dependencies: [
            "CBOR",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .target(name: "JOSE", dependencies: [
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
        ]),
        .target(name: "MDoc", dependencies: [
            "CBOR", "COSE",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        // The system's zlib (Debian: zlib1g-dev, which .ci/run installs; Apple platforms: the SDK's) for `lst`.
        .target(name: "CZlib", linkerSettings: [.linkedLibrary("z")]),
        .target(name: "StatusList", dependencies: [
            "CBOR", "COSE", "JOSE", "CZlib",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
        ]),
        .target(name: "Attestation", dependencies: [
            "CBOR", "COSE",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        .target(name: "ClientAttestation", dependencies: ["JOSE"]),
        .target(name: "HoldfastProtocol", dependencies: [
            "JOSE",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .target(name: "HoldfastSDK", dependencies: [
            "JOSE", "HoldfastProtocol",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // MARK: server
        // The system's SQLite (Debian: libsqlite3-dev, which .ci/run installs; Apple platforms: the SDK's), and one
        // C function for the variadic sqlite3_config.
        .target(name: "CSQLite", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(name: "SQLiteStorage", dependencies: [
            "CSQLite",
            .product(name: "SQLKit", package: "sql-kit"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "HoldfastAdmin", dependencies: ["HoldfastProtocol", "JOSE"]),
        .target(name: "Ephemeral", dependencies: [
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "HoldfastServer", dependencies: [
            "JOSE", "Attestation", "Ephemeral", "HoldfastProtocol", "HoldfastAdmin", "SQLiteStorage", "MDoc", "StatusList", "COSE",
            "ClientAttestation", "CBOR",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
            .product(name: "SQLKit", package: "sql-kit"),
            .product(name: "PostgresKit", package: "postgres-kit"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ], resources: [.copy("openapi.json")]),
        .executableTarget(name: "holdfast", dependencies: [
            "CBOR", "COSE", "JOSE", "Attestation", "HoldfastSDK", "HoldfastServer", "HoldfastProtocol", "MDoc", "StatusList",
            "HoldfastAdmin", "ClientAttestation",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),
        // MARK: tests
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .target(name: "ServerTestSupport", dependencies: [
            "HoldfastServer",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "SQLKit", package: "sql-kit"),
        ], path: "Tests/ServerTestSupport"),
        .testTarget(name: "CBORTests", dependencies: ["TestSupport", "CBOR"]),
        .testTarget(name: "COSETests", dependencies: [
            "TestSupport", "COSE", "CBOR",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .testTarget(name: "JOSETests", dependencies: [
            "TestSupport", "JOSE",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .testTarget(name: "MDocTests", dependencies: [
            "TestSupport", "MDoc", "CBOR", "COSE",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        .testTarget(name: "StatusListTests", dependencies: [
            "TestSupport", "StatusList", "CBOR", "COSE", "JOSE", "MDoc",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
        ]),
        .testTarget(name: "AttestationTests", dependencies: [
            "TestSupport", "Attestation", "CBOR", "COSE",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        .testTarget(name: "HoldfastProtocolTests", dependencies: [
            "HoldfastProtocol", "JOSE",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .testTarget(name: "ClientAttestationTests", dependencies: [
            "ClientAttestation", "HoldfastProtocol", "JOSE",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .testTarget(name: "HoldfastAdminTests", dependencies: ["HoldfastAdmin", "HoldfastProtocol"]),
        .testTarget(name: "HoldfastSDKTests", dependencies: [
            "HoldfastSDK", "HoldfastProtocol", "JOSE", "ClientAttestation",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .testTarget(name: "EphemeralTests", dependencies: [
            "TestSupport", "Ephemeral",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        .testTarget(name: "SQLiteStorageTests", dependencies: [
            "SQLiteStorage",
            .product(name: "SQLKit", package: "sql-kit"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "HoldfastServerTests", dependencies: [
            "TestSupport", "ServerTestSupport",
            "HoldfastServer", "JOSE", "HoldfastProtocol", "HoldfastAdmin", "ClientAttestation", "CBOR", "Attestation", "Ephemeral",
            "MDoc", "StatusList", "COSE",
            .product(name: "PostgresKit", package: "postgres-kit"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "SQLKit", package: "sql-kit"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        .testTarget(name: "HoldfastEndToEndTests", dependencies: [
            "TestSupport", "ServerTestSupport", "holdfast", "HoldfastSDK", "HoldfastServer", "HoldfastProtocol", "HoldfastAdmin",
            "ClientAttestation", "JOSE",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "HoldfastCLITests", dependencies: [
            "TestSupport", "holdfast", "CBOR", "COSE", "JOSE", "MDoc", "StatusList",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
    ]
)
