import HoldfastProtocol
import MDoc

/// What every presentation session shares once the person has chosen (docs/sdk.md "Holder: presentation"): the
/// choice checked against what matched, and one mdoc `Document` per chosen credential, holding only the requested
/// elements and signed by the credential's own device key over the session's SessionTranscript.
extension Presentations {
    /// ISO/IEC 18013-5 §8.3.2.1.2.2 Document for each of `chosen`: its IssuerSigned narrowed to the elements asked,
    /// and DeviceSigned with the deviceSignature over DeviceAuthentication (§9.1.3) with `sessionTranscript`, made by
    /// the secure area with the credential's key.
    func documents(_ chosen: [(request: MobileCredentialRequest, credentialId: String)],
                   sessionTranscript: SessionTranscript) async throws(HoldfastError) -> [(requestId: String, document: Document)] {
        var documents: [(requestId: String, document: Document)] = []
        for (wanted, id) in chosen {
            let (stored, issuerSigned) = try await credentials.presentable(id)
            let disclosed = issuerSigned.disclosing(wanted.namespaces.mapValues { Set($0.keys) })
            let deviceSigned = try await OnlinePresentationSession.deviceSigned(docType: stored.docType, transcript: sessionTranscript,
                                                                                alias: stored.keyAlias, secureArea: seams.secureArea)
            documents.append((wanted.id, Document(docType: stored.docType, issuerSigned: disclosed, deviceSigned: deviceSigned)))
        }
        return documents
    }
}

extension [MatchedCredentials] {
    /// `credentialIds` as (request, credential) pairs: each a match of some request, at most one per request, at
    /// least one in all (`VALIDATION_FAILED` otherwise).
    func chosen(_ credentialIds: [String]) throws(HoldfastError) -> [(request: MobileCredentialRequest, credentialId: String)] {
        var chosen: [(request: MobileCredentialRequest, credentialId: String)] = []
        for id in credentialIds {
            guard let match = first(where: { $0.matchedMobileCredentials.contains { $0.id == id } }) else {
                throw HoldfastError(.validationFailed, "credential \(id) answers none of the requests")
            }
            guard !chosen.contains(where: { $0.request.id == match.request.id }) else {
                throw HoldfastError(.validationFailed, "two credentials answer the request \(match.request.id)")
            }
            chosen.append((match.request, id))
        }
        guard !chosen.isEmpty else { throw HoldfastError(.validationFailed, "choose at least one credential, or decline") }
        return chosen
    }

    /// When no stored credential answers any of the requests: `CREDENTIAL_NOT_FOUND` naming what is missing (in its
    /// message and as `HoldfastError.missing`); nil when some request has a match.
    func credentialNotFound(asker: String) -> HoldfastError? {
        guard allSatisfy(\.matchedMobileCredentials.isEmpty) else { return nil }
        let missing = flatMap(\.missing)
        var error = HoldfastError(.credentialNotFound, "no stored credential matches what \(asker) asks"
                                  + (missing.isEmpty ? "" : ": " + MissingItem.sentence(missing)))
        error.missing = missing
        return error
    }
}
