import Foundation
import HoldfastAdmin
import HoldfastProtocol
import Logging

/// Presentation sessions on a database, for `holdfast admin presentations` (docs/server-api.md "Verifier"): the same service
/// and validation the API uses. Sessions made here belong to the command line (`created_by` "cli"), whose results
/// it reads whoever made them: it has the database.
public struct PresentationAdmin: Sendable {
    static let creator = "cli"
    let service: PresentationSessionService
    let digitalCredentials: DigitalCredentialsSessionService
    let certificates: VerifierCertificates

    public static func open(configuration: HoldfastConfiguration, database: HoldfastDatabase, now: Date,
                            logger: Logger) async throws -> PresentationAdmin {
        let masterKey = try MasterKey.load(configuration.masterKey)
        let publicURL = try await TenantPublicURL.resolve(configuration: configuration, database: database, logger: logger)
        let issuer = try await IssuerCertificateAdmin.loadOrCreate(configuration: configuration, database: database, now: now, logger: logger)
        let verifier = try await database.withStartupLock { session in
            try await VerifierCertificates.loadOrCreate(on: session, masterKey: masterKey, host: VerifierCertificates.host(of: publicURL),
                                                        now: now, logger: logger)
        }
        let store = IssuerCertificateStore(initial: issuer, loadedAt: now, database: database, masterKey: masterKey, logger: logger)
        let issuance = IssuanceServices(database: database, masterKey: masterKey, certificates: store, random: SystemRandomSource(), publicURL: { publicURL })
        let services = PresentationServices(database: database, masterKey: masterKey, certificates: verifier, issuerCertificates: store,
                                            statusLists: issuance.statusLists, outbound: configuration.outbound,
                                            publicURL: { publicURL }, logger: logger)
        return PresentationAdmin(service: services.sessions, digitalCredentials: services.digitalCredentials, certificates: verifier)
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
