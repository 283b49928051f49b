import Attestation
import Foundation
import Plumbing

/// The verified facts each subcommand prints. Keys are part of the command's output contract (see each command's
/// discussion text); byte strings are hex, except keys that the other commands take back as base64 (key id, SPKI).
extension AttestOutcome {
    /// App Attest attestation: the key to store (hex point, the form `apple-assertion --public-key` takes as hex),
    /// its key id, the environment, the counter to store and the receipt's size.
    static func verified(_ result: AppAttestAttestationResult, appId: String) -> AttestOutcome {
        .verified([
            "publicKey": hex(result.publicKey),
            "keyId": Data(result.keyId).base64EncodedString(),
            "environment": result.environment.rawValue,
            "appId": appId,
            "counter": Int(result.counter),
            "receiptLength": result.receipt.count,
            "warnings": [String](),
        ])
    }

    /// App Attest assertion: the new counter to store.
    static func verified(_ result: AppAttestAssertionResult, previousCounter: UInt32, appId: String) -> AttestOutcome {
        .verified([
            "counter": Int(result.counter),
            "previousCounter": Int(previousCounter),
            "appId": appId,
            "warnings": [String](),
        ])
    }

    /// Android Key Attestation: the attested key and what KeyDescription says about it. `notChecked` names checks
    /// the command line left out (no `--package`, no `--digest`); they are added to the warnings.
    static func verified(_ result: AndroidKeyAttestationResult, chainLength: Int, trustAnchor: String,
                         notChecked: [String] = []) -> AttestOutcome {
        let description = result.keyDescription
        var rootOfTrust: Any = NSNull()
        if let root = result.rootOfTrust {
            rootOfTrust = [
                "verifiedBootState": root.verifiedBootState.description,
                "deviceLocked": root.deviceLocked,
                "verifiedBootKey": hex(root.verifiedBootKey),
                "verifiedBootHash": root.verifiedBootHash.map(hex) ?? NSNull(),
            ] as [String: Any]
        }
        return .verified([
            "publicKey": Data(result.publicKey).base64EncodedString(),
            "attestationVersion": Int(description.attestationVersion),
            "securityLevel": result.securityLevel.description,
            "keyMintVersion": Int(description.keyMintVersion),
            "keyMintSecurityLevel": description.keyMintSecurityLevel.description,
            "packageNames": result.packageNames,
            "signingCertificateDigests": result.signingCertificateDigests,
            "rootOfTrust": rootOfTrust,
            "remotelyProvisioned": result.isRemotelyProvisioned,
            "chainLength": chainLength,
            "trustAnchor": trustAnchor,
            "warnings": result.warnings.map(\.rawValue) + notChecked,
        ])
    }

    static func hex(_ bytes: [UInt8]) -> String {
        Hex.encode(bytes)
    }
}
