import Foundation
import HoldfastAdmin
import HoldfastProtocol

/// Presentation sessions on a database, for `holdfast admin presentations` (docs/server-api.md "Verifier"): the same service
/// and validation the API uses. Sessions made here belong to the command line (`created_by` "cli"), whose results
/// it reads whoever made them: it has the database.
public struct PresentationAdmin: Sendable {
    static let creator = "cli"
    let service: PresentationSessionService
    let digitalCredentials: DigitalCredentialsSessionService
    let certificates: VerifierCertificates

    /// The capability's services as the server builds them (`PresentationServices`; `AdminServices.presentations()`).
    init(services: PresentationServices) {
        service = services.sessions
        digitalCredentials = services.digitalCredentials
        certificates = services.certificates
    }

    public func createSession(_ request: PresentationSessionRequest, now: Date) async throws -> PresentationSessionCreated {
        try await service.create(request, adminKeyID: Self.creator, now: now)
    }

    /// A `dc-api` session (docs/server-api.md "Digital Credentials API"): `{sessionId, digital, expiresAt}`.
    public func createDigitalCredentialsSession(_ request: PresentationSessionRequest, now: Date) async throws -> DigitalCredentialsSessionCreated {
        try await digitalCredentials.create(request, adminKeyID: Self.creator, now: now)
    }

    /// The verifier CA wallets add as a trusted verifier, as `GET /v1/presentations/verifier-cas` lists it.
    public func verifierCAs() throws -> VerifierCAList {
        try certificates.caList()
    }

    public func result(sessionId: String, now: Date) async throws -> PresentationResult {
        try await service.result(id: sessionId, adminKeyID: nil, now: now)
    }
}
