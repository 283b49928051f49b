import Foundation
import HoldfastProtocol

/// Eligibility and provisioning (docs/sdk.md "SCA wallet (device)").
extension WalletManager {
    // MARK: eligibility and provisioning

    func checkEligibility() async -> EligibilityResult {
        let result: EligibilityResult
        do {
            let signals = await seams.deviceIntegrity.signals()
            let request = SCAEligibilityCheckRequest(
                applicationId: configuration.platform.applicationId,
                device: .init(model: seams.deviceInfo.deviceModel, appVersion: configuration.appVersion),
                integrity: .init(compromised: !signals.isEmpty, signals: signals.isEmpty ? nil : signals))
            let answer = try await client.call("POST", SCARoutes.Template.eligibilityChecks, body: request, as: SCAEligibilityCheckResponse.self)
            if answer.eligible {
                var features: Set<WalletFeature> = [.pin]
                if (try? await seams.userVerification.checkAvailability(of: .biometry)) != nil { features.insert(.biometry) }
                if !(seams.platformAttestation is UnavailablePlatformAttestation) { features.insert(.platformAttestation) }
                // Eligible again: a provisioned wallet signs again (the tenant judges its proofs by the rules now).
                if try await load() != nil {
                    try await update { wallet in
                        wallet.ineligibility = nil
                        if let sunset = answer.appSunset { wallet.sunset = sunset }
                    }
                }
                if let sunset = answer.appSunset, let date = sunset.sunsetAt {
                    emit(.appSunsetScheduled(minimumVersion: sunset.version, sunsetAt: date))
                }
                result = .deviceEligible(features)
            } else {
                let reason = answer.reason ?? ""
                if try await load() != nil { try await update { $0.ineligibility = reason } }
                result = .deviceNotEligible(reason: reason, denialReference: answer.denialReference ?? "")
            }
        } catch {
            result = .checkEligibilityError(error)
        }
        switch result {
        case .deviceEligible(let features): provisioningDelegate?.onDeviceEligible(features)
        case .deviceNotEligible(let reason, let reference): provisioningDelegate?.onDeviceNotEligible(reason: reason, denialReference: reference)
        case .checkEligibilityError(let error): provisioningDelegate?.onCheckEligibilityError(error)
        }
        return result
    }

    func provision(activationCode: String) async -> ProvisioningResult {
        let result: ProvisioningResult
        do {
            result = .provisioningSuccess(walletId: try await performProvisioning(activationCode: activationCode))
        } catch {
            result = .provisioningError(error)
        }
        switch result {
        case .provisioningSuccess(let walletId): provisioningDelegate?.onProvisioningSuccess(walletId: walletId)
        case .provisioningError(let error): provisioningDelegate?.onProvisioningError(error)
        }
        return result
    }

    /// Activation (docs/sdk.md "SCA wallet (device)"): a challenge of the holder application, a new key in the secure area with
    /// its binding nonce and the platform's attestation (or an assertion where allowed), then the one-time code.
    /// Nothing is stored until the tenant said `201`; a key made by a failed attempt is deleted.
    func performProvisioning(activationCode: String) async throws(HoldfastError) -> String {
        guard try await load() == nil else { throw HoldfastError(.walletAlreadyProvisioned, "a wallet is provisioned on this device already") }
        let code = activationCode.trimmingCharacters(in: .whitespaces)
        guard !code.isEmpty, code.utf8.count <= 64 else { throw HoldfastError(.validationFailed, "the activation code is empty or too long") }
        let platform = configuration.platform
        let alias = store.keyAlias
        do {
            let challenge = try await client.call("POST", TetheringRoutes.Template.challenges, ["applicationId": platform.applicationId],
                                                  as: ChallengeResponse.self)
            let evidence = try await KeyEvidence.make(alias: alias, challenge: challenge.challenge, seams: seams,
                                                      allowsAssertionFallback: platform.allowsAssertionFallback,
                                                      forceAssertion: Tethering.developmentBypass(platform))
            let wire = evidence.attestation?.wire
            let request = SCAActivationRequest(activationCode: code, challenge: challenge.challenge, publicKey: evidence.publicKey.encoded,
                                               attestation: wire?.attestation, assertion: evidence.assertion, keyId: wire?.keyId,
                                               device: .init(model: seams.deviceInfo.deviceModel, appVersion: configuration.appVersion))
            let activated = try await client.call("POST", SCARoutes.Template.activations, body: request, as: SCAActivationResponse.self)
            let wallet = StoredWallet(
                walletId: activated.walletId, userId: activated.userId, applicationId: platform.applicationId,
                accessProtection: activated.accessProtection, maxPinAttempts: activated.maxPinAttempts,
                pinAttemptsLeft: activated.maxPinAttempts, keyAlias: alias, state: .ready, lockReason: nil, pin: nil, biometryKey: nil,
                credentialsSet: activated.accessProtection == .none, lastEventId: 0, clockOffsetMs: await client.clockOffsetMilliseconds,
                proofCounter: nil, ineligibility: nil, sunset: nil)
            try await save(wallet)
            return activated.walletId
        } catch {
            try? await seams.secureArea.deleteKey(alias: alias)
            throw error
        }
    }
}

/// Eligibility and provisioning of the manager's wallet.
public struct WalletProvisioning: Sendable {
    let manager: WalletManager

    /// Whether this device may hold a wallet: its integrity signals, its model and the app's version against the
    /// tenant's rules. A denial is recorded by the tenant under the reference returned.
    public func checkEligibility() async -> EligibilityResult { await manager.checkEligibility() }

    /// Provisions the wallet with the one-time activation code the bank's back end got for its customer: the wallet
    /// key is made in the secure area and registered with attestation; the wallet is then `ready`, with its
    /// credentials still to set (the next `connect` asks for new ones).
    public func provision(activationCode: String) async -> ProvisioningResult { await manager.provision(activationCode: activationCode) }
}
