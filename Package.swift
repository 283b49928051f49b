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
        .library(name: "CertificatePath", targets: ["CertificatePath"]),
        .library(name: "MDoc", targets: ["MDoc"]),
        .library(name: "StatusList", targets: ["StatusList"]),
        .library(name: "OpenID4VCI", targets: ["OpenID4VCI"]),
        .library(name: "OpenID4VP", targets: ["OpenID4VP"]),
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
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    ],
    targets: [
        // MARK: libraries usable in an app, a server and a command-line tool alike
        // The shared basics under every module: the one lock type (`Locked`) and the one hex encoder (`Hex`).
        .target(name: "Plumbing"),
        .target(name: "CBOR", dependencies: ["Plumbing"]),
        .target(name: "QR"),
        .target(name: "COSE", dependencies: [
            "CBOR",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // The one certificate path validator (swift-certificates' Verifier with Holdfast's profiles).
        .target(name: "CertificatePath", dependencies: [
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        .target(name: "JOSE", dependencies: [
            "CertificatePath", "Plumbing",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
        ]),
        .target(name: "MDoc", dependencies: [
            "CertificatePath", "CBOR", "COSE", "Plumbing",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        // The system's zlib (Debian: zlib1g-dev, which .ci/run installs; Apple platforms: the SDK's) for `lst`.
        .target(name: "CZlib", linkerSettings: [.linkedLibrary("z")]),
        .target(name: "StatusList", dependencies: [
            "CertificatePath", "CBOR", "COSE", "JOSE", "CZlib",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
        ]),
        // OpenID4VCI 1.0's wire types (offer, metadata, token, nonce and credential messages, key proofs), used by
        // the issuer in the server and the wallet in the SDK.
        .target(name: "OpenID4VCI", dependencies: ["JOSE"]),
        // OpenID4VP 1.0's wire types and the ISO/IEC TS 18013-7:2024 Annex B pieces the verifier and the wallet use
        // (authorization request URI, request object, DCQL and presentation definitions, response, handovers), used by
        // the verifier in the server and the wallet in the SDK.
        .target(name: "OpenID4VP", dependencies: [
            "JOSE", "MDoc", "CBOR",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .target(name: "Attestation", dependencies: [
            "CBOR", "COSE", "Plumbing",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        .target(name: "ClientAttestation", dependencies: ["JOSE"]),
        .target(name: "HoldfastProtocol", dependencies: [
            "JOSE", "CBOR", "Plumbing", "OpenID4VCI",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .target(name: "HoldfastSDK", dependencies: [
            "CertificatePath", "JOSE", "HoldfastProtocol", "StatusList", "MDoc", "CBOR", "COSE", "Plumbing", "OpenID4VCI", "OpenID4VP",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        // MARK: server
        // The system's SQLite (Debian: libsqlite3-dev, which .ci/run installs; Apple platforms: the SDK's), and one
        // C function for the variadic sqlite3_config.
        .target(name: "CSQLite", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(name: "SQLiteStorage", dependencies: [
            "CSQLite", "Plumbing",
            .product(name: "SQLKit", package: "sql-kit"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
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
            "ClientAttestation", "CBOR", "QR", "Plumbing", "OpenID4VCI", "OpenID4VP", "CertificatePath",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
            .product(name: "SQLKit", package: "sql-kit"),
            .product(name: "PostgresKit", package: "postgres-kit"),
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
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ], resources: [.copy("openapi.json"), .copy("Presentations/verifier.html"), .copy("Presentations/verifier.css"),
                       .copy("Presentations/verifier.js")]),
        .executableTarget(name: "holdfast", dependencies: [
            "CBOR", "COSE", "JOSE", "Attestation", "HoldfastSDK", "HoldfastServer", "HoldfastProtocol", "MDoc", "StatusList",
            "HoldfastAdmin", "ClientAttestation", "QR", "Plumbing", "OpenID4VCI", "OpenID4VP",
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
        .target(name: "TestSupport", dependencies: [
            "Plumbing",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ], path: "Tests/TestSupport"),
        .target(name: "ServerTestSupport", dependencies: [
            "HoldfastServer", "Plumbing",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "SQLKit", package: "sql-kit"),
        ], path: "Tests/ServerTestSupport"),
        .testTarget(name: "PlumbingTests", dependencies: ["Plumbing"]),
        .testTarget(name: "CBORTests", dependencies: ["TestSupport", "CBOR"]),
        .testTarget(name: "COSETests", dependencies: [
            "TestSupport", "COSE", "CBOR",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .testTarget(name: "CertificatePathTests", dependencies: [
            "TestSupport", "CertificatePath",
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        .testTarget(name: "JOSETests", dependencies: [
            "TestSupport", "JOSE", "CertificatePath",
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .testTarget(name: "MDocTests", dependencies: [
            "TestSupport", "CertificatePath", "MDoc", "CBOR", "COSE", "OpenID4VP",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        .testTarget(name: "StatusListTests", dependencies: [
            "TestSupport", "CertificatePath", "StatusList", "CBOR", "COSE", "JOSE", "MDoc",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
        ]),
        .testTarget(name: "OpenID4VCITests", dependencies: [
            "OpenID4VCI", "JOSE",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .testTarget(name: "OpenID4VPTests", dependencies: ["OpenID4VP", "JOSE", "MDoc", "Plumbing"]),
        .testTarget(name: "AttestationTests", dependencies: [
            "TestSupport", "Attestation", "CBOR", "COSE", "Plumbing",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        .testTarget(name: "HoldfastProtocolTests", dependencies: [
            "HoldfastProtocol", "JOSE",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .testTarget(name: "ClientAttestationTests", dependencies: [
            "TestSupport", "ClientAttestation", "HoldfastProtocol", "JOSE",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .testTarget(name: "HoldfastAdminTests", dependencies: ["HoldfastAdmin", "HoldfastProtocol"]),
        .testTarget(name: "HoldfastSDKTests", dependencies: [
            "TestSupport", "CertificatePath", "HoldfastSDK", "HoldfastProtocol", "JOSE", "ClientAttestation", "StatusList", "CBOR", "COSE", "MDoc",
            "OpenID4VP",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
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
            "MDoc", "StatusList", "COSE", "OpenID4VP", "OpenID4VCI",
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
            "ClientAttestation", "JOSE", "MDoc", "COSE", "CBOR", "StatusList", "Attestation", "OpenID4VP", "Plumbing",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "SQLKit", package: "sql-kit"),
        ], exclude: ["Browser/verifier_page_driver.py"]),
        .testTarget(name: "HoldfastCLITests", dependencies: [
            "TestSupport", "holdfast", "CBOR", "COSE", "JOSE", "MDoc", "StatusList", "QR",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
    ]
)
