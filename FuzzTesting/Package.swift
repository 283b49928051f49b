// swift-tools-version: 6.1
// Coverage-guided fuzzing of every decoder of untrusted bytes (docs/operations.md "Fuzzing"). A package of its own that
// depends on Holdfast (and Server/, for the Redis protocol reader) by path, so that the sanitizer flags never touch the main build. Build and run with
// `.ci/fuzz [seconds]` from the repository root, or by hand:
//   swift build -c release --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address
//   .build/release/FuzzCBOR Corpus/CBOR -max_total_time=60
import PackageDescription

/// A fuzzer of a module of the repository root's package, or (`package: "HoldfastTenant"`) of Server/'s.
func fuzzTarget(_ name: String, _ products: [String], package: String = "Holdfast", crypto: Bool = false) -> Target {
    .executableTarget(name: name, dependencies: products.map { .product(name: $0, package: package) }
                          + (crypto ? [.product(name: "Crypto", package: "swift-crypto")] : []),
                      path: "Sources/\(name)")
}

let package = Package(
    name: "HoldfastFuzzTesting",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Holdfast", path: ".."),
        .package(name: "HoldfastTenant", path: "../Server"),
        // The keys the Digital Credentials fuzzers open with (the version the root package resolves).
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    ],
    targets: [
        fuzzTarget("FuzzCBOR", ["CBOR"]),
        fuzzTarget("FuzzCOSE", ["COSE"]),
        fuzzTarget("FuzzJOSE", ["JOSE"]),
        fuzzTarget("FuzzCertificate", ["Attestation"]),
        fuzzTarget("FuzzKeyDescription", ["Attestation"]),
        fuzzTarget("FuzzAppAttest", ["Attestation"]),
        fuzzTarget("FuzzRESP", ["Ephemeral"], package: "HoldfastTenant"),
        fuzzTarget("FuzzMDoc", ["MDoc"]),
        fuzzTarget("FuzzStatusList", ["StatusList"]),
        fuzzTarget("FuzzDCAPIRequest", ["DigitalCredentials"]),
        fuzzTarget("FuzzDCAPIResponse", ["DigitalCredentials"], crypto: true),
        fuzzTarget("FuzzEncryptionInfo", ["DigitalCredentials"]),
        fuzzTarget("FuzzEncryptedResponse", ["DigitalCredentials", "MDoc"], crypto: true),
        // ISO/IEC 18013-5 proximity presentation; FuzzSupport holds the Annex D session the seeds decrypt in.
        .target(name: "FuzzSupport", dependencies: [
            .product(name: "CBOR", package: "Holdfast"), .product(name: "MDoc", package: "Holdfast"),
            .product(name: "MDocProximity", package: "Holdfast"), .product(name: "Crypto", package: "swift-crypto"),
        ], path: "Sources/FuzzSupport"),
        fuzzTarget("FuzzDeviceEngagement", ["MDocProximity"]),
        .executableTarget(name: "FuzzSessionEstablishment", dependencies: ["FuzzSupport", .product(name: "MDocProximity", package: "Holdfast")],
                          path: "Sources/FuzzSessionEstablishment"),
        .executableTarget(name: "FuzzSessionData", dependencies: ["FuzzSupport", .product(name: "MDocProximity", package: "Holdfast")],
                          path: "Sources/FuzzSessionData"),
        .executableTarget(name: "FuzzDeviceRequest", dependencies: [
            "FuzzSupport", .product(name: "MDoc", package: "Holdfast"), .product(name: "MDocProximity", package: "Holdfast"),
        ], path: "Sources/FuzzDeviceRequest"),
        fuzzTarget("FuzzBLEReassembly", ["MDocProximity"]),
    ]
)
