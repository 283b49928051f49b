import Foundation
import HoldfastAdmin
import HoldfastProtocol
import HoldfastSDK
@testable import holdfast
import JOSE
import Testing

/// The holder's credentials (docs/sdk.md "Holder: credentials" and "Holder: status") against the real tenant over HTTP:
/// an offer read before consent, a claim with a transaction code, the mDoc verified against the trusted IACA and
/// stored, its claims read back, its revocation seen after the ttl, and its deletion.
@Suite struct CredentialsEndToEndTests {
    static let configuration = ##"{"id":"mdl","docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":["family_name","given_name","birth_date","age_over_18"]},"display":{"name":"Driving licence","backgroundColor":"#12107c","textColor":"#ffffff"}}"##
    static let claims = #"{"org.iso.18013.5.1":{"family_name":"Doe","given_name":"Jane","birth_date":{"$type":"full-date","value":"1990-02-28"},"age_over_18":true}}"#

    static func offer(_ tenant: EndToEndTenant, txCode: Bool) async throws -> CredentialOfferCreated {
        let body = #"{"configurationId":"mdl","claims":\#(claims)\#(txCode ? #","txCode":{"length":6}"# : "")}"#
        return try await tenant.admin.createCredentialOffer(try HoldfastJSON.decode(CredentialOfferRequest.self, from: Data(body.utf8)))
    }

    /// `configuration`, created on the tenant.
    static func configure(_ tenant: EndToEndTenant) async throws {
        _ = try await tenant.admin.createCredentialConfiguration(try HoldfastJSON.decode(CredentialConfiguration.self,
                                                                                         from: Data(configuration.utf8)))
    }

    /// The id of the first credential the tenant issued.
    static func firstIssuedId(_ tenant: EndToEndTenant) async throws -> String {
        try #require(try await tenant.admin.issuedCredentials().data.first?.id)
    }

