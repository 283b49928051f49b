// swift-tools-version: 6.1
// Holdfast's tenant server, the `holdfast` command and every test of the repository: a package of its own that
// depends on the repository root (the holder SDK and the standards modules) by path, so that an app depending on the
// root never resolves the server stack (docs/DESIGN.md §3). `root("CBOR")` names a product of the root package; a
// plain string, a target of this one.
import PackageDescription

/// A product of the repository root's package (the holder SDK and the standards modules).
func root(_ module: String) -> Target.Dependency { .product(name: module, package: "Holdfast") }

let package = Package(
    name: "HoldfastTenant",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "HoldfastAdmin", targets: ["HoldfastAdmin"]),
        .library(name: "HoldfastServer", targets: ["HoldfastServer"]),
        .library(name: "Ephemeral", targets: ["Ephemeral"]),
        .executable(name: "holdfast", targets: ["holdfast"]),
    ],
    dependencies: [
        .package(name: "Holdfast", path: ".."),
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
        // MARK: server
        // The system's SQLite (Debian: libsqlite3-dev, which .ci/run installs; Apple platforms: the SDK's), and one
        // C function for the variadic sqlite3_config.
        .target(name: "CSQLite", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(name: "SQLiteStorage", dependencies: [
            "CSQLite", root("Plumbing"),
            .product(name: "SQLKit", package: "sql-kit"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "HoldfastAdmin", dependencies: [root("HoldfastProtocol"), root("JOSE"), root("OpenID4VCI")]),
        .target(name: "Ephemeral", dependencies: [
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "HoldfastServer", dependencies: [
            root("JOSE"), root("Attestation"), "Ephemeral", root("HoldfastProtocol"), "HoldfastAdmin", "SQLiteStorage", root("MDoc"), root("StatusList"), root("COSE"),
            root("ClientAttestation"), root("CBOR"), root("QR"), root("Plumbing"), root("OpenID4VCI"), root("OpenID4VP"), root("CertificatePath"), root("DigitalCredentials"),
            root("PresentationVerification"),
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
            root("CBOR"), root("COSE"), root("JOSE"), root("Attestation"), root("HoldfastSDK"), "HoldfastServer", root("HoldfastProtocol"), root("MDoc"), root("StatusList"),
            "HoldfastAdmin", root("ClientAttestation"), root("QR"), root("Plumbing"), root("OpenID4VCI"), root("OpenID4VP"), root("DigitalCredentials"),
            root("PresentationVerification"), root("MDocProximity"),
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
            root("Plumbing"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ], path: "Tests/TestSupport"),
        .target(name: "ServerTestSupport", dependencies: [
            "HoldfastServer", root("Plumbing"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "SQLKit", package: "sql-kit"),
        ], path: "Tests/ServerTestSupport"),
        .testTarget(name: "PlumbingTests", dependencies: [root("Plumbing")]),
        .testTarget(name: "CBORTests", dependencies: ["TestSupport", root("CBOR")]),
        .testTarget(name: "COSETests", dependencies: [
            "TestSupport", root("COSE"), root("CBOR"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .testTarget(name: "CertificatePathTests", dependencies: [
            "TestSupport", root("CertificatePath"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        .testTarget(name: "JOSETests", dependencies: [
            "TestSupport", root("JOSE"), root("CertificatePath"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .testTarget(name: "MDocTests", dependencies: [
            "TestSupport", root("CertificatePath"), root("MDoc"), root("CBOR"), root("COSE"), root("OpenID4VP"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        .testTarget(name: "MDocProximityTests", dependencies: [
            "TestSupport", root("MDocProximity"), root("MDoc"), root("COSE"), root("CBOR"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .testTarget(name: "StatusListTests", dependencies: [
            "TestSupport", root("CertificatePath"), root("StatusList"), root("CBOR"), root("COSE"), root("JOSE"), root("MDoc"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
        ]),
        .testTarget(name: "OpenID4VCITests", dependencies: [
            root("OpenID4VCI"), root("JOSE"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .testTarget(name: "PresentationVerificationTests", dependencies: [
            "TestSupport", root("PresentationVerification"), root("HoldfastProtocol"), root("MDoc"), root("OpenID4VP"), root("CBOR"),
            root("COSE"), root("JOSE"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
        ]),
        .testTarget(name: "OpenID4VPTests", dependencies: [root("OpenID4VP"), root("JOSE"), root("MDoc"), root("Plumbing"),
                                                          .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "DigitalCredentialsTests", dependencies: [
            "TestSupport", root("DigitalCredentials"), root("OpenID4VP"), root("MDoc"), root("COSE"), root("CBOR"), root("JOSE"), root("Plumbing"),
            .product(name: "Crypto", package: "swift-crypto"),
        ], resources: [.copy("Vectors")]),
        .testTarget(name: "AttestationTests", dependencies: [
            "TestSupport", root("Attestation"), root("CBOR"), root("COSE"), root("Plumbing"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        .testTarget(name: "HoldfastProtocolTests", dependencies: [
            root("HoldfastProtocol"), root("JOSE"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .testTarget(name: "ClientAttestationTests", dependencies: [
            "TestSupport", root("ClientAttestation"), root("HoldfastProtocol"), root("JOSE"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .testTarget(name: "HoldfastAdminTests", dependencies: ["HoldfastAdmin", root("HoldfastProtocol")]),
        .testTarget(name: "HoldfastSDKTests", dependencies: [
            "TestSupport", root("CertificatePath"), root("HoldfastSDK"), root("HoldfastProtocol"), root("JOSE"), root("ClientAttestation"), root("StatusList"), root("CBOR"), root("COSE"), root("MDoc"),
            root("OpenID4VP"), root("DigitalCredentials"), root("MDocProximity"),
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
            "HoldfastServer", root("JOSE"), root("HoldfastProtocol"), "HoldfastAdmin", root("ClientAttestation"), root("CBOR"), root("Attestation"), "Ephemeral",
            root("MDoc"), root("StatusList"), root("COSE"), root("OpenID4VP"), root("OpenID4VCI"), root("DigitalCredentials"),
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
            "TestSupport", "ServerTestSupport", "holdfast", root("HoldfastSDK"), "HoldfastServer", root("HoldfastProtocol"), "HoldfastAdmin",
            root("ClientAttestation"), root("JOSE"), root("MDoc"), root("COSE"), root("CBOR"), root("StatusList"), root("Attestation"), root("OpenID4VP"), root("Plumbing"), root("DigitalCredentials"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "SQLKit", package: "sql-kit"),
        ], exclude: ["Browser/verifier_page_driver.py"]),
        .testTarget(name: "HoldfastCLITests", dependencies: [
            "TestSupport", "holdfast", root("CBOR"), root("COSE"), root("JOSE"), root("MDoc"), root("StatusList"), root("QR"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
    ]
)
