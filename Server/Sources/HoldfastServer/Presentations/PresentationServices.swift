import Foundation
import Logging

/// The verifier capability's services (docs/server-api.md "Verifier"), built once: the server's controllers
/// (`HoldfastControllers.make`, through `ServerServices.presentations`) and `holdfast admin presentations`
/// (`PresentationAdmin`) use the same ones.
public struct PresentationServices: Sendable {
    /// The verifier's CA and request-signing certificate.
    let certificates: VerifierCertificates
    let trustedIssuers: PresentationTrustedIssuerService
    let sessions: PresentationSessionService
    /// `dc-api` sessions (docs/server-api.md "Digital Credentials API").
    let digitalCredentials: DigitalCredentialsSessionService

    /// `statusLists` are the tenant's own (a credential it issued is checked there); `publicURL` is the verifier's
    /// origin (response URIs name it; a plain-http tenant may read plain-http foreign lists); `random` draws the
    /// sessions' identifiers, nonces, `state`s, `kid`s and response codes (`ServerServices.random`).
    init(database: HoldfastDatabase, masterKey: MasterKey, certificates: VerifierCertificates, issuerCertificates: IssuerCertificateStore,
         statusLists: StatusListService, outbound: OutboundConfiguration, publicURL: @escaping @Sendable () -> String,
         random: any RandomSource, logger: Logger) {
        self.certificates = certificates
        trustedIssuers = PresentationTrustedIssuerService(store: PresentationTrustedIssuerStore(database: database))
        let store = PresentationSessionStore(database: database, masterKey: masterKey)
        let status = PresentationStatusCheck(
            statusLists: statusLists,
            foreignStatusLists: ForeignStatusLists(allowsHTTP: { publicURL().lowercased().hasPrefix("http:") },
                                                   fetcher: OutboundFetcher(outbound), deadline: outbound.statusListDeadline,
                                                   logger: logger),
            publicURL: publicURL)
        let pipeline = PresentationPipeline(store: store, issuerCertificates: issuerCertificates, trustedIssuers: trustedIssuers,
                                            status: status, random: random)
        sessions = PresentationSessionService(
            store: store,
            signer: PresentationRequestSigner(certificates: certificates, publicURL: publicURL),
            certificates: certificates, pipeline: pipeline, publicURL: publicURL, random: random)
        digitalCredentials = DigitalCredentialsSessionService(
            sessions: sessions, store: DigitalCredentialsStore(database: database, masterKey: masterKey, sessions: store))
    }
}