    static func setUp(_ tenant: EndToEndTenant) async throws -> (SimulatedDevice, iacaPem: String) {
        try await configure(tenant)
        _ = try await tenant.admin.updateStatusListSettings(StatusListSettings(ttlSeconds: 1, expSeconds: 600))
        let iacas = try await tenant.admin.iacas()
        let application = try await tenant.createIOSApplication()
        let device = try await SimulatedDevice.make(tenant: tenant, applicationId: try #require(application.id))
        _ = try await device.holder.registerDevice()
        return (device, try #require(iacas.data.first { $0.active }).certificatePem)
    }

    @Test(arguments: EndToEndBackend.available)
    func aWalletClaimsChecksAndDeletesAnMDoc(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let (device, iacaPem) = try await Self.setUp(tenant)
            let holder = device.holder

            // The offer, read before consent.
            let created = try await Self.offer(tenant, txCode: true)
            let offer = try await holder.retrieveCredentialOffer(uri: created.offerUri)
            #expect(offer.issuer == tenant.baseURL)
            #expect(offer.issuerHost == "127.0.0.1")
            #expect(offer.transactionCode?.length == 6 && offer.transactionCode?.inputMode == "numeric")
            let offered = try #require(offer.credentials.first)
            #expect(offered.docType == "org.iso.18013.5.1.mDL" && offered.branding?.name == "Driving licence")
            #expect(offered.branding?.backgroundColor == "#12107c")
            #expect(Set(offered.claims["org.iso.18013.5.1"] ?? []) == ["family_name", "given_name", "birth_date", "age_over_18"])

            // No transaction code: refused before anything is sent.
            await expectHoldfastError(.transactionCodeRequired) { _ = try await holder.claimCredentials(offer: offer) }
            // Trusted (before the code is redeemed: docs/sdk.md "Holder: credentials").
            let trusted = try await holder.addTrustedIssuerCertificates([iacaPem])
            #expect(trusted.count == 1)
            #expect(try await holder.getTrustedIssuerCertificates() == trusted)
            // A wrong code: the issuer's invalid_grant.
            let wrongCode = created.txCode == "000000" ? "111111" : "000000"
            let wrong = await expectHoldfastError(.issuerError) { _ = try await holder.claimCredentials(offer: offer, transactionCode: wrongCode) }
            #expect(wrong?.issuerError == "invalid_grant", "\(String(describing: wrong))")

            // Claimed, verified, stored.
            let claimed = try await holder.claimCredentials(offer: offer, transactionCode: created.txCode)
            let metadata = try #require(claimed.first)
            #expect(metadata.docType == "org.iso.18013.5.1.mDL")
            #expect(metadata.issuerInfo.trustedIssuerCertificateId == trusted[0].id)
            #expect(metadata.branding?.name == "Driving licence")
            #expect(try await holder.getCredentials() == claimed)

            let credential = try await holder.getCredential(credentialId: metadata.id)
            #expect(credential.verificationResult == .success, "\(credential.verificationResult)")
            #expect(credential.status == .valid)
            let claims = try #require(credential.claims["org.iso.18013.5.1"])
            #expect(claims["family_name"] == .string("Doe"))
            #expect(claims["age_over_18"] == .bool(true))
            #expect(claims["birth_date"] == .string("1990-02-28"))

            // The issuer revokes it; once the cached token is older than its ttl (1 s), the wallet sees it.
            let issuedId = try await Self.firstIssuedId(tenant)
            _ = try await tenant.admin.setCredentialStatus(id: issuedId, CredentialStatusChange(status: "revoked"))
            // Offline, the cached token (not expired) still answers valid.
            device.network.isOnline = false
            #expect(try await holder.getCredential(credentialId: metadata.id, skipStatusCheck: true).status == .valid)
            device.network.isOnline = true
            try await Task.sleep(for: .milliseconds(1_100))
            let afterRevocation = try await holder.getCredential(credentialId: metadata.id)
            #expect(afterRevocation.verificationResult == .failure(.statusRevoked), "\(afterRevocation.verificationResult)")
            #expect(afterRevocation.status == .revoked)

            // Deleted: gone, with its key.
            try await holder.deleteCredential(id: metadata.id)
            #expect(try await holder.getCredentials().isEmpty)
            await expectHoldfastError(.credentialNotFound) { _ = try await holder.getCredential(credentialId: metadata.id) }
        }
    }

    @Test(arguments: EndToEndBackend.available)
    func anUntrustedIssuerIsRefusedUnlessTheAppKeepsItMarked(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let (device, iacaPem) = try await Self.setUp(tenant)
            let refused = try await device.holder.retrieveCredentialOffer(uri: try await Self.offer(tenant, txCode: false).offerUri)
            await expectHoldfastError(.untrustedIssuer) { _ = try await device.holder.claimCredentials(offer: refused) }
            #expect(try await device.holder.getCredentials().isEmpty)
            // Refused before the code was redeemed: nothing issued, and the same offer claims once the IACA is trusted.
            #expect(try await tenant.admin.issuedCredentials().data.isEmpty)
            let trusted = try await device.holder.addTrustedIssuerCertificates([iacaPem])
            let claimed = try #require(try await device.holder.claimCredentials(offer: refused).first)
            #expect(try await tenant.admin.issuedCredentials().data.map(\.status) == [.valid])
            #expect(try await tenant.admin.issuedCredentials().data.first?.statusList.map { CredentialStatusListEntry(uri: $0.uri, idx: UInt64($0.idx)) }
                    == claimed.statusList)
            try await device.holder.deleteCredential(id: claimed.id)
            try await device.holder.removeTrustedIssuerCertificate(id: trusted[0].id)

            await device.holder.credentials.setOptions(Credentials.Options(keepUntrustedCredentials: true))
            let kept = try await device.holder.retrieveCredentialOffer(uri: try await Self.offer(tenant, txCode: false).offerUri)
            let metadata = try #require(try await device.holder.claimCredentials(offer: kept).first)
            #expect(metadata.issuerInfo.trustedIssuerCertificateId == nil)
            let credential = try await device.holder.getCredential(credentialId: metadata.id)
            #expect(credential.verificationResult == .failure(.untrustedIssuer))
        }
    }

    @Test(arguments: EndToEndBackend.available)
    func aRevokedInstanceCannotClaim(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let (device, iacaPem) = try await Self.setUp(tenant)
            _ = try await device.holder.addTrustedIssuerCertificates([iacaPem])
            let offer = try await device.holder.retrieveCredentialOffer(uri: try await Self.offer(tenant, txCode: false).offerUri)
            let state = try #require(try await device.holder.registrationState())
            let applicationId = try #require(await device.holder.tethering.platformConfiguration?.applicationId)
            try await tenant.admin.deleteInstance(applicationId: applicationId, instanceId: state.instanceId)
            let refused = await expectHoldfastError(.instanceRevoked) { _ = try await device.holder.claimCredentials(offer: offer) }
            #expect(refused != nil)
            // Nothing was issued; and a revoked device lists nothing (docs/sdk.md "Holder: the offline limit").
            #expect(try await tenant.admin.issuedCredentials().data.isEmpty)
            await expectHoldfastError(.instanceRevoked) { try await device.holder.getCredentials() }
        }
    }
}

