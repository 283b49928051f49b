import Attestation
import Crypto
import Foundation
import TestSupport

/// The App Attest vectors of shared/vectors/appattest, normalised: each file names its fields a little differently
/// (see the README table), so the cases are found by walking each JSON object with inherited context.
struct AppAttestCase {
    let name: String
    let attestation: [UInt8]
    let keyId: [UInt8]
    let clientDataHash: [UInt8]
    let appId: String
    let environment: AppAttestEnvironment
    let verifyAt: Date
}

struct AppAssertionCase {
    let name: String
    let assertion: [UInt8]
    let keyId: [UInt8]?
    let clientDataHash: [UInt8]
    let appId: String
    let expectedCounter: UInt32
}

enum AppAttestVectors {
    static let files = [
        "apple-validation-guide-2024.json", "apple-validation-guide-2026.json", "bas-d-chiff-2021.json",
        "procivis-one-wallet-dev-2025.json", "srinivas1729-rnclientattest-2024.json", "warden-iphone11-ios16-2023.json",
        "warden-iphone15-ios17-2024.json", "warden-signumtest-2024.json", "veehaitch-ios-14.2.json",
        "veehaitch-ios-14.3-beta-2.json", "veehaitch-ios-14.3-beta-3.json", "veehaitch-ios-14.3.json",
        "veehaitch-ios-14.4-beta-1.json", "veehaitch-ios-14.4-beta-2.json", "veehaitch-ios-14.4.json",
    ]

    static func base64(_ text: String) -> [UInt8]? {
        var normal = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while normal.count % 4 != 0 { normal += "=" }
        return Data(base64Encoded: normal).map { [UInt8]($0) }
    }

    static func load() throws -> (attestations: [AppAttestCase], assertions: [AppAssertionCase]) {
        var attestations: [AppAttestCase] = [], assertions: [AppAssertionCase] = []
        for file in files {
            let root = try TestEnvironment.jsonVector("appattest/" + file)
            walk(root, context: [:], name: file, attestations: &attestations, assertions: &assertions)
        }
        return (attestations, assertions)
    }

    private static func walk(_ object: [String: Any], context: [String: Any], name: String,
                             attestations: inout [AppAttestCase], assertions: inout [AppAssertionCase]) {
        var merged = context
        for (key, value) in object where !(value is [String: Any]) && !(value is [Any]) { merged[key] = value }
        let string = { (key: String) in merged[key] as? String }
        // A nested object's own clientData wins over an inherited hash (Warden's assertions sign other clientData).
        let ownClientData = object["clientDataHashBase64"] == nil && object["clientDataHashSha256Base64"] == nil
            ? (object["clientDataBase64"] ?? object["clientDataBase64Url"]).flatMap { $0 as? String }.flatMap(base64) : nil
        let appId = string("appId") ?? [string("teamIdentifier"), string("bundleIdentifier")].compactMap { $0 }.joined(separator: ".")
        let clientDataHash: [UInt8]? = ownClientData.map { Array(SHA256.hash(data: $0)) } ?? (string("clientDataHashBase64") ?? string("clientDataHashSha256Base64")).flatMap(base64)
            ?? (string("clientDataBase64") ?? string("clientDataBase64Url")).flatMap(base64).map { Array(SHA256.hash(data: $0)) }
            ?? string("clientDataUtf8").map { Array(SHA256.hash(data: Array($0.utf8))) }
        if let attestation = (object["attestationObjectBase64"] ?? object["attestationObjectBase64Url"] ?? object["attestationBase64"])
            .flatMap({ $0 as? String }).flatMap(base64),
           let keyId = (string("keyIdBase64") ?? string("keyIdBase64_derived")).flatMap(base64),
           let clientDataHash, let at = (string("verifyAt") ?? string("timestamp")).flatMap(parseInstant) {
            let environment: AppAttestEnvironment = string("environment")?.hasPrefix("production") == true ? .production : .development
            attestations.append(AppAttestCase(name: name, attestation: attestation, keyId: keyId, clientDataHash: clientDataHash,
                                              appId: appId, environment: environment, verifyAt: at))
        }
        if let assertion = (object["assertionBase64"] ?? object["assertionBase64Url"]).flatMap({ $0 as? String }).flatMap(base64),
           let clientDataHash {
            let counter = merged["counter"].map { "\($0)" } ?? ""
            let expected = (object["expected"] as? [String: Any])?["signCount"] as? Int ?? Int(counter) ?? 0
            assertions.append(AppAssertionCase(name: name, assertion: assertion,
                                               keyId: (string("keyIdBase64") ?? string("keyIdBase64_derived")).flatMap(base64),
                                               clientDataHash: clientDataHash, appId: appId, expectedCounter: UInt32(expected)))
        }
        for (key, value) in object {
            if let child = value as? [String: Any], key != "expected", key != "source" {
                walk(child, context: merged, name: name + "." + key, attestations: &attestations, assertions: &assertions)
            } else if let children = value as? [[String: Any]] {
                for (index, child) in children.enumerated() {
                    walk(child, context: merged, name: "\(name).\(key)[\(index)]", attestations: &attestations, assertions: &assertions)
                }
            }
        }
    }
}
