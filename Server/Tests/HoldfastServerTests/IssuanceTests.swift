import CBOR
import COSE
import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JOSE
import MDoc
import StatusList
import Testing
import TestSupport
import X509

/// OpenID4VCI issuance of mDocs (docs/server-api.md "Credentials"): the whole flow over HTTP with a test wallet, then each
/// refusal the token and credential endpoints make.
@Suite struct IssuanceTests {
    /// Register, attest, claim, verify the mDoc against the IACA, revoke, and see `1` at its index in the token.
    @Test(arguments: StorageBackend.available)
    func aWalletClaimsAnMDocThatVerifiesAndIsRevoked(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend, testing: .live) { kit in
            let wallet = try await IssuanceTestWallet.make(kit)
            try await wallet.createConfiguration()
            let (offer, code) = try await wallet.offer()
            #expect(offer.txCode == nil)
            let offerObject = try IssuanceTestWallet.offerObject(offer.offerUri)
            #expect(offerObject["credential_issuer"]?.stringValue == ServerTestKit.publicURL)
            #expect(offerObject["credential_configuration_ids"] == .array([.string("mdl")]))

            let endpoints = try await wallet.endpoints()
            let dpopKey = P256.Signing.PrivateKey()
            let token = try wallet.accessToken(try await wallet.tokenRequest(endpoint: endpoints.token, code: code, dpopKey: dpopKey))
            let credentialKey = P256.Signing.PrivateKey()
            let nonce = try await wallet.nonce(endpoint: endpoints.nonce)
            let proof = try IssuanceTestWallet.keyProof(key: credentialKey, nonce: nonce)
            let response = try await wallet.credentialRequest(endpoint: endpoints.credential, accessToken: token,
                                                              dpopKey: dpopKey, proof: proof)
            try #require(response.status == .ok, "credential: \(response.status) \(response.text)")
            let body = try #require(try JSONDecoder().decode(JSONValue.self, from: Data(response.body.readableBytesView)).objectValue)
            let first = try #require(body["credentials"]?.arrayValue?.first?.objectValue?["credential"]?.stringValue)
            let issuerSigned = try IssuerSigned(decoding: try #require(Base64URL.decode(first)))

            // The mDoc verifies against the tenant's IACA, carries the claims and is bound to the proof's key.
            let iacas = try await kit.admin(CredentialAdminRoutes.Template.iacas, .get).wire(MobileIACAList.self)
            let trust = try IssuerTrust(pem: iacas.data.map(\.certificatePem).joined(separator: "\n"))
            let verified = try await MDocVerifier(trust: trust).verify(issuerSigned, docType: IssuanceTestWallet.docType, at: Date())
            #expect(verified.mso.deviceKey == COSEKey(publicKey: credentialKey.publicKey))
            let items = Dictionary(uniqueKeysWithValues: try #require(issuerSigned.nameSpaces.first).items.map {
                ($0.elementIdentifier, $0.elementValue)
            })
            #expect(items["family_name"] == .text("Doe"))
            #expect(items["birth_date"] == .tagged(1004, .text("1990-02-28")))
            #expect(items["portrait"] == .bytes([0, 1, 2, 3]))
            #expect(items["age_over_18"] == .bool(true))
            let validity = verified.mso.validityInfo
            #expect(abs(validity.validUntil.timeIntervalSince(validity.validFrom) - 30 * 86_400) < 1)
            let status = try #require(verified.mso.status)

            // The admin list knows it, without claim values; a revocation shows in the status list token.
            let list = try await kit.admin(CredentialAdminRoutes.Template.credentials, .get).wire(IssuedCredentialPage.self)
            let issued = try #require(list.data.first)
            #expect(list.data.count == 1)
            #expect(issued.status == "valid")
            #expect(issued.instanceId == wallet.device.instanceId)
            #expect(issued.statusList == CredentialStatusListReference(uri: status.uri, idx: Int(status.index)))
            let revoked = try await kit.admin(CredentialAdminRoutes.Template.credentialStatus, ["credentialId": issued.id], .post, #"{"status":"revoked"}"#)
            #expect(revoked.status == .ok)
            #expect(try revoked.wire(IssuedCredential.self).status == "revoked")
            let tokenResponse = try await kit.client.execute(uri: IssuanceTestWallet.path(status.uri), method: .get)
            #expect(tokenResponse.status == .ok)
            let signed = try SignedStatusListToken(decoding: Array(tokenResponse.body.readableBytesView))
            #expect(signed.format == .cwt)
            #expect(try signed.token.list.status(at: Int(status.index)) == 1)
            // Revocation is final.
            let reinstated = try await kit.admin(CredentialAdminRoutes.Template.credentialStatus, ["credentialId": issued.id], .post, #"{"status":"valid"}"#)
            #expect(reinstated.status == .conflict)
        }
    }

    @Test func theMetadataNamesEveryEndpointAndConfiguration() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let wallet = try await IssuanceTestWallet.make(kit)
            try await wallet.createConfiguration()
            let response = try await kit.client.execute(uri: IssuanceRoutes.Template.issuerMetadata.template, method: .get)
            let metadata = try #require(try JSONDecoder().decode(JSONValue.self, from: Data(response.body.readableBytesView)).objectValue)
            #expect(metadata["credential_issuer"]?.stringValue == ServerTestKit.publicURL)
            #expect(metadata["status_list_aggregation_endpoint"]?.stringValue
                == ServerTestKit.publicURL + "/v2/credentials/mobile/status-lists")
            let mdl = try #require(metadata["credential_configurations_supported"]?.objectValue?["mdl"]?.objectValue)
            #expect(mdl["format"]?.stringValue == "mso_mdoc")
            #expect(mdl["doctype"]?.stringValue == IssuanceTestWallet.docType)
            #expect(mdl["cryptographic_binding_methods_supported"] == .array([.string("cose_key")]))
            #expect(mdl["proof_types_supported"]?.objectValue?["jwt"]?.objectValue?["proof_signing_alg_values_supported"]
                == .array([.string("ES256")]))
            let server = try await kit.client.execute(uri: IssuanceRoutes.Template.authorizationServerMetadata.template, method: .get)
            let authorization = try #require(try JSONDecoder().decode(JSONValue.self, from: Data(server.body.readableBytesView)).objectValue)
            #expect(authorization["issuer"]?.stringValue == ServerTestKit.publicURL)
            #expect(authorization["token_endpoint_auth_methods_supported"] == .array([.string("attest_jwt_client_auth")]))
        }
    }

    // MARK: purging

    /// docs/server-api.md "Credentials": claims that can no longer be issued are cleared, and an unredeemed offer is deleted
    /// a week after it expired; an issued offer's record stays.
    @Test func expiredOffersArePurged() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let wallet = try await IssuanceTestWallet.make(kit)
            try await wallet.createConfiguration()
            let endpoints = try await wallet.endpoints()
            let (unredeemed, unredeemedCode) = try await wallet.offer()
            let (redeemed, redeemedCode) = try await wallet.offer()
            let dpopKey = P256.Signing.PrivateKey()
            let token = try wallet.accessToken(try await wallet.tokenRequest(endpoint: endpoints.token, code: redeemedCode, dpopKey: dpopKey))
            let (issued, issuedCode) = try await wallet.offer()
            let issuedKey = P256.Signing.PrivateKey()
            let issuedToken = try wallet.accessToken(try await wallet.tokenRequest(endpoint: endpoints.token, code: issuedCode, dpopKey: issuedKey))
            let proof = try IssuanceTestWallet.keyProof(key: P256.Signing.PrivateKey(), nonce: try await wallet.nonce(endpoint: endpoints.nonce))
            let credential = try await wallet.credentialRequest(endpoint: endpoints.credential, accessToken: issuedToken, dpopKey: issuedKey,
                                                                proof: proof)
            #expect(credential.status == .ok, "\(credential.text)")

            // Each step: the purge's (cleared, deleted) at a time from now, then which offers are left with claims.
            let steps: [(purged: [Int], kept: [String: Bool])] = try await StorageBackend.withDatabase(kit.configuration.database) { database in
                let now = Date()
                var steps: [(purged: [Int], kept: [String: Bool])] = []
                for offset in [0, 3_600, 2 * 86_400, 9 * 86_400] as [TimeInterval] {
                    let purged = try await CredentialOfferService.purgeExpired(on: database, now: now.addingTimeInterval(offset))
                    var kept: [String: Bool] = [:]
                    for row in try await database.sql.select().columns("id", "claims").from("credential_offers").all() {
                        kept[try row.decode(column: "id", as: String.self)] = try row.decode(column: "claims", as: Data?.self) != nil
                    }
                    steps.append(([purged.cleared, purged.deleted], kept))
                }
                return steps
            }
            try #require(steps.count == 4)
            // Nothing has expired yet.
            #expect(steps[0].purged == [0, 0])
            // An issued offer keeps its claims, sealed, while its access token lives (a repeated credential request
            // re-issues: docs/server-api.md "Credentials").
            #expect(steps[0].kept == [unredeemed.id: true, redeemed.id: true, issued.id: true])
            // An hour on, the access tokens have expired: the redeemed and the issued offers' claims go.
            #expect(steps[1].purged == [2, 0])
            #expect(steps[1].kept == [unredeemed.id: true, redeemed.id: false, issued.id: false])
            // Two days on, the unredeemed offer has expired: its claims go, its record stays for a week.
            #expect(steps[2].purged == [1, 0])
            #expect(steps[2].kept == [unredeemed.id: false, redeemed.id: false, issued.id: false])
            #expect(steps[3].purged == [0, 1])
            #expect(steps[3].kept == [redeemed.id: false, issued.id: false])
            // The purged offers answer as expired, never as a server error.
            let proofAfter = try IssuanceTestWallet.keyProof(key: P256.Signing.PrivateKey(), nonce: try await wallet.nonce(endpoint: endpoints.nonce))
            let purged = try await wallet.credentialRequest(endpoint: endpoints.credential, accessToken: token, dpopKey: dpopKey, proof: proofAfter)
            #expect(purged.status == .unauthorized, "\(purged.text)")
            #expect(IssuanceTestWallet.oauthError(purged) == "invalid_token")
            let deleted = try await wallet.tokenRequest(endpoint: endpoints.token, code: unredeemedCode, dpopKey: P256.Signing.PrivateKey())
            #expect(IssuanceTestWallet.oauthError(deleted) == "invalid_grant")
        }
    }

    // MARK: token endpoint refusals

    @Test func theTokenEndpointRefusesBadClientsWithoutUsingTheCode() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let wallet = try await IssuanceTestWallet.make(kit)
            try await wallet.createConfiguration()
            let (_, code) = try await wallet.offer()
            let endpoint = try await wallet.endpoints().token
            let key = P256.Signing.PrivateKey()
            let refusals: [(String, TestResponse)] = [
                ("no attestation", try await wallet.tokenRequest(endpoint: endpoint, code: code, dpopKey: key, omitAttestation: true)),
                ("PoP for another audience", try await wallet.tokenRequest(endpoint: endpoint, code: code, dpopKey: key,
                                                                            audience: "https://other-issuer.example")),
                ("PoP by another key", try await wallet.tokenRequest(endpoint: endpoint, code: code, dpopKey: key,
                                                                      popKey: P256.Signing.PrivateKey())),
                ("forged attestation", try await wallet.tokenRequest(endpoint: endpoint, code: code, dpopKey: key,
                                                                      attestation: wallet.walletAttestation.dropLast(4) + "AAAA")),
            ]
            for (name, response) in refusals {
                #expect(response.status == .unauthorized, "\(name): \(response.status)")
                #expect(IssuanceTestWallet.oauthError(response) == "invalid_client", "\(name): \(response.text)")
            }
            // A wrong code is refused before the PoP is recorded: the same PoP then serves once, and only once.
            let pop = try await ClientAttestationPoP.create(audience: ServerTestKit.publicURL,
                                                            signer: JWSSigningKey(wallet.device.key), issuedAt: Date())
            let wrongCode = try await wallet.tokenRequest(endpoint: endpoint, code: "unknown", dpopKey: key, pop: pop)
            #expect(IssuanceTestWallet.oauthError(wrongCode) == "invalid_grant")
            let (_, otherCode) = try await wallet.offer()
            _ = try wallet.accessToken(try await wallet.tokenRequest(endpoint: endpoint, code: otherCode, dpopKey: key, pop: pop))
            let replayed = try await wallet.tokenRequest(endpoint: endpoint, code: code, dpopKey: key, pop: pop)
            #expect(IssuanceTestWallet.oauthError(replayed) == "invalid_client")
            // None of it used up the code.
            _ = try wallet.accessToken(try await wallet.tokenRequest(endpoint: endpoint, code: code, dpopKey: key))
        }
    }

    @Test func aRevokedInstancesAttestationIsRefused() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let wallet = try await IssuanceTestWallet.make(kit)
            try await wallet.createConfiguration()
            let (_, code) = try await wallet.offer()
            let deleted = try await kit.admin(TetheringAdminRoutes.Template.instance, ["applicationId": wallet.device.applicationId, "instanceId": wallet.device.instanceId],
                                              .delete)
            #expect(deleted.status == .noContent)
            let response = try await wallet.tokenRequest(endpoint: try await wallet.endpoints().token, code: code,
                                                         dpopKey: P256.Signing.PrivateKey())
            #expect(response.status == .unauthorized)
            #expect(IssuanceTestWallet.oauthError(response) == "invalid_client")
        }
    }

    /// An attestation from a wallet provider an admin trusts is accepted without an instance of this tenant; one from
    /// a provider nobody added, or from one that was removed, is `invalid_client`.
    @Test func aTrustedWalletProvidersAttestationIsAccepted() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let wallet = try await IssuanceTestWallet.make(kit)
            try await wallet.createConfiguration()
            let providerKey = P256.Signing.PrivateKey()
            let providerJWK = JWK(publicKey: providerKey.publicKey, kid: "provider-1")
            let jwks = String(decoding: try JSONEncoder().encode(JWKSet(keys: [providerJWK])), as: UTF8.self)
            let created = try await kit.admin(CredentialAdminRoutes.Template.walletProviders, .post,
                                              #"{"name":"Example wallet","issuer":"https://wallet-provider.example","jwks":\#(jwks)}"#)
            #expect(created.status == .created, "\(created.text)")
            let provider = try created.wire(TrustedWalletProvider.self)

            let instanceKey = P256.Signing.PrivateKey()
            func attestation(issuer: String, key: P256.Signing.PrivateKey, issuedAgo: TimeInterval = 5,
                             expiresIn: TimeInterval = 3_600) throws -> String {
                let claims = WalletAttestationClaims(issuer: issuer, clientId: "external-wallet",
                                                     instanceKey: JWK(publicKey: instanceKey.publicKey),
                                                     issuedAt: Date().addingTimeInterval(-issuedAgo),
                                                     expiresAt: Date().addingTimeInterval(expiresIn))
                return try JWT.sign(claims: claims.jwtClaims, header: WalletAttestationClaims.header(kid: "provider-1"),
                                    key: JWSSigningKey(key))
            }
            let endpoint = try await wallet.endpoints().token
            let (_, code) = try await wallet.offer()
            let accepted = try await wallet.tokenRequest(endpoint: endpoint, code: code, dpopKey: P256.Signing.PrivateKey(),
                                                         attestation: try attestation(issuer: "https://wallet-provider.example", key: providerKey),
                                                         popKey: instanceKey)
            _ = try wallet.accessToken(accepted)

            let (_, second) = try await wallet.offer()
            let unknown = try await wallet.tokenRequest(endpoint: endpoint, code: second, dpopKey: P256.Signing.PrivateKey(),
                                                        attestation: try attestation(issuer: "https://unknown.example", key: providerKey),
                                                        popKey: instanceKey)
            #expect(IssuanceTestWallet.oauthError(unknown) == "invalid_client")
            let forged = try await wallet.tokenRequest(endpoint: endpoint, code: second, dpopKey: P256.Signing.PrivateKey(),
                                                       attestation: try attestation(issuer: "https://wallet-provider.example",
                                                                                    key: P256.Signing.PrivateKey()),
                                                       popKey: instanceKey)
            #expect(IssuanceTestWallet.oauthError(forged) == "invalid_client")
            // draft-ietf-oauth-attestation-based-client-auth: use_fresh_attestation for an attestation not fresh enough.
            let stale = try await wallet.tokenRequest(endpoint: endpoint, code: second, dpopKey: P256.Signing.PrivateKey(),
                                                      attestation: try attestation(issuer: "https://wallet-provider.example", key: providerKey,
                                                                                   issuedAgo: 7_200, expiresIn: -3_600),
                                                      popKey: instanceKey)
            #expect(stale.status == .unauthorized)
            #expect(IssuanceTestWallet.oauthError(stale) == "use_fresh_attestation", "\(stale.text)")

            #expect(try await kit.admin(CredentialAdminRoutes.Template.walletProvider, ["id": try #require(provider.id)], .delete).status == .noContent)
            let removed = try await wallet.tokenRequest(endpoint: endpoint, code: second, dpopKey: P256.Signing.PrivateKey(),
                                                        attestation: try attestation(issuer: "https://wallet-provider.example", key: providerKey),
                                                        popKey: instanceKey)
            #expect(IssuanceTestWallet.oauthError(removed) == "invalid_client")
            // The code was never used up by the refusals.
            _ = try wallet.accessToken(try await wallet.tokenRequest(endpoint: endpoint, code: second, dpopKey: P256.Signing.PrivateKey()))

            let privateKey = String(decoding: try JSONEncoder().encode(["keys": [["kty": "EC", "crv": "P-256", "x": providerJWK.x ?? "",
                                                                                   "y": providerJWK.y ?? "", "d": "AAAA"]]]), as: UTF8.self)
            let refused = try await kit.admin(CredentialAdminRoutes.Template.walletProviders, .post,
                                              #"{"name":"Leaky","issuer":"https://leaky.example","jwks":\#(privateKey)}"#)
            #expect(refused.status == .badRequest)
            let own = try await kit.admin(CredentialAdminRoutes.Template.walletProviders, .post,
                                          #"{"name":"Self","issuer":"\#(ServerTestKit.publicURL)","jwks":\#(jwks)}"#)
            #expect(own.status == .badRequest)
        }
    }

    @Test(arguments: StorageBackend.available)
    func fiftyParallelRedemptionsOfOneCodeGiveOneToken(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let wallet = try await IssuanceTestWallet.make(kit)
            try await wallet.createConfiguration()
            let (_, code) = try await wallet.offer()
            let endpoint = try await wallet.endpoints().token
            let statuses = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?).self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        let response = try await wallet.tokenRequest(endpoint: endpoint, code: code, dpopKey: P256.Signing.PrivateKey())
                        return (response.status, IssuanceTestWallet.oauthError(response))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0.0 == .ok }.count == 1)
            #expect(statuses.filter { $0.0 != .ok }.allSatisfy { $0.1 == "invalid_grant" })
            // Used is used.
            let again = try await wallet.tokenRequest(endpoint: endpoint, code: code, dpopKey: P256.Signing.PrivateKey())
            #expect(IssuanceTestWallet.oauthError(again) == "invalid_grant")
        }
    }

    @Test func anExpiredOfferIsRefused() async throws {
        let clock = ManualClock(Date())
        try await ServerTestKit.run(.sqlite, clock: clock) { kit in
            let wallet = try await IssuanceTestWallet.make(kit)
            try await wallet.createConfiguration()
            let (_, code) = try await wallet.offer(extra: #","expiresInSeconds":60"#)
            clock.advance(by: 61)
            let response = try await wallet.tokenRequest(endpoint: try await wallet.endpoints().token, code: code,
                                                         dpopKey: P256.Signing.PrivateKey(), at: clock.now())
            #expect(IssuanceTestWallet.oauthError(response) == "invalid_grant", "\(response.text)")
            #expect(response.text.contains("expired"))
        }
    }

    @Test func wrongTransactionCodesAreLimitedToFive() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let wallet = try await IssuanceTestWallet.make(kit)
            try await wallet.createConfiguration()
            let (offer, code) = try await wallet.offer(extra: #","txCode":{"length":6}"#)
            let txCode = try #require(offer.txCode)
            #expect(txCode.count == 6 && txCode.allSatisfy(\.isNumber))
            let txObject = IssuanceTestWallet.offerObjectTxCode(offer.offerUri)
            #expect(txObject?["length"] == .integer(6))
            #expect(txObject?["input_mode"] == .string("numeric"))
            let endpoint = try await wallet.endpoints().token
            let missing = try await wallet.tokenRequest(endpoint: endpoint, code: code, dpopKey: P256.Signing.PrivateKey())
            #expect(IssuanceTestWallet.oauthError(missing) == "invalid_request")
            let wrong = txCode == "000000" ? "111111" : "000000"
            for _ in 0..<5 {
                let response = try await wallet.tokenRequest(endpoint: endpoint, code: code, txCode: wrong,
                                                             dpopKey: P256.Signing.PrivateKey())
                #expect(IssuanceTestWallet.oauthError(response) == "invalid_grant")
            }
            // After five wrong codes the right one no longer works.
            let late = try await wallet.tokenRequest(endpoint: endpoint, code: code, txCode: txCode, dpopKey: P256.Signing.PrivateKey())
            #expect(IssuanceTestWallet.oauthError(late) == "invalid_grant")
            #expect(late.text.contains("too many"))

            // With the right code at once, it works.
            let (second, secondCode) = try await wallet.offer(extra: #","txCode":{"length":8,"inputMode":"text"}"#)
            let secondTx = try #require(second.txCode)
            #expect(secondTx.count == 8)
            _ = try wallet.accessToken(try await wallet.tokenRequest(endpoint: endpoint, code: secondCode, txCode: secondTx,
                                                                     dpopKey: P256.Signing.PrivateKey()))
        }
    }

    // MARK: credential endpoint refusals

    @Test func theCredentialEndpointChecksTheProofAndItsNonce() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let wallet = try await IssuanceTestWallet.make(kit)
            try await wallet.createConfiguration()
            let (_, code) = try await wallet.offer()
            let endpoints = try await wallet.endpoints()
            let dpopKey = P256.Signing.PrivateKey()
            let token = try wallet.accessToken(try await wallet.tokenRequest(endpoint: endpoints.token, code: code, dpopKey: dpopKey))
            let key = P256.Signing.PrivateKey()

            func attempt(_ proof: String, dpop: P256.Signing.PrivateKey? = nil, configurationId: String = "mdl") async throws -> TestResponse {
                try await wallet.credentialRequest(endpoint: endpoints.credential, accessToken: token, dpopKey: dpop ?? dpopKey,
                                                   proof: proof, configurationId: configurationId)
            }
            let forged = try IssuanceTestWallet.keyProof(key: key, nonce: try await wallet.nonce(endpoint: endpoints.nonce),
                                                         signer: P256.Signing.PrivateKey())
            #expect(IssuanceTestWallet.oauthError(try await attempt(forged)) == "invalid_proof")
            let otherAudience = try IssuanceTestWallet.keyProof(key: key, nonce: try await wallet.nonce(endpoint: endpoints.nonce),
                                                                audience: "https://elsewhere.example")
            #expect(IssuanceTestWallet.oauthError(try await attempt(otherAudience)) == "invalid_proof")
            let wrongType = try IssuanceTestWallet.keyProof(key: key, nonce: try await wallet.nonce(endpoint: endpoints.nonce), type: "JWT")
            #expect(IssuanceTestWallet.oauthError(try await attempt(wrongType)) == "invalid_proof")
            let noNonce = try IssuanceTestWallet.keyProof(key: key, nonce: nil)
            #expect(IssuanceTestWallet.oauthError(try await attempt(noNonce)) == "invalid_nonce")
            let foreignNonce = try IssuanceTestWallet.keyProof(key: key, nonce: String(repeating: "A", count: 43))
            #expect(IssuanceTestWallet.oauthError(try await attempt(foreignNonce)) == "invalid_nonce")
            let otherConfiguration = try IssuanceTestWallet.keyProof(key: key, nonce: try await wallet.nonce(endpoint: endpoints.nonce))
            #expect(IssuanceTestWallet.oauthError(try await attempt(otherConfiguration, configurationId: "other"))
                == "unknown_credential_configuration")
            // The access token is bound to the token request's DPoP key.
            let stolen = try await attempt(try IssuanceTestWallet.keyProof(key: key, nonce: try await wallet.nonce(endpoint: endpoints.nonce)),
                                           dpop: P256.Signing.PrivateKey())
            #expect(stolen.status == .unauthorized)
            #expect(IssuanceTestWallet.oauthError(stolen) == "invalid_dpop_proof")

            // A c_nonce is single use: the first proof with it is issued, a second proof with it is refused.
            let nonce = try await wallet.nonce(endpoint: endpoints.nonce)
            let issued = try await attempt(try IssuanceTestWallet.keyProof(key: key, nonce: nonce))
            #expect(issued.status == .ok, "\(issued.text)")
            let reused = try await attempt(try IssuanceTestWallet.keyProof(key: key, nonce: nonce))
            #expect(reused.status == .unauthorized || IssuanceTestWallet.oauthError(reused) == "invalid_nonce")
            // docs/server-api.md "Credentials": a repeated request with the same access token re-issues, and the earlier credential
            // is revoked — record and status list entry — so that the offer has one valid credential.
            let before = try await kit.admin(CredentialAdminRoutes.Template.credentials, .get).wire(IssuedCredentialPage.self)
            #expect(before.data.count == 1 && before.data.first?.status == .valid)
            let again = try await attempt(try IssuanceTestWallet.keyProof(key: key, nonce: try await wallet.nonce(endpoint: endpoints.nonce)))
            #expect(again.status == .ok, "\(again.text)")
            let after = try await kit.admin(CredentialAdminRoutes.Template.credentials, .get).wire(IssuedCredentialPage.self)
            #expect(after.data.count == 2)
            #expect(after.data.filter { $0.status == .valid }.count == 1)
            let replaced = try #require(after.data.first { $0.id == before.data.first?.id })
            #expect(replaced.status == .revoked)
            let reissued = try #require(after.data.first { $0.id != replaced.id })
            #expect(reissued.statusList != nil && reissued.statusList?.idx != replaced.statusList?.idx)
        }
    }

    @Test func aStaleNonceIsRefused() async throws {
        let clock = ManualClock(Date())
        try await ServerTestKit.run(.sqlite, clock: clock) { kit in
            let wallet = try await IssuanceTestWallet.make(kit)
            try await wallet.createConfiguration()
            let (_, code) = try await wallet.offer()
            let endpoints = try await wallet.endpoints()
            let nonce = try await wallet.nonce(endpoint: endpoints.nonce)
            clock.advance(by: 301)
            let dpopKey = P256.Signing.PrivateKey()
            let token = try wallet.accessToken(try await wallet.tokenRequest(endpoint: endpoints.token, code: code, dpopKey: dpopKey,
                                                                             at: clock.now()))
            let response = try await wallet.credentialRequest(
                endpoint: endpoints.credential, accessToken: token, dpopKey: dpopKey,
                proof: try IssuanceTestWallet.keyProof(key: P256.Signing.PrivateKey(), nonce: nonce, issuedAt: clock.now()),
                at: clock.now())
            #expect(IssuanceTestWallet.oauthError(response) == "invalid_nonce", "\(response.text)")
            #expect(response.text.contains("expired"))
        }
    }

    // MARK: admin validation

    @Test func configurationsAndOffersAreValidated() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let wallet = try await IssuanceTestWallet.make(kit)
            try await wallet.createConfiguration()
            let duplicate = try await kit.admin(CredentialAdminRoutes.Template.configurations, .post, IssuanceTestWallet.configuration)
            #expect(duplicate.status == .conflict)
            let bad = try await kit.admin(CredentialAdminRoutes.Template.configurations, .post,
                                          #"{"id":"a b","docType":"","display":{"name":"x"},"validForDays":0}"#)
            #expect(bad.status == .badRequest)
            #expect(Set(bad.problem?.errors?.map(\.field) ?? []) == ["id", "docType", "validForDays"])

            let listed = try await kit.admin(CredentialAdminRoutes.Template.configurations, .get).wire(CredentialConfigurationList.self)
            #expect(listed.data.map(\.id) == ["mdl"])
            #expect(listed.data.first?.revocable == true)

            let unknownElement = try await kit.admin(CredentialAdminRoutes.Template.offers, .post,
                                                     #"{"configurationId":"mdl","claims":{"org.iso.18013.5.1":{"eye_colour":"blue"}}}"#)
            #expect(unknownElement.status == .badRequest)
            #expect(unknownElement.problem?.errors?.first?.field == "claims.org.iso.18013.5.1.eye_colour")
            let badDate = try await kit.admin(CredentialAdminRoutes.Template.offers, .post,
                                              #"{"configurationId":"mdl","claims":{"org.iso.18013.5.1":{"birth_date":{"$type":"full-date","value":"1990-02-30"}}}}"#)
            #expect(badDate.status == .badRequest)
            let unknownConfiguration = try await kit.admin(CredentialAdminRoutes.Template.offers, .post,
                                                           #"{"configurationId":"nope","claims":{"a":{"b":1}}}"#)
            #expect(unknownConfiguration.status == .notFound)

            let deleted = try await kit.admin(CredentialAdminRoutes.Template.configuration, ["id": "mdl"], .delete)
            #expect(deleted.status == .noContent)
            #expect(try await kit.admin(CredentialAdminRoutes.Template.configuration, ["id": "mdl"], .get).status == .notFound)
            let missing = try await kit.admin(CredentialAdminRoutes.Template.credentialStatus, ["credentialId": UUID().uuidString.lowercased()], .post, #"{"status":"revoked"}"#)
            #expect(missing.status == .notFound)
            // A status this version does not name decodes, and is refused as the field at fault.
            let unknownStatus = try await kit.admin(CredentialAdminRoutes.Template.credentialStatus, ["credentialId": UUID().uuidString.lowercased()],
                                                    .post, #"{"status":"expired"}"#)
            #expect(unknownStatus.status == .badRequest && unknownStatus.problem?.errors?.first?.field == "status")
        }
    }

    @Test func claimValuesBecomeTheirCBORForms() async throws {
        #expect(try ClaimValues.cbor(.object(["$type": .string("tdate"), "value": .string("2026-01-02T03:04:05.678Z")]), field: "x")
            == .tagged(0, .text("2026-01-02T03:04:05Z")))
        #expect(try ClaimValues.cbor(.integer(-3), field: "x") == .negative(2))
        #expect(try ClaimValues.cbor(.array([.string("a"), .null]), field: "x") == .array([.text("a"), .null]))
        #expect(throws: ProblemError.self) { try ClaimValues.cbor(.object(["$type": .string("bytes"), "value": .string("%%")]), field: "x") }
        #expect(throws: ProblemError.self) { try ClaimValues.cbor(.object(["$type": .string("uuid"), "value": .string("x")]), field: "x") }
        #expect(ClaimValues.isFullDate("2024-02-29"))
        #expect(!ClaimValues.isFullDate("2023-02-29"))
        #expect(!ClaimValues.isFullDate("2023-2-28"))
    }
}

extension IssuanceTestWallet {
    static func offerObjectTxCode(_ uri: String) -> [String: JSONValue]? {
        guard let offer = try? offerObject(uri) else { return nil }
        return offer["grants"]?.objectValue?["urn:ietf:params:oauth:grant-type:pre-authorized_code"]?.objectValue?["tx_code"]?.objectValue
    }
}

/// Our offers and metadata read by the `openid4vci` package (shared/peers/peer_oid4vci.py).
@Suite(.enabled(if: Peer.isAvailable, Peer.unavailableReason))
struct IssuancePeerTests {
    @Test func openID4VCIReadsOurOfferAndAuthorizationServerMetadata() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let wallet = try await IssuanceTestWallet.make(kit)
            try await wallet.createConfiguration()
            let (offer, _) = try await wallet.offer(extra: #","txCode":{"length":6}"#)
            let offerResult = try await Peer.run("peer_oid4vci.py", ["offer", "--offer", offer.offerUri])
            #expect(offerResult.accepted, "\(offerResult.stdout) \(offerResult.stderr)")

            let issuer = try await kit.client.execute(uri: IssuanceRoutes.Template.issuerMetadata.template, method: .get)
            let server = try await kit.client.execute(uri: IssuanceRoutes.Template.authorizationServerMetadata.template, method: .get)
            let metadata = try await Peer.run("peer_oid4vci.py", ["metadata", "--issuer", issuer.text, "--auth-server", server.text])
            let object = try metadata.object()
            let authorization = try #require(object["authorization_server"] as? [String: Any])
            #expect(authorization["valid"] as? Bool == true, "\(object)")
            // The package types credential_signing_alg_values_supported as strings, while OpenID4VCI 1.0 Appendix
            // A.2.2 has mso_mdoc use COSE integers (-7): that is the only thing it may refuse in ours.
            if let credentialIssuer = object["credential_issuer"] as? [String: Any], credentialIssuer["valid"] as? Bool != true {
                #expect("\(credentialIssuer["error"] ?? "")".contains("credential_signing_alg_values_supported"), "\(credentialIssuer)")
            }

            let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Apre-authorized_code&pre-authorized_code=abc&tx_code=123456"
            let token = try await Peer.run("peer_oid4vci.py", ["token-request", "--form", form])
            #expect(token.accepted, "\(token.stdout)")
        }
    }
}