/// `holdfast device … offer | claim | credentials | issuers` (docs/command-line.md "The `holdfast` command") against the tenant,
/// each call a fresh SDK on the same state folder, as separate processes would be.
@Suite struct DeviceCredentialCommandEndToEndTests {
    @Test(arguments: EndToEndBackend.available)
    func theDeviceCommandClaimsListsShowsAndDeletes(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            try await CredentialsEndToEndTests.configure(tenant)
            let iacas = try await tenant.admin.iacas()
            let pemFile = tenant.scratch.appendingPathComponent("iaca.pem")
            try FileManager.default.createDirectory(at: tenant.scratch, withIntermediateDirectories: true)
            try #require(iacas.data.first).certificatePem.write(to: pemFile, atomically: true, encoding: .utf8)
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            let state = tenant.scratch.appendingPathComponent("cli-holder").path
            let tethered = try DeviceOptions.parse(["--state", state, "--tenant", tenant.baseURL, "--application", applicationId])
            let local = try DeviceOptions.parse(["--state", state])
            #expect(await DeviceSession(options: tethered).perform(.register).ok)

            let created = try await CredentialsEndToEndTests.offer(tenant, txCode: false)
            let offer = try JSONDecoder().decode(JSONValue.self, from: Data(try await DeviceOffer.output(local, uri: created.offerUri).utf8))
            #expect(offer.objectValue?["issuer"]?.stringValue == tenant.baseURL)
            #expect(offer.objectValue?["credentials"]?.arrayValue?.first?.objectValue?["docType"]?.stringValue == "org.iso.18013.5.1.mDL")

            let added = try JSONDecoder().decode(JSONValue.self, from: Data(try await DeviceIssuers.Add.output(local, pem: "@" + pemFile.path).utf8))
            #expect(added.arrayValue?.first?.objectValue?["commonName"] != nil)
            let claimed = try JSONDecoder().decode(JSONValue.self,
                                                   from: Data(try await DeviceClaim.output(tethered, uri: created.offerUri, txCode: nil).utf8))
            let id = try #require(claimed.arrayValue?.first?.objectValue?["id"]?.stringValue)

            let listed = try JSONDecoder().decode(JSONValue.self, from: Data(try await DeviceCredentials.List.output(local, json: true).utf8))
            #expect(listed.arrayValue?.compactMap { $0.objectValue?["id"]?.stringValue } == [id])
            let shown = try #require(try JSONDecoder().decode(JSONValue.self, from: Data(
                try await DeviceCredentials.Get.output(local, id: id, skipStatusCheck: false, json: true).utf8)).objectValue)
            #expect(shown["id"]?.stringValue == id && shown["docType"]?.stringValue == "org.iso.18013.5.1.mDL")
            #expect(shown["verificationResult"] == .object(["verified": .bool(true)]))
            #expect(shown["claims"]?.objectValue?["org.iso.18013.5.1"]?.objectValue?["family_name"] == .string("Doe"))
            #expect(shown["validityInfo"]?.objectValue?["validUntil"]?.stringValue != nil)

            // Revoked: still printed, exit status 0, the failure named.
            let issuedId = try await CredentialsEndToEndTests.firstIssuedId(tenant)
            _ = try await tenant.admin.setCredentialStatus(id: issuedId, CredentialStatusChange(status: "suspended"))
            let text = try await DeviceCredentials.Get.output(local, id: id, skipStatusCheck: true, json: false)
            #expect(text.contains("verified: yes") && text.contains("family_name: \"Doe\""))

            await expectHoldfastError(.credentialNotFound) { try await DeviceCredentials.Get.output(local, id: "missing", skipStatusCheck: true, json: true) }
            try await DeviceSessionCredentials.delete(local, id: id)
            #expect(try await DeviceCredentials.List.output(local, json: false) == "no credentials")
        }
    }
}

/// Deleting as `credentials delete` does.
enum DeviceSessionCredentials {
    static func delete(_ options: DeviceOptions, id: String) async throws {
        try await MobileCredentialHolder(seams: .linux(stateDirectory: options.stateURL)).deleteCredential(id: id)
    }
}
