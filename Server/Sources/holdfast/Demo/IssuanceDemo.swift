import Foundation
import HoldfastAdmin
import HoldfastProtocol
import HoldfastSDK
import JOSE

/// Issuance in `holdfast demo` (docs/sdk.md "Holder: credentials"): an mDL configured, offered with a transaction code,
/// claimed by the wallet and shown valid. Returns the wallet's credential id.
enum IssuanceDemo {
    static func steps(admin: AdminClient, holder: MobileCredentialHolder, recorder: DemoRecorder) async throws -> String {
        let iacaPEM = try await recorder.stepProducing("credential-configuration", "Configure a credential",
                                                       "POST \(CredentialAdminRoutes.Template.configurations): an mDL with its display; PUT \(CredentialAdminRoutes.Template.statusListSettings): status list tokens good for 60 s (ttl) and usable until 300 s (exp).") {
            let configuration = try HoldfastJSON.decode(CredentialConfiguration.self, from: Data(Self.configuration.utf8))
            _ = try await CommandFailure.demoStep("configuration") { try await admin.createCredentialConfiguration(configuration) }
            _ = try await CommandFailure.demoStep("status list settings") {
                try await admin.updateStatusListSettings(StatusListSettings(ttlSeconds: 60, expSeconds: 300))
            }
            let iacas = try await admin.iacas()
            guard let iaca = iacas.data.first(where: \.active) else { throw CommandFailure(.failure, "the tenant has no IACA") }
            return (iaca.certificatePem, [.init("configuration", "mdl (org.iso.18013.5.1.mDL)"), .init("iaca", iaca.id)])
        }
        let offer = try await recorder.stepProducing("offer", "Offer it to the holder",
                                                     "POST \(CredentialAdminRoutes.Template.offers) with the claim values and a transaction code, which the issuer would send by SMS.") {
            let request = try HoldfastJSON.decode(CredentialOfferRequest.self, from: Data(Self.offer.utf8))
            let created = try await CommandFailure.demoStep("offer") { try await admin.createCredentialOffer(request) }
            return (created, [.init("offerUri", String(created.offerUri.prefix(60)) + "…"), .init("txCode", created.txCode ?? "-")])
        }
        let credentialId = try await recorder.stepProducing("claim", "Claim the credential",
                                                            "The wallet trusts the tenant's IACA, reads the offer with the issuer's metadata, and claims: token (wallet attestation + PoP, DPoP), c_nonce, a new key for this credential, the proof, the mDoc — verified before it is stored.") {
            _ = try await holder.addTrustedIssuerCertificates([iacaPEM])
            let read = try await holder.retrieveCredentialOffer(uri: offer.offerUri)
            let claimed = try await holder.claimCredentials(offer: read, transactionCode: offer.txCode)
            guard let first = claimed.first else { throw CommandFailure(.failure, "nothing was claimed") }
            return (first.id, [.init("issuer", read.issuerName ?? read.issuerHost), .init("credentialId", first.id),
                               .init("docType", first.docType), .init("validUntil", HoldfastJSON.formatDate(first.validityInfo.validUntil))])
        }
        try await recorder.step("credential-valid", "Show it: valid",
                                "getCredential verifies the mDoc against the IACA and checks its status: the status list token is fetched, verified and cached.") {
            let credential = try await holder.getCredential(credentialId: credentialId)
            guard credential.verificationResult.verified, credential.status == .valid else {
                throw CommandFailure(.failure, "expected a valid credential, got \(credential.verificationResult)")
            }
            let family = credential.claims["org.iso.18013.5.1"]?["family_name"]?.stringValue ?? "-"
            return [.init("verified", "true"), .init("status", "valid"), .init("family_name", family)]
        }
        return credentialId
    }

    static let configuration = #"{"id":"mdl","docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":["family_name","given_name","birth_date"]},"display":{"name":"Demo driving licence"}}"#
    static let offer = #"{"configurationId":"mdl","claims":{"org.iso.18013.5.1":{"family_name":"Doe","given_name":"Jane","birth_date":{"$type":"full-date","value":"1990-02-28"}}},"txCode":{"length":6}}"#
}
