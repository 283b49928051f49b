import ArgumentParser
import Attestation
import CBOR
import Foundation

/// The App Attest attestation `holdfast bench attestation` verifies, read from a shared/vectors/appattest file whose
/// top level holds the attestation (the Warden, Apple-guide and procivis layouts; see that folder's README).
struct AppleSample {
    let attestation: [UInt8]
    let keyId: [UInt8]
    let clientDataHash: [UInt8]
    let appId: String
    let environment: AppAttestEnvironment
    let verifyAt: Date
    let certificateCount: Int
    /// The curve of the intermediate that signs the credential certificate.
    let leafCurve: LeafCurve

    init(url: URL) throws {
        guard let data = FileManager.default.contents(atPath: url.path),
              let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ValidationError("cannot read \(url.path)")
        }
        let field = { (names: [String]) in names.lazy.compactMap { json[$0] as? String }.first }
        guard let attestation = field(["attestationObjectBase64", "attestationBase64", "attestationObjectBase64Url"]).flatMap(ByteInput.base64Either),
              let keyId = field(["keyIdBase64", "keyIdBase64_derived"]).flatMap(ByteInput.base64Either),
              let clientDataHash = field(["clientDataHashBase64", "clientDataHashSha256Base64"]).flatMap(ByteInput.base64Either),
              let verifyAt = field(["verifyAt", "timestamp"]).flatMap({ try? AttestArgument.instant($0) }) else {
            throw ValidationError("\(url.lastPathComponent) has no top-level attestation with key id, clientDataHash and verifyAt")
        }
        self.attestation = attestation
        self.keyId = keyId
        self.clientDataHash = clientDataHash
        self.verifyAt = verifyAt
        appId = field(["appId"]) ?? [field(["teamIdentifier"]), field(["bundleIdentifier"])].compactMap { $0 }.joined(separator: ".")
        environment = field(["environment"])?.hasPrefix("production") == true ? .production : .development

        let x5c = try CBOR.decode(attestation).value(forKey: "attStmt").value(forKey: "x5c").array()
        guard x5c.count >= 2 else { throw ValidationError("x5c holds fewer than 2 certificates") }
        certificateCount = x5c.count
        leafCurve = try LeafCurve(issuer: AttestationCertificate(derEncoded: Array(x5c[1].bytes())))
    }
}

/// The Android chain `holdfast bench attestation` verifies, with the parameters its android-key-attestation/index.json
/// entry gives (challenge, first package, digests, verifyAt).
struct AndroidSample {
    let chain: [UInt8]
    let challenge: [UInt8]
    let packageName: String?
    let digests: [String]
    let verifyAt: Date
    let certificateCount: Int
    let leafCurve: LeafCurve
    let policy: AndroidKeyAttestationPolicy
    let policyName: String

    init(index: URL, file: String, folder: URL) throws {
        guard let data = FileManager.default.contents(atPath: index.path),
              let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let entry = (json["chains"] as? [[String: Any]])?.first(where: { $0["file"] as? String == file }) else {
            throw ValidationError("\(file) is not listed in \(index.path)")
        }
        guard file.hasSuffix(".pem"), let chain = FileManager.default.contents(atPath: folder.appendingPathComponent(file).path) else {
            throw ValidationError("\(file) is not a readable PEM chain")
        }
        self.chain = [UInt8](chain)
        let keyDescription = entry["parsedKeyDescription"] as? [String: Any]
        challenge = (keyDescription?["attestationChallenge_hex"] as? String).flatMap(ByteInput.hex) ?? []
        let application = entry["attestationApplicationId"] as? [String: Any]
        packageName = ((application?["package_infos"] as? [[String: Any]])?.first)?["package_name"] as? String
        digests = application?["signature_digests_sha256"] as? [String] ?? []
        guard let verifyAt = (entry["verifyAt"] as? String).flatMap({ try? AttestArgument.instant($0) }) else {
            throw ValidationError("\(file) has no verifyAt")
        }
        self.verifyAt = verifyAt

        let certificates = try CertificateChainDecoder.decode(self.chain)
        guard certificates.count >= 2 else { throw ValidationError("\(file) holds fewer than 2 certificates") }
        certificateCount = certificates.count
        leafCurve = try LeafCurve(issuer: certificates[1])
        // The production policy when the device is verified and locked, as real fleets are; otherwise the
        // development policy, so that any listed chain can be measured.
        let rootOfTrust = entry["rootOfTrust"] as? [String: Any]
        if rootOfTrust?["verifiedBootState"] as? Int == 0, rootOfTrust?["deviceLocked"] as? Bool == true {
            policy = .production
            policyName = "production (TEE+, verified boot, locked)"
        } else {
            policy = .allowUnverifiedBoot
            policyName = "allowUnverifiedBoot (TEE+, any boot state)"
        }
    }
}
