import Foundation
import HoldfastAdmin
import HoldfastProtocol
import HoldfastSDK
@testable import holdfast
import JOSE
import Testing

/// Changes what the issuer sends: with `corrupt`, the credential in every credential response has its last byte
/// flipped (inside the issuer signature, so it still decodes but no longer verifies); with `dropNotifications`,
/// the notification endpoint cannot be reached.
actor CredentialTamperingTransport: HTTPTransport {
    private let inner: any HTTPTransport
    private(set) var corrupt = false
    private(set) var dropNotifications = false
    private(set) var notifications: [String] = []

    init(_ inner: any HTTPTransport) { self.inner = inner }

    func set(corrupt: Bool, dropNotifications: Bool) {
        self.corrupt = corrupt
        self.dropNotifications = dropNotifications
    }

    struct Dropped: Error {}

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        if request.url.path == IssuanceRoutes.Template.notification.template {
            notifications.append(String(decoding: request.body ?? Data(), as: UTF8.self))
            if dropNotifications { throw Dropped() }
        }
        let response = try await inner.send(request)
        guard corrupt, request.url.path == IssuanceRoutes.Template.credential.template, response.status == 200,
              var body = try JSONDecoder().decode(JSONValue.self, from: response.body).objectValue,
              var first = body["credentials"]?.arrayValue?.first?.objectValue,
              var bytes = first["credential"]?.stringValue.flatMap(Base64URL.decode), !bytes.isEmpty else { return response }
        bytes[bytes.count - 1] ^= 0x01
        first["credential"] = .string(Base64URL.encode(bytes))
        body["credentials"] = .array([.object(first)])
        return TransportResponse(status: 200, headers: response.headers, body: try JSONEncoder().encode(JSONValue.object(body)))
    }
}

/// docs/sdk.md "Holder: credentials" and "Credentials": after each claim the SDK tells the issuer what became of the
/// credential (OpenID4VCI 1.0 §11); a credential the wallet refused is revoked at the tenant, so none is left valid
/// that no wallet holds.
@Suite struct CredentialNotificationEndToEndTests {
    static func holder(_ tenant: EndToEndTenant, network: CredentialTamperingTransport) async throws -> MobileCredentialHolder {
        let storage = FileSecureStorage(directory: tenant.scratch.appendingPathComponent(UUID().uuidString), applicationId: "holdfast-sdk")
        let holder = MobileCredentialHolder(seams: PlatformSeams(secureStorage: storage, secureArea: SoftwareSecureArea(storage: storage),
                                                                 transport: network, tetheringScheduler: ManualTetheringScheduler()))
        let application = try await tenant.createIOSApplication()
        try await holder.initialize(platformConfiguration: PlatformConfiguration(tenantHost: tenant.baseURL,
                                                                                 applicationId: try #require(application.id)))
        _ = try await holder.registerDevice()
        _ = try await holder.addTrustedIssuerCertificates(try await tenant.admin.iacas().data.map(\.certificatePem))
        return holder
    }

    @Test(arguments: EndToEndBackend.available)
    func theIssuerLearnsWhatBecameOfEachCredential(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            try await CredentialsEndToEndTests.configure(tenant)
            let network = CredentialTamperingTransport(URLSessionTransport(timeout: 15))
            let holder = try await Self.holder(tenant, network: network)

            // Stored: credential_accepted, the credential stays valid.
            let claimed = try await holder.claimCredentials(
                offer: try await holder.retrieveCredentialOffer(uri: try await CredentialsEndToEndTests.offer(tenant, txCode: false).offerUri))
            #expect(claimed.count == 1)
            let kept = try #require(try await tenant.admin.issuedCredentials().data.first)
            #expect(kept.status == .valid && kept.walletNotification?.event == .credentialAccepted)
            #expect(await network.notifications.count == 1)

            // Refused (the credential does not verify), asked for once more, refused again: both credentials the
            // tenant issued for the offer are revoked, each with the wallet's reason.
            await network.set(corrupt: true, dropNotifications: false)
            let offer = try await holder.retrieveCredentialOffer(uri: try await CredentialsEndToEndTests.offer(tenant, txCode: false).offerUri)
            await expectHoldfastError(.credentialInvalid) { _ = try await holder.claimCredentials(offer: offer) }
            let refused = try await tenant.admin.issuedCredentials().data.filter { $0.id != kept.id }
            #expect(refused.count == 2)
            for credential in refused {
                #expect(credential.status == .revoked)
                #expect(credential.walletNotification?.event == .credentialFailure)
                #expect(credential.walletNotification?.description?.hasPrefix("CREDENTIAL_INVALID: ") == true)
            }
            #expect(try await holder.getCredentials().map(\.id) == claimed.map(\.id))

            // Undelivered: the claim's refusal says so, and the tenant still lists the credential as valid.
            await network.set(corrupt: true, dropNotifications: true)
            let third = try await holder.retrieveCredentialOffer(uri: try await CredentialsEndToEndTests.offer(tenant, txCode: false).offerUri)
            let error = await expectHoldfastError(.credentialInvalid) { _ = try await holder.claimCredentials(offer: third) }
            #expect(error?.message.contains("the issuer could not be told that the credential was refused") == true, "\(String(describing: error))")
            let untold = try await tenant.admin.issuedCredentials().data.filter { $0.id != kept.id && !refused.map(\.id).contains($0.id) }
            #expect(untold.count == 2 && untold.allSatisfy { $0.walletNotification == nil })
            // The retry's re-issue revoked the first; the second, which the tenant was not told about, stays valid.
            #expect(untold.filter { $0.status == .valid }.count == 1)
        }
    }
}
