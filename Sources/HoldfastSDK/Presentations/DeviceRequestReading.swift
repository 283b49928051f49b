import CertificatePath
import Foundation
import HoldfastProtocol
import MDoc
import OpenID4VP
import X509

/// What an ISO/IEC 18013-5 DeviceRequest asks and who asks it, as every presentation session shows it (docs/sdk.md
/// "Holder: presentation"): the W3C Digital Credentials API's `org-iso-mdoc` requests (ISO/IEC TS 18013-7 Annex C)
/// and in-person requests (ISO/IEC 18013-5 §8.3.2.1.2.1) alike.
struct DeviceRequestReading: Sendable {
    var requests: [MobileCredentialRequest]
    var requirements: PresentationRequirements
    /// `.certificate` when every DocRequest has a `readerAuth` that verifies over the session's transcript and whose
    /// chain reaches a trusted certificate; `.none` otherwise.
    var verifiedBy: VerifierTrust
    /// The reader certificate's first dNSName (or its subject) when `.certificate`; nil otherwise.
    var readerName: String?
    /// Why the reader is not `.certificate`, for `VERIFIER_UNTRUSTED` messages.
    var untrusted: String?

    /// Reads `docRequests`: each docType at most once (`REQUEST_UNSUPPORTED` otherwise), every element asked required
    /// (an ItemsRequest marks nothing optional, §8.3.2.1.2.1), `intentToRetain` kept for the consent view.
    /// `verifyReaderAuthentication` checks every `readerAuth` over the session's transcript and returns the chains
    /// (DER, leaf first); its error is recorded in `untrusted`, never thrown: a `readerAuth` that does not verify is
    /// no authentication, as a request without one.
    init(docRequests: [DeviceRequest.DocRequest], trustedCertificates: [Certificate], at now: Date,
         verifyReaderAuthentication: () throws -> [[[UInt8]]]) async throws(HoldfastError) {
        guard !docRequests.isEmpty else { throw HoldfastError(.requestInvalid, "the DeviceRequest has no docRequests") }
        verifiedBy = .none
        readerName = nil
        untrusted = "a DocRequest has no readerAuth"
        if docRequests.allSatisfy({ $0.readerAuth != nil }) {
            do {
                let chains = try verifyReaderAuthentication()
                do {
                    var names: [String] = []
                    for chain in chains {
                        let path = try await CertificatePathValidator(anchors: trustedCertificates,
                                                                      maximumLength: AuthorizationRequestVerifier.maximumChainLength)
                            .validate(chain: chain, profile: RequestObjectSignerProfile(), at: now)
                        names.append(AuthorizationRequestVerifier.dnsNames(path[0]).sorted().first ?? path[0].subject.description)
                    }
                    verifiedBy = .certificate
                    readerName = names.first
                    untrusted = nil
                } catch {
                    untrusted = "readerAuth does not chain to a trusted certificate (\(error))"
                }
            } catch {
                untrusted = "readerAuth does not verify: \(error)"
            }
        }
        var requests: [MobileCredentialRequest] = []
        var requirements: [PresentationRequirements.Credential] = []
        for docRequest in docRequests {
            let items = docRequest.itemsRequest
            guard !requests.contains(where: { $0.docType == items.docType }) else {
                throw HoldfastError(.requestUnsupported, "the DeviceRequest asks for \(items.docType) twice")
            }
            var namespaces: [String: [String: Bool]] = [:]
            var claims: [PresentationRequirements.Claim] = []
            for space in items.nameSpaces {
                for element in space.elements {
                    namespaces[space.name, default: [:]][element.identifier] = element.intentToRetain
                    claims.append(.init(nameSpace: space.name, element: element.identifier))
                }
            }
            requests.append(MobileCredentialRequest(id: items.docType, docType: items.docType, namespaces: namespaces))
            requirements.append(.init(id: items.docType, docType: items.docType, claims: claims))
        }
        self.requests = requests
        self.requirements = PresentationRequirements(credentials: requirements)
    }
}
