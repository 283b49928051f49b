import Foundation
import HoldfastAdmin
import HoldfastProtocol
import HoldfastSDK
import JOSE

/// Presentation in `holdfast demo` (docs/sdk.md "Holder: presentation", "Verifier"): the wallet trusts the tenant's verifier and presents
/// two elements of its credential to a verifier session.
enum PresentationDemo {
    static func steps(admin: AdminClient, holder: MobileCredentialHolder, credentialId: String, recorder: DemoRecorder) async throws {
        try await recorder.step("verifier", "Trust the tenant's verifier",
                                                          "GET \(PresentationAdminRoutes.Template.verifierCAs) (admin): the CA of the verifier's request-signing certificate, which the wallet adds as a trusted verifier.") {
            let cas = try await admin.verifierCAs()
            guard let ca = cas.data.first else { throw CommandFailure(.failure, "the tenant lists no verifier CA") }
            _ = try await holder.addTrustedVerifierCertificates([ca.certificatePem])
            return [.init("verifierCA", ca.id)]
        }
        try await recorder.step("present", "Present it to a verifier",
                                "POST \(PresentationRoutes.Template.sessions) asks for family_name and birth_date (OpenID4VP 1.0, DCQL); the wallet fetches the signed request, sees it comes from a trusted verifier, and sends only those two elements, signed with the credential's key and encrypted to the verifier.") {
            let (status, detail) = try await Self.present(admin: admin, holder: holder, credentialId: credentialId)
            guard status.status == .verified else { throw CommandFailure(.failure, "the verifier says \(status.status): \(status.failures ?? [])") }
            return [.init("result", status.status.rawValue), .init("family_name", detail["family_name"] ?? "-"),
                    .init("birth_date", detail["birth_date"] ?? "-"), .init("given_name", detail["given_name"] ?? "not sent")]
        }
    }

    /// A verifier session asking for family_name and birth_date, answered by the wallet; the verifier's result and
    /// the values it received.
    static func present(admin: AdminClient, holder: MobileCredentialHolder,
                                credentialId: String) async throws -> (PresentationResult, [String: String]) {
        let body = #"{"protocol":"openid4vp-1.0","mode":"cross-device","query":{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"family_name":false,"birth_date":false}}}}"#
        let request = try HoldfastJSON.decode(PresentationSessionRequest.self, from: Data(body.utf8))
        let created = try await CommandFailure.demoStep("session") { try await admin.createPresentationSession(request) }
        let session = try await holder.createOnlinePresentationSession(authorisationRequestUri: created.authorizationRequestUri,
                                                                       requireTrustedVerifier: true)
        try await session.sendResponse(credentialIds: [credentialId], autoRedirect: false)
        let result = try await admin.presentationResult(sessionId: created.sessionId)
        var values: [String: String] = [:]
        for (element, value) in result.claims?["org.iso.18013.5.1.mDL"]?["org.iso.18013.5.1"] ?? [:] {
            values[element] = value.stringValue ?? "\(value)"
        }
        return (result, values)
    }
}
