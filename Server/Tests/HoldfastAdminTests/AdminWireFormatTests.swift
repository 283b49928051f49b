import Foundation
import HoldfastAdmin
import HoldfastProtocol
import Testing

/// The JSON of the admin API (docs/server-api.md "API"): holder applications and instance pages, field names exactly as written
/// there.
struct AdminWireFormatTests {
    private func object(_ value: some Encodable) throws -> [String: Any] {
        let data = try HoldfastJSON.encode(value)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func roundTrip<T: Codable & Equatable>(_ value: T) throws {
        let decoded = try HoldfastJSON.decode(T.self, from: HoldfastJSON.encode(value))
        #expect(decoded == value)
    }

    private let date = Date(timeIntervalSince1970: 1_795_424_733) // 2026-11-23T09:05:33Z

    @Test func instancePageFieldNames() throws {
        let item = InstanceListItem(id: "i", appAttestationType: .keyAttestation, registeredAt: date, licenseExpiresAt: date,
                                    lastAttestedAt: date, externalReferenceId: "ref",
                                    deviceDetails: DeviceDetails(deviceModel: "m", deviceMake: "k", osVersion: "o"),
                                    sdkDetails: SDKDetails(sdkVersion: "1"))
        let page = InstancePage(data: [item], nextCursor: nil)
        let json = try object(page)
        #expect(Set(json.keys) == ["data", "nextCursor"])
        #expect(json["nextCursor"] is NSNull)
        let first = try #require((json["data"] as? [[String: Any]])?.first)
        #expect(Set(first.keys) == ["id", "appAttestationType", "registeredAt", "licenseExpiresAt", "lastAttestedAt",
                                    "externalReferenceId", "deviceDetails", "sdkDetails", "status", "attestation"])
        #expect(first["appAttestationType"] as? String == "key_attestation")
        // Nothing attested: the object with every member null.
        let attestation = try #require(first["attestation"] as? [String: Any])
        #expect(Set(attestation.keys) == ["androidVerifiedBoot", "bootloaderLocked", "playIntegrity"])
        #expect(attestation.values.allSatisfy { $0 is NSNull })
        try roundTrip(page)
        try roundTrip(InstancePage(data: [], nextCursor: "opaque"))
    }

    /// The documented members are always written, `null` when empty (an assertion registration has no
    /// `lastAttestedAt`, a pending instance no `licenseExpiresAt`).
    @Test func emptyMembersOfAnInstanceAreNull() throws {
        let item = InstanceListItem(id: "i", appAttestationType: .none, registeredAt: date, licenseExpiresAt: nil,
                                    lastAttestedAt: nil, externalReferenceId: nil,
                                    deviceDetails: DeviceDetails(deviceModel: "m", deviceMake: "k", osVersion: "o"),
                                    sdkDetails: SDKDetails(sdkVersion: "1"), status: .pending)
        let json = try object(item)
        for member in ["licenseExpiresAt", "lastAttestedAt", "externalReferenceId"] {
            #expect(json[member] is NSNull, "\(member)")
        }
        #expect(json["status"] as? String == "pending")
        try roundTrip(item)
    }

    @Test func iosHolderApplicationJSON() throws {
        let json = #"""
        {"type":"ios","name":"Wallet","clientId":"client-1","bundleId":"com.example.wallet","teamId":"ABCDE12345",
         "maxTimeOfflineInSecs":86400,"appAttest":{"required":true,"environment":"production"},
         "developmentIntegrityAllowed":true,"channel":"staging","id":"app-1"}
        """#
        let application = try HoldfastJSON.decode(HolderApplication.self, from: Data(json.utf8))
        #expect(application.id == "app-1" && application.name == "Wallet" && application.clientId == "client-1")
        #expect(application.maxTimeOfflineInSecs == 86400 && application.channel == .staging)
        #expect(application.developmentIntegrityAllowed == true && application.requiresAttestation)
        guard case .ios(let settings) = application.platform else { Issue.record("not ios"); return }
        #expect(settings.bundleId == "com.example.wallet" && settings.teamId == "ABCDE12345")
        #expect(settings.appAttest == .init(required: true, environment: .production))
        let encoded = try object(application)
        #expect(Set(encoded.keys) == ["type", "id", "name", "clientId", "bundleId", "teamId", "maxTimeOfflineInSecs",
                                      "appAttest", "developmentIntegrityAllowed", "channel", "manualApproval"])
        try roundTrip(application)
    }

    @Test func androidHolderApplicationJSON() throws {
        let thumbprint = String(repeating: "ab", count: 32)
        let json = #"{"type":"android","name":"W","clientId":"c","packageName":"com.example","packageSigningCertificateThumbprints":[""#
            + thumbprint + #""],"keyAttestation":{"required":false}}"#
        let application = try HoldfastJSON.decode(HolderApplication.self, from: Data(json.utf8))
        #expect(application.maxTimeOfflineInSecs == HolderApplication.defaultMaxTimeOfflineInSecs)
        #expect(!application.requiresAttestation && application.id == nil)
        guard case .android(let settings) = application.platform else { Issue.record("not android"); return }
        #expect(settings.packageName == "com.example" && settings.packageSigningCertificateThumbprints == [thumbprint])
        let encoded = try object(application)
        #expect(Set(encoded.keys) == ["type", "name", "clientId", "packageName", "packageSigningCertificateThumbprints",
                                      "maxTimeOfflineInSecs", "keyAttestation", "developmentIntegrityAllowed", "channel",
                                      "manualApproval", "playIntegrity"])
        #expect(encoded["channel"] is NSNull && encoded["developmentIntegrityAllowed"] is NSNull && encoded["playIntegrity"] is NSNull)
        // docs/server-api.md "Android Key Attestation policy": the policy members are written with their defaults.
        let keyAttestation = try #require(encoded["keyAttestation"] as? [String: Any])
        #expect(keyAttestation["requireVerifiedBoot"] as? Bool == true && keyAttestation["requireLockedBootloader"] as? Bool == true
                && keyAttestation["acceptExpiredChain"] as? Bool == true)
        try roundTrip(application)
    }

    @Test func unknownHolderApplicationTypeIsRefused() {
        let json = #"{"type":"windows","name":"W","clientId":"c"}"#
        #expect(throws: DecodingError.self) { try HoldfastJSON.decode(HolderApplication.self, from: Data(json.utf8)) }
    }
}
