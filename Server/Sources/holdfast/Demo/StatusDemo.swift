import Foundation
import HoldfastAdmin
import HoldfastProtocol
import HoldfastSDK
import JOSE

/// Status in `holdfast demo` (docs/sdk.md "Holder: status"): the issuer revokes the credential; the wallet keeps its cached
/// status list token within the ttl, the verifier refuses the credential, the wallet sees the revocation after the
/// ttl and an unknown status offline past the token's exp, the device's clock moved on (`OffsetClock`).
enum StatusDemo {
    static func steps(admin: AdminClient, holder: MobileCredentialHolder, credentialId: String, clock: OffsetClock,
                      network: SwitchableNetwork, recorder: DemoRecorder) async throws {
        try await recorder.step("revoke", "The issuer revokes it",
                                "POST \(CredentialAdminRoutes.Template.credentials)/{id}/status {\"status\": \"revoked\"}: its bit in the status list becomes 1.") {
            guard let issuedId = try await admin.issuedCredentials().data.first?.id else {
                throw CommandFailure(.failure, "the tenant lists no issued credential")
            }
            _ = try await CommandFailure.demoStep("revocation") {
                try await admin.setCredentialStatus(id: issuedId, CredentialStatusChange(status: .revoked))
            }
            return [.init("issuedCredential", issuedId), .init("status", "revoked")]
        }
        try await recorder.step("status-cached", "Within the ttl the wallet does not ask again",
                                "The cached token is younger than its ttl (60 s), so getCredential answers from it: still valid, no request made.") {
            let credential = try await holder.getCredential(credentialId: credentialId)
            guard credential.status == .valid else { throw CommandFailure(.failure, "expected the cached valid, got \(String(describing: credential.status))") }
            return [.init("status", "valid"), .init("deviceClock", "+0 s")]
        }
        try await recorder.step("presentation-refused", "The verifier refuses the revoked credential",
                                "The wallet, still within its cached token's ttl, presents it; the verifier reads the tenant's own status list and refuses it.") {
            let (status, _) = try await PresentationDemo.present(admin: admin, holder: holder, credentialId: credentialId)
            guard status.status == .failed, status.failures?.map(\.code) == [PresentationFailureCode.statusRevoked] else {
                throw CommandFailure(.failure, "expected STATUS_REVOKED, got \(status.status) \(status.failures ?? [])")
            }
            return [.init("result", status.status.rawValue), .init("failure", PresentationFailureCode.statusRevoked.rawValue)]
        }
        try await recorder.step("status-revoked", "After the ttl the wallet sees the revocation",
                                "The device's clock is moved 61 s on: the cached token is older than its ttl, a new one is fetched and says revoked.") {
            clock.set(offset: 61)
            let credential = try await holder.getCredential(credentialId: credentialId)
            guard credential.verificationResult == .failure(.statusRevoked) else {
                throw CommandFailure(.failure, "expected statusRevoked, got \(credential.verificationResult)")
            }
            return [.init("failureType", "statusRevoked"), .init("deviceClock", "+61 s")]
        }
        try await recorder.step("status-unknown", "Offline past the token's exp the status is unknown",
                                "The device goes offline and its clock moves past the cached token's exp (300 s): the token can no longer be used and none can be fetched, so the status is unknown — never revoked, never valid.") {
            network.isOnline = false
            clock.set(offset: 61 + 301)
            defer {
                network.isOnline = true
                clock.set(offset: 0)
            }
            let credential = try await holder.getCredential(credentialId: credentialId)
            guard credential.verificationResult == .failure(.statusUnknown) else {
                throw CommandFailure(.failure, "expected statusUnknown, got \(credential.verificationResult)")
            }
            return [.init("failureType", "statusUnknown"), .init("deviceClock", "+362 s"), .init("network", "offline")]
        }
    }
}
