// swift-tools-version: 6.1
// Holdfast — an open, self-hostable mobile-credential platform. This manifest is what an app reads when it adds the
// repository (by URL or path): the holder SDK and the standards modules it is built from, and nothing else, so that
// an app resolves exactly swift-crypto, swift-asn1 and swift-certificates (docs/DESIGN.md §3). The tenant server,
// the `holdfast` command and every test live in Server/, a package of its own that depends on this one by path.
import PackageDescription

let package = Package(
    name: "Holdfast",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "HoldfastSDK", targets: ["HoldfastSDK"]),
        .library(name: "CBOR", targets: ["CBOR"]),
        .library(name: "COSE", targets: ["COSE"]),
        .library(name: "JOSE", targets: ["JOSE"]),
        .library(name: "CertificatePath", targets: ["CertificatePath"]),
        .library(name: "MDoc", targets: ["MDoc"]),
        .library(name: "MDocProximity", targets: ["MDocProximity"]),
        .library(name: "StatusList", targets: ["StatusList"]),
        .library(name: "OpenID4VCI", targets: ["OpenID4VCI"]),
        .library(name: "OpenID4VP", targets: ["OpenID4VP"]),
        .library(name: "DigitalCredentials", targets: ["DigitalCredentials"]),
        .library(name: "PresentationVerification", targets: ["PresentationVerification"]),
        .library(name: "Attestation", targets: ["Attestation"]),
        .library(name: "ClientAttestation", targets: ["ClientAttestation"]),
        .library(name: "HoldfastProtocol", targets: ["HoldfastProtocol"]),
        // QR codes (ISO/IEC 18004): the proximity engagement's image in an app, the verifier page and the terminal.
        .library(name: "QR", targets: ["QR"]),
        // The shared basics (`Locked`, `Hex`) that the tenant server in Server/ builds on as well.
        .library(name: "Plumbing", targets: ["Plumbing"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
    ],
    targets: [
        // MARK: libraries usable in an app, a server and a command-line tool alike
        // The shared basics under every module: the one lock type (`Locked`) and the one hex encoder (`Hex`).
        .target(name: "Plumbing"),
        .target(name: "QR"),
        .target(name: "CBOR", dependencies: ["Plumbing"]),
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
        // ISO/IEC 18013-5 §8–9 proximity presentation: DeviceEngagement (QR), SessionEstablishment / SessionData,
        // session encryption, the mdoc's and the reader's session state and BLE message framing, without I/O (the
        // SDK's transports move the messages).
        .target(name: "MDocProximity", dependencies: [
            "CBOR", "COSE", "JOSE", "MDoc", "Plumbing",
            .product(name: "Crypto", package: "swift-crypto"),
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
        .target(name: "OpenID4VCI", dependencies: ["JOSE", "Plumbing"]),
        // OpenID4VP 1.0's wire types and the ISO/IEC TS 18013-7:2024 Annex B pieces the verifier and the wallet use
        // (authorization request URI, request object, DCQL and presentation definitions, response, handovers), used by
        // the verifier in the server and the wallet in the SDK.
        .target(name: "OpenID4VP", dependencies: [
            "JOSE", "MDoc", "CBOR",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // The W3C Digital Credentials API's wire types for both of its registered protocols: the request and response
        // JSON, and ISO/IEC TS 18013-7 Annex C's EncryptionInfo, EncryptedResponse, SessionTranscript and HPKE (the
        // OpenID4VP Appendix A handover is OpenID4VP's), used by the verifier in the server and the wallet in the SDK.
        .target(name: "DigitalCredentials", dependencies: [
            "CBOR", "COSE", "JOSE", "MDoc",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // The checks of a presented DeviceResponse and the result they give (docs/DESIGN.md), shared by the tenant's
        // verifier and the SDK's proximity mdoc reader: what is asked, chain, signatures, digests, device authentication
        // (signature or deviceMac), validity, status, with the protocol's SessionTranscript as an input.
        .target(name: "PresentationVerification", dependencies: [
            "CBOR", "HoldfastProtocol", "JOSE", "MDoc", "OpenID4VP",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
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
            "DigitalCredentials", "QR", "MDocProximity", "PresentationVerification",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
    ]
)
