import Foundation
import HoldfastProtocol

/// The holder's credential calls, each forwarded to `credentials` (see `Credentials`).
extension MobileCredentialHolder {
    /// What the offer at `uri` will issue, before the user consents.
    public func retrieveCredentialOffer(uri: String) async throws(HoldfastError) -> CredentialOffer {
        try await credentials.retrieveCredentialOffer(uri: uri)
    }

    /// Claims and stores every credential of `offer`.
    public func claimCredentials(offer: CredentialOffer, transactionCode: String? = nil) async throws(HoldfastError)
        -> [MobileCredentialMetadata] {
        try await credentials.claimCredentials(offer: offer, transactionCode: transactionCode)
    }

    public func getCredentials() async throws(HoldfastError) -> [MobileCredentialMetadata] {
        try await credentials.getCredentials()
    }

    /// The credential with its claims and its verification now; the status is always checked for a credential
    /// that has one, online unless `skipStatusCheck` (docs/sdk.md "Holder: status").
    public func getCredential(credentialId: String, skipStatusCheck: Bool = false) async throws(HoldfastError) -> MobileCredential {
        try await credentials.getCredential(credentialId: credentialId, skipStatusCheck: skipStatusCheck)
    }

    public func deleteCredential(id: String) async throws(HoldfastError) {
        try await credentials.deleteCredential(id: id)
    }

    public func addTrustedIssuerCertificates(_ pems: [String]) async throws(HoldfastError) -> [TrustedIssuerCertificate] {
        try await credentials.addTrustedIssuerCertificates(pems)
    }

    public func getTrustedIssuerCertificates() async throws(HoldfastError) -> [TrustedIssuerCertificate] {
        try await credentials.getTrustedIssuerCertificates()
    }

    public func removeTrustedIssuerCertificate(id: String) async throws(HoldfastError) {
        try await credentials.removeTrustedIssuerCertificate(id: id)
    }

    /// Fetches now the status list of one credential (every stored one when `credentialId` is nil), within the
    /// status list checks, and verifies it with the list then cached (docs/sdk.md "Holder: status").
    public func refreshStatus(credentialId: String? = nil) async throws(HoldfastError) -> [CredentialStatusRefresh] {
        try await credentials.refreshStatus(credentialId: credentialId)
    }

    /// Refreshes every status list the stored credentials point at (for a background task).
    public func refreshStatusLists() async throws(HoldfastError) -> (refreshed: [String], failed: [String]) {
        try await credentials.refreshStatusLists()
    }
}

/// The holder's presentation calls, forwarded to `presentations` (see `Presentations`).
extension MobileCredentialHolder {
    public func addTrustedVerifierCertificates(_ pems: [String]) async throws(HoldfastError) -> [TrustedVerifierCertificate] {
        try await presentations.addTrustedVerifierCertificates(pems)
    }

    public func getTrustedVerifierCertificates() async throws(HoldfastError) -> [TrustedVerifierCertificate] {
        try await presentations.getTrustedVerifierCertificates()
    }

    public func removeTrustedVerifierCertificate(id: String) async throws(HoldfastError) {
        try await presentations.removeTrustedVerifierCertificate(id: id)
    }

    /// Fetches and verifies the verifier's request and matches the stored credentials against it.
    public func createOnlinePresentationSession(authorisationRequestUri: String, requireTrustedVerifier: Bool = false,
                                                unknownStatusPolicy: UnknownStatusPolicy = .allowWithWarning)
        async throws(HoldfastError) -> OnlinePresentationSession {
        try await presentations.createOnlinePresentationSession(authorisationRequestUri: authorisationRequestUri,
                                                                requireTrustedVerifier: requireTrustedVerifier,
                                                                unknownStatusPolicy: unknownStatusPolicy)
    }

    /// Reads and verifies a W3C Digital Credentials API request the platform handed the app (one `{protocol, data}`
    /// or the whole `digital` object) for the page at `origin`, and matches the stored credentials against it
    /// (docs/sdk.md "Digital Credentials API").
    public func createDigitalCredentialsPresentationSession(request: Data, origin: String, requireTrustedVerifier: Bool = false,
                                                            unknownStatusPolicy: UnknownStatusPolicy = .allowWithWarning)
        async throws(HoldfastError) -> DigitalCredentialsPresentationSession {
        try await presentations.createDigitalCredentialsPresentationSession(request: request, origin: origin,
                                                                            requireTrustedVerifier: requireTrustedVerifier,
                                                                            unknownStatusPolicy: unknownStatusPolicy)
    }

    /// Starts an in-person presentation over `transport` (docs/sdk.md "Holder: proximity presentation"): show
    /// `qrCode`, then answer each `requestReceived` event.
    public func createProximityPresentationSession(transport: any MDocProximityTransport, requireTrustedReader: Bool = false,
                                                   unknownStatusPolicy: UnknownStatusPolicy = .allowWithWarning)
        async throws(HoldfastError) -> ProximityPresentationSession {
        try await presentations.createProximityPresentationSession(transport: transport, requireTrustedReader: requireTrustedReader,
                                                                   unknownStatusPolicy: unknownStatusPolicy)
    }

    public func addTrustedReaderCertificates(_ pems: [String]) async throws(HoldfastError) -> [TrustedReaderCertificate] {
        try await presentations.addTrustedReaderCertificates(pems)
    }

    public func getTrustedReaderCertificates() async throws(HoldfastError) -> [TrustedReaderCertificate] {
        try await presentations.getTrustedReaderCertificates()
    }

    public func removeTrustedReaderCertificate(id: String) async throws(HoldfastError) {
        try await presentations.removeTrustedReaderCertificate(id: id)
    }
}
