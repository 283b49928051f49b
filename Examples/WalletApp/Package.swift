// swift-tools-version: 6.1
// An app built from the SDK guide (docs/sdk.md): every Swift snippet the guide shows is code here, compiled in CI,
// and `main` runs the guide's flow against a tenant (Server/Tests/HoldfastEndToEndTests/WalletAppTests.swift). It
// depends on the repository root by path, as an app would by URL, and imports only HoldfastSDK: CI checks that its
// Package.resolved names exactly swift-crypto, swift-asn1 and swift-certificates.
import PackageDescription

let package = Package(
    name: "WalletApp",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        .package(name: "Holdfast", path: "../.."),
    ],
    targets: [
        .executableTarget(name: "WalletApp", dependencies: [
            .product(name: "HoldfastSDK", package: "Holdfast"),
        ]),
    ]
)
