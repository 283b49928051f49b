import Foundation
import HoldfastAdmin
import HoldfastProtocol
import HoldfastSDK
import JOSE

/// The SCA wallet in `holdfast demo` (docs/server-api.md "SCA wallet (back end)"): the bank's back end makes a wallet for its customer, the
/// device provisions it and sets a PIN, signs a beneficiary creation, the back end verifies the proof, three wrong
/// PINs lock the wallet and the back end unlocks it.
enum SCADemo {
    static let pin = "314159"
    static let beneficiaryURL = DemoBankRoutes.beneficiariesURL
    static let beneficiary = #"{"name":"Alex Martin","iban":"FR7630001007941234567890185","accessTag":"demo-1"}"#
    static let policies = DemoBankRoutes.beneficiaryPolicy(requiredPatterns: [.pin, .biometry])

    static func steps(admin: AdminClient, applicationId: String, seams: PlatformSeams, tenant: String, recorder: DemoRecorder) async throws {
        let created = try await recorder.stepProducing("sca-wallet", "The bank makes an SCA wallet for its customer",
                                                       "PUT \(SCARoutes.Template.policies) (what a proof of each operation signs), then POST \(SCARoutes.Template.wallets): a wallet for the bank's user, protected by a PIN, with a one-time activation code for the device.") {
            _ = try await CommandFailure.demoStep("policies") { try await admin.replaceSCAPolicies(Self.policies) }
            let request = SCAWalletCreateRequest(applicationId: applicationId, userId: "customer-42",
                                                 settings: SCAWalletSettings(accessProtection: "pin", maxPinAttempts: 3))
            let created = try await CommandFailure.demoStep("wallet") { try await admin.createSCAWallet(request) }
            return (created, [.init("walletId", created.walletId), .init("activationCode", created.activationCode),
                              .init("activationExpiresAt", HoldfastJSON.formatDate(created.activationExpiresAt))])
        }
        let manager = try WalletManager(seams: seams, configuration: WalletConfiguration(
            platform: PlatformConfiguration(tenantHost: tenant, applicationId: applicationId), appVersion: "1.0.0"))
        let wallet = try await recorder.stepProducing("sca-provision", "Provision the wallet and set the PIN",
                                                      "The device checks its eligibility, makes the wallet key and registers it with the activation code (challenge, binding nonce, assertion); the first connect asks for new credentials: the PIN's secret (scrypt, HMAC) is enrolled with the tenant, with the key share that seals the PIN key (HKDF, AES-GCM) and that only the tenant releases.") {
            guard case .deviceEligible = await manager.provisioning.checkEligibility() else { throw CommandFailure(.failure, "the device is not eligible") }
            if case .provisioningError(let error) = await manager.provisioning.provision(activationCode: created.activationCode) { throw error }
            guard case .credentialsRequired(.new) = await manager.connect() else { throw CommandFailure(.failure, "expected credentialsRequired(.new)") }
            guard case .connectionSuccess(let wallet) = await manager.connect(newCredentials: .pin(Self.pin)) else {
                throw CommandFailure(.failure, "the connection with the new PIN failed")
            }
            return (wallet, [.init("walletId", wallet.id), .init("state", try await manager.state().rawValue), .init("firstConnect", "credentialsRequired(new)")])
        }
        let body = try JSONValue(json: Array(Self.beneficiary.utf8))
        let proof = try await recorder.stepProducing("sca-sign", "Sign a beneficiary creation with the PIN",
                                                     "The policy signs every field but the transport's accessTag; the device asks for the PIN and signs {method, url, body, message, pattern, signatureInputData, walletId, iat, jti, counter} with the PIN key, unlocked by the tenant's share after it checked the PIN (ES256, typ sca-proof+jwt).") {
            let payload = try await manager.payload(method: "POST", url: Self.beneficiaryURL, body: body)
            let signature = CustomerAuthenticatedSignature(patternName: .pin, message: "Add Alex Martin as a beneficiary",
                                                           signatureType: .localJws, payload: payload)
            guard let jws = await wallet.sign(signature, credentials: .pin(Self.pin)).result() else { throw CommandFailure(.failure, "signing failed") }
            return (jws, [.init("proof", String(jws.prefix(48)) + "…"), .init("signedBody", String(decoding: try payload.body.jsonBytes(), as: UTF8.self))])
        }
        try await recorder.step("sca-verify", "The bank's back end verifies the proof",
                                "POST \(SCARoutes.Template.verifyProof) with the request the bank received: the pattern's key, the wallet's state and eligibility, the policy's {url, body}, the pattern, freshness, the jti once — a replay is refused — and a counter above the last.") {
            let first = try await verify(admin, proof: proof, body: body)
            guard first.valid else { throw CommandFailure(.failure, "refused: \(first.code ?? "-")") }
            let replay = try await verify(admin, proof: proof, body: body)
            guard replay.code == SCAProofFailureCode.replayed else { throw CommandFailure(.failure, "the replay was \(replay.code ?? "accepted")") }
            return [.init("valid", "true"), .init("userId", first.userId ?? "-"), .init("pattern", first.pattern?.rawValue ?? "-"),
                    .init("replay", SCAProofFailureCode.replayed.rawValue)]
        }
        try await recorder.step("sca-lockout", "Three wrong PINs lock the wallet",
                                "Only the tenant can tell a wrong PIN (the device stores nothing to check one against): it counts each, and the third locks the wallet on both sides; the right PIN no longer helps.") {
            let signature = CustomerAuthenticatedSignature(patternName: .pin, message: "Add Alex Martin as a beneficiary",
                                                           payload: try await manager.payload(method: "POST", url: Self.beneficiaryURL, body: body))
            var codes: [String] = []
            for _ in 0..<3 {
                if case .failure(let error) = await wallet.sign(signature, credentials: .pin("000000")) { codes.append(error.code.rawValue) }
            }
            guard try await manager.state() == .locked else { throw CommandFailure(.failure, "the wallet is not locked") }
            let tenantSide = try await admin.scaWallet(id: wallet.id)
            guard tenantSide.state == .locked else { throw CommandFailure(.failure, "the tenant has the wallet \(tenantSide.state)") }
            return [.init("answers", codes.joined(separator: ", ")), .init("device", "locked"),
                    .init("tenant", "\(tenantSide.state) (\(tenantSide.lockReason?.rawValue ?? "-"))")]
        }
        try await recorder.step("sca-unlock", "The bank unlocks it",
                                "PUT \(SCARoutes.Template.wallets)/{id}/unlock; the device reads walletUnlocked from its event feed (server-sent events, authenticated by the wallet key), connects again and signs.") {
            _ = try await CommandFailure.demoStep("unlock") { try await admin.unlockSCAWallet(id: wallet.id) }
            let events = try await manager.synchronize()
            guard events.contains(.walletUnlocked) else { throw CommandFailure(.failure, "the device heard \(events.map(\.name))") }
            guard case .connectionSuccess(let again) = await manager.connect() else { throw CommandFailure(.failure, "no connection after the unlock") }
            let signature = CustomerAuthenticatedSignature(patternName: .pin, message: "Add Alex Martin as a beneficiary",
                                                           payload: try await manager.payload(method: "POST", url: Self.beneficiaryURL, body: body))
            guard let jws = await again.sign(signature, credentials: .pin(Self.pin)).result(),
                  try await verify(admin, proof: jws, body: body).valid else { throw CommandFailure(.failure, "the new proof was refused") }
            return [.init("events", events.map(\.name).joined(separator: ", ")), .init("state", try await manager.state().rawValue),
                    .init("pinAttemptsLeft", "\(try await manager.pinAttemptsLeft() ?? 0)")]
        }
    }

    private static func verify(_ admin: AdminClient, proof: String, body: JSONValue) async throws -> SCAProofVerification {
        let request = SCAProofVerifyRequest(proof: proof, method: "POST", url: beneficiaryURL, body: body)
        return try await CommandFailure.demoStep("verify") { try await admin.verifySCAProof(request) }
    }
}
