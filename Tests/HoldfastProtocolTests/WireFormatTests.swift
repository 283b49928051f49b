import Foundation
import HoldfastProtocol
import Testing

/// Issue 5: the JSON of the tenant API, field names exactly as the issue writes them.
struct WireFormatTests {
    private func object(_ value: some Encodable) throws -> [String: Any] {
        let data = try HoldfastJSON.encode(value)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func roundTrip<T: Codable & Equatable>(_ value: T) throws {
        let decoded = try HoldfastJSON.decode(T.self, from: HoldfastJSON.encode(value))
        #expect(decoded == value)
    }

    private let date = Date(timeIntervalSince1970: 1_795_424_733) // 2026-11-23T09:05:33Z

    @Test func datesAreISO8601WithZ() throws {
        let data = try HoldfastJSON.encode(ChallengeResponse(challenge: "c", expiresAt: date))
        #expect(String(decoding: data, as: UTF8.self) == #"{"challenge":"c","expiresAt":"2026-11-23T09:05:33Z"}"#)
    }

    @Test func datesWithFractionalSecondsDecode() throws {
        let json = #"{"challenge":"c","expiresAt":"2026-11-23T09:05:33.250Z"}"#
        let decoded = try HoldfastJSON.decode(ChallengeResponse.self, from: Data(json.utf8))
        #expect(abs(decoded.expiresAt.timeIntervalSince1970 - 1_795_424_733.25) < 0.001)
    }

    @Test func datesWithoutZAreRefused() {
        let json = #"{"challenge":"c","expiresAt":"2026-11-23T09:05:33+01:00"}"#
        #expect(throws: DecodingError.self) { try HoldfastJSON.decode(ChallengeResponse.self, from: Data(json.utf8)) }
    }

    @Test func registrationRequestFieldNames() throws {
        let request = InstanceRegistrationRequest(
            challenge: "ch", publicKey: "pk", attestation: .string("att"), assertion: nil, keyId: "kid",
            deviceDetails: DeviceDetails(deviceModel: "iPhone15,2", deviceMake: "Apple", osVersion: "17.4"),
            sdkDetails: SDKDetails(sdkVersion: "1.0.0"), externalReferenceId: "ref")
        let json = try object(request)
        #expect(Set(json.keys) == ["challenge", "publicKey", "attestation", "keyId", "deviceDetails", "sdkDetails",
                                   "externalReferenceId"])
        #expect(Set(try #require(json["deviceDetails"] as? [String: Any]).keys) == ["deviceModel", "deviceMake", "osVersion"])
        #expect(Set(try #require(json["sdkDetails"] as? [String: Any]).keys) == ["sdkVersion"])
        try roundTrip(request)
    }

    @Test func registrationRequestWithAssertionOmitsAttestation() throws {
        let request = InstanceRegistrationRequest(
            challenge: "ch", publicKey: "pk", assertion: "sig",
            deviceDetails: DeviceDetails(deviceModel: "m", deviceMake: "k", osVersion: "o"), sdkDetails: SDKDetails(sdkVersion: "1"))
        let json = try object(request)
        #expect(Set(json.keys) == ["challenge", "publicKey", "assertion", "deviceDetails", "sdkDetails"])
        try roundTrip(request)
    }

    @Test func registrationResponseFieldNames() throws {
        let response = InstanceRegistrationResponse(instanceId: "i", status: .registered, licenseToken: "t", licenseExpiresAt: date)
        let json = try object(response)
        #expect(Set(json.keys) == ["instanceId", "status", "licenseToken", "licenseExpiresAt"])
        #expect(json["status"] as? String == "registered")
        try roundTrip(response)
        let pending = try HoldfastJSON.decode(InstanceRegistrationResponse.self, from: Data(#"{"instanceId":"i","status":"pending"}"#.utf8))
        #expect(pending.status == .pending && pending.licenseToken == nil)
    }

    @Test func renewalRotationAndWalletAttestationFieldNames() throws {
        #expect(Set(try object(LicenseRenewalRequest(challenge: "c", appAttestAssertion: "a")).keys) == ["challenge", "appAttestAssertion"])
        #expect(try object(LicenseRenewalRequest()).isEmpty)
        #expect(Set(try object(LicenseRenewalResponse(instanceId: "i", licenseToken: "t", licenseExpiresAt: date)).keys)
            == ["instanceId", "licenseToken", "licenseExpiresAt"])
        #expect(Set(try object(KeyRotationRequest(challenge: "c", publicKey: "p", assertion: "s")).keys)
            == ["challenge", "publicKey", "assertion"])
        #expect(Set(try object(KeyRotationResponse(instanceId: "i", licenseToken: "t", licenseExpiresAt: date)).keys)
            == ["instanceId", "licenseToken", "licenseExpiresAt"])
        #expect(Set(try object(WalletAttestationRequest(audience: "https://issuer")).keys) == ["audience"])
        #expect(Set(try object(WalletAttestationResponse(walletAttestation: "jwt", expiresAt: date)).keys)
            == ["walletAttestation", "expiresAt"])
        try roundTrip(LicenseRenewalRequest(challenge: "c", attestation: .array(["a", "b"])))
        try roundTrip(KeyRotationRequest(challenge: "c", publicKey: "p", attestation: .string("x"), keyId: "k"))
    }

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
                                    "externalReferenceId", "deviceDetails", "sdkDetails"])
        #expect(first["appAttestationType"] as? String == "key_attestation")
        try roundTrip(page)
        try roundTrip(InstancePage(data: [], nextCursor: "opaque"))
    }

    @Test func appAttestationTypeValues() throws {
        #expect(AppAttestationType.allCases.map(\.rawValue) == ["none", "app_attestation", "key_attestation"])
        #expect(InstanceStatus.allCases.map(\.rawValue) == ["registered", "pending", "rejected"])
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
                                      "appAttest", "developmentIntegrityAllowed", "channel"])
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
        #expect(Set(try object(application).keys) == ["type", "name", "clientId", "packageName",
                                                       "packageSigningCertificateThumbprints", "maxTimeOfflineInSecs",
                                                       "keyAttestation"])
        try roundTrip(application)
    }

    @Test func unknownHolderApplicationTypeIsRefused() {
        let json = #"{"type":"windows","name":"W","clientId":"c"}"#
        #expect(throws: DecodingError.self) { try HoldfastJSON.decode(HolderApplication.self, from: Data(json.utf8)) }
    }
}
