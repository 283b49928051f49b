import Foundation
import HoldfastProtocol
import JOSE

/// The customer's credentials and the proofs they approve (docs/sdk.md "SCA wallet (device)": the PIN, signing).
extension WalletManager {
    // MARK: credentials

    /// Checks the customer's current credentials; a PIN is checked by the tenant, which counts a wrong one
    /// (`WRONG_CREDENTIALS`, or `WALLET_LOCKED` at the last one); offline, no PIN can be checked (`NETWORK_ERROR`).
    public func checkCredentials(_ current: WalletCredentials) async throws(HoldfastError) {
        guard let wallet = try await load() else { throw Self.notProvisioned() }
        try Self.requireUsable(wallet)
        _ = try await verify(current, reason: "Confirm it is you")
    }

    /// Replaces the credentials; the current PIN goes with the new one to the tenant, which checks it (a wrong one
    /// counts as an attempt) before it takes the new one.
    public func changeCredentials(current: WalletCredentials, new: WalletCredentials) async throws(HoldfastError) {
        // Both checked before the current one is: a malformed new PIN must not cost an attempt.
        try current.validate()
        try new.validate()
        guard let wallet = try await load() else { throw Self.notProvisioned() }
        try Self.requireUsable(wallet)
        if wallet.pin == nil { _ = try await verify(current, reason: "Confirm it is you") }
        try await setCredentials(new, current: wallet.pin == nil ? nil : current)
    }

    static func requireUsable(_ wallet: StoredWallet) throws(HoldfastError) {
        if wallet.state == .locked { throw HoldfastError(.lockedWallet, "the wallet is locked") }
        if wallet.needsNewCredentials { throw HoldfastError(.credentialsRequired, "the wallet's credentials are to be set: connect with new ones") }
    }

    static func wellFormed(_ pin: String) throws(HoldfastError) {
        guard WalletPINSecret.isWellFormed(pin) else {
            throw HoldfastError(.validationFailed, "a PIN is \(WalletPINSecret.pinLengths.lowerBound) to \(WalletPINSecret.pinLengths.upperBound) digits")
        }
    }

    /// Sets the customer's credentials (docs/DESIGN.md "The SCA wallet's PIN"): for a wallet that allows the PIN, a
    /// new salt, the PIN's secrets, a random key share and a PIN key sealed under the unlock key they make; for one
    /// that allows biometry, a biometry key (`pinOrBiometric`: when the platform has biometry). The tenant enrols the
    /// PIN secret, the share and the public keys (`PUT …/credentials`, with `current`'s secret when a PIN is set);
    /// the device keeps the salt and the keys, and forgets the share and the secrets.
    func setCredentials(_ credentials: WalletCredentials, current: WalletCredentials? = nil) async throws(HoldfastError) {
        // Every input checked before a key is made or anything is sent.
        try credentials.validate()
        try current?.validate()
        guard let wallet = try await load() else { throw Self.notProvisioned() }
        let protection = wallet.accessProtection
        var enrolment = SCACredentialsEnrolment()
        var pin: StoredPIN?
        var biometryKey: UserVerifiedKey?
        switch (protection.known, credentials) {
        case (.pin?, .pin(let chosen)), (.pinOrBiometric?, .pin(let chosen)):
            try Self.wellFormed(chosen)
            let derivation = WalletPINSecret.make()
            let derived = try await Self.offActor { () throws(HoldfastError) in try derivation.derive(chosen) }
            let share = WalletPINSecret.random(count: 32)
            let key = try await keys.makePINKey(unlockKey: WalletPINSecret.unlockKey(sealing: derived.sealing, share: share, walletId: wallet.walletId))
            pin = StoredPIN(derivation: derivation, key: key)
            enrolment.pinSecret = Base64URL.encode(derived.secret)
            enrolment.keyShare = Base64URL.encode(share)
            enrolment.pinKey = key.publicKey
            if protection.known == .pinOrBiometric, (try? await seams.userVerification.checkAvailability(of: .biometry)) != nil {
                biometryKey = try await keys.makeBiometryKey()
            }
        case (.biometric?, .biometry):
            do { try await seams.userVerification.checkAvailability(of: .biometry) } catch {
                throw HoldfastError(.userVerificationFailed, "biometry cannot be used: \(error.code)")
            }
            biometryKey = try await keys.makeBiometryKey()
        default:
            throw HoldfastError(.validationFailed, "this wallet is protected by \(protection): \(credentials) does not fit")
        }
        enrolment.biometryKey = biometryKey?.publicKey
        if let stored = wallet.pin {
            guard case .pin(let currentPIN)? = current else { throw HoldfastError(.credentialsRequired, "the current PIN is needed to set a new one") }
            try Self.wellFormed(currentPIN)
            let derivation = stored.derivation
            enrolment.currentPinSecret = Base64URL.encode(try await Self.offActor { () throws(HoldfastError) in try derivation.derive(currentPIN) }.secret)
        }
        let result = try await tenantPinCall("PUT", SCARoutes.Template.credentials, body: enrolment, wallet: wallet)
        try await absorb(result)
        try await update { wallet in
            wallet.pin = pin
            wallet.biometryKey = biometryKey
            wallet.credentialsSet = true
            wallet.pinAttemptsLeft = wallet.maxPinAttempts
        }
    }

    /// Verifies `credentials` and returns what unlocks the key of their factor. A PIN's secret goes to the tenant
    /// (`POST …/pin-attempts`), which alone can tell a right one, counts wrong ones and, for a right one, releases its
    /// key share; PIN checks run one at a time. Offline, nothing is checked and nothing counted (`NETWORK_ERROR`).
    /// Biometry is the platform's prompt (at the signature itself, for the biometry key).
    func verify(_ credentials: WalletCredentials, reason: String, prompt: Bool = true) async throws(HoldfastError) -> UserVerifiedKeyUnlock {
        guard let wallet = try await load() else { throw Self.notProvisioned() }
        switch credentials {
        case .pin(let entered) where wallet.accessProtection.allowsPIN:
            try Self.wellFormed(entered)
            await pinChecks.acquire()
            defer { pinChecks.release() }
            guard let current = try await load() else { throw Self.notProvisioned() }
            guard current.state != .locked else { throw HoldfastError(.lockedWallet, "the wallet is locked") }
            guard let stored = current.pin else { throw HoldfastError(.credentialsRequired, "no PIN is set") }
            let derivation = stored.derivation
            let derived = try await Self.offActor { () throws(HoldfastError) in try derivation.derive(entered) }
            let result = try await tenantPinCall("POST", SCARoutes.Template.pinAttempts,
                                                 body: SCAPinAttemptRequest(pinSecret: Base64URL.encode(derived.secret)), wallet: current)
            try await absorb(result)
            guard let text = result.keyShare, let share = Base64URL.decode(text) else {
                throw HoldfastError(.invalidResponse, "the tenant accepted the PIN without its key share")
            }
            return .pin(WalletPINSecret.unlockKey(sealing: derived.sealing, share: share, walletId: current.walletId))
        case .biometry where wallet.accessProtection.allowsBiometry:
            if prompt {
                do { try await seams.userVerification.verify(.biometry, reason: reason) } catch {
                    throw HoldfastError(.userVerificationFailed, "the user was not verified: \(error.code)")
                }
            }
            return .biometry(reason: reason)
        default:
            throw HoldfastError(.validationFailed, "this wallet is protected by \(wallet.accessProtection): \(credentials) does not fit")
        }
    }

    /// A PIN call to the tenant with the wallet key's DPoP proof. A wallet the tenant no longer has active is `409`:
    /// its feed is read, so that the device learns why.
    func tenantPinCall<Body: Encodable & Sendable>(_ method: String, _ template: RouteTemplate, body: Body,
                                                   wallet: StoredWallet) async throws(HoldfastError) -> SCAPinAttemptResult {
        let signer = try await signer(for: wallet)
        do {
            return try await client.call(method, template, ["walletId": wallet.walletId], body: body,
                                         proof: TenantClient.Proof(signer: signer, accessToken: nil), as: SCAPinAttemptResult.self)
        } catch {
            if error.httpStatus == 409 { _ = try? await synchronize() }
            throw error
        }
    }

    /// The tenant's verdict on a PIN, applied here: its count of attempts left, its lock; a wrong PIN throws
    /// `WRONG_CREDENTIALS` (attempts left) or `WALLET_LOCKED` (none).
    func absorb(_ result: SCAPinAttemptResult) async throws(HoldfastError) {
        var locks = false
        var changed = false
        let after = try await update { wallet in
            if wallet.pinAttemptsLeft != result.pinAttemptsLeft {
                wallet.pinAttemptsLeft = result.pinAttemptsLeft
                changed = true
            }
            if result.state == .locked, wallet.state != .locked {
                wallet.state = .locked
                wallet.lockReason = .pinAttempts
                locks = true
            }
        }
        if locks { connection = 0 }
        guard result.outcome != .success else { return }
        if changed { emit(.countersUpdated(pinAttemptsLeft: after.pinAttemptsLeft)) }
        if locks { emit(.walletLocked(reason: .pinAttempts)) }
        if after.state == .locked { throw HoldfastError(.lockedWallet, "wrong PIN: the wallet is locked until the back end unlocks it") }
        throw HoldfastError(.wrongCredentials, "wrong PIN: \(after.pinAttemptsLeft) attempt(s) left")
    }

    // MARK: signing

    /// Whether the device may sign now (docs/sdk.md "SCA wallet (device)"): not after it lost its eligibility, not past
    /// its version's sunset, and not when the `DeviceIntegrity` seam reports signals now (re-checked before each
    /// signature: the device then loses its eligibility, `deviceEligibilityLost(DEVICE_INTEGRITY)`).
    func requireEligible(_ wallet: StoredWallet) async throws(HoldfastError) {
        if let reason = wallet.ineligibility {
            throw HoldfastError(.deviceNotEligible, "this device is no longer eligible (\(reason.rawValue))")
        }
        if let sunset = wallet.sunset, let date = sunset.sunsetAt, await client.serverNow() >= date,
           AppVersion(configuration.appVersion) < AppVersion(sunset.version) {
            throw HoldfastError(.appSunsetPassed, "app version \(configuration.appVersion) is unsupported since \(HoldfastJSON.formatDate(date)): update to \(sunset.version)")
        }
        let signals = await seams.deviceIntegrity.signals()
        guard signals.isEmpty else {
            try await update { $0.ineligibility = .deviceIntegrity }
            connection = 0
            emit(.deviceEligibilityLost(reason: .deviceIntegrity))
            throw HoldfastError(.deviceNotEligible, "the device's integrity check failed (\(signals.joined(separator: ", ")))")
        }
    }

    func sign(_ signature: CustomerAuthenticatedSignature, credentials: WalletCredentials?, handle: Wallet) async throws(HoldfastError) -> SCAProof {
        try await Tethering.requireWithinOfflineLimit(seams: seams, platformConfiguration: configuration.platform)
        guard handle.connection != 0, handle.connection == connection else {
            throw HoldfastError(.walletDisconnected, "this Wallet handle's connection has ended: connect again")
        }
        guard let wallet = try await load(), wallet.walletId == handle.id else { throw HoldfastError(.deletedWallet, "the wallet is gone") }
        if wallet.state == .locked { throw HoldfastError(.lockedWallet, "the wallet is locked") }
        if wallet.state == .logout { throw HoldfastError(.credentialsRequired, "logged out: connect with the current credentials") }
        try await requireEligible(wallet)
        let signer: any JWSSigner
        switch signature.patternName {
        case .none:
            signer = try await self.signer(for: wallet)
        case .pin:
            guard wallet.accessProtection.allowsPIN else { throw HoldfastError(.patternUnavailable, "this wallet has no PIN") }
            guard !wallet.needsNewCredentials, let key = wallet.pin?.key else { throw HoldfastError(.credentialsRequired, "no PIN is set") }
            guard case .pin = credentials, let credentials else { throw HoldfastError(.credentialsRequired, "the pin pattern needs the PIN") }
            signer = try UserVerifiedKeySigner(keys: keys, key: key, unlock: try await verify(credentials, reason: signature.message))
        case .biometry:
            guard wallet.accessProtection.allowsBiometry else { throw HoldfastError(.patternUnavailable, "this wallet is not protected by biometry") }
            guard let key = wallet.biometryKey else {
                if wallet.needsNewCredentials { throw HoldfastError(.credentialsRequired, "the credentials are to be set") }
                throw HoldfastError(.patternUnavailable, "no biometry key: the platform had no biometry when the credentials were set")
            }
            signer = try UserVerifiedKeySigner(keys: keys, key: key, unlock: .biometry(reason: signature.message))
        }
        // The wallet may have been locked, reset or deleted while the customer was asked.
        guard handle.connection == connection, let current = try await load(), current.state == .ready else {
            throw HoldfastError(.walletDisconnected, "the wallet changed while signing: connect again")
        }
        // Spent before the signature, so that no two proofs of this device ever carry the same counter.
        let counter = try await update { $0.proofCounter = ($0.proofCounter ?? 0) + 1 }.proofCounter ?? 1
        let claims = SCAProofClaims(method: signature.payload.method, url: signature.payload.url, body: signature.payload.body, message: signature.message,
                                    pattern: signature.patternName, signatureInputData: signature.signatureInputData,
                                    walletId: current.walletId, iat: Int64(await client.serverNow().timeIntervalSince1970),
                                    jti: UUID().uuidString.lowercased(), counter: counter)
        do {
            let jws = try await JWS.sign(payload: try JSONEncoder().encode(claims), header: claims.header, signer: signer)
            return SCAProof(jws: jws.compactSerialization, claims: claims)
        } catch {
            throw HoldfastError.wrap(error)
        }
    }

    /// The operation signing policies the tenant serves (`GET /v1/sca/policies`), fetched once per connection.
    public func policies(refresh: Bool = false) async throws(HoldfastError) -> [SCAPolicy] {
        if !refresh, let policyCache { return policyCache }
        let policies = try await client.call("GET", SCARoutes.Template.policies, as: [SCAPolicy].self)
        policyCache = policies
        return policies
    }

    /// The `{method, url, body}` a proof of `method` `url` with `body` signs under the tenant's policy for it (every field
    /// when no policy covers it).
    public func payload(method: String, url: String, body: JSONValue?) async throws(HoldfastError) -> SCAPayload {
        guard let parsed = URL(string: url) else { throw HoldfastError(.validationFailed, "not a URL: \(url)") }
        let policy = SCAPolicy.matching(try await policies(), method: method, url: parsed)
        do { return try SCAPayload(method: method, url: url, body: body, policy: policy) } catch {
            throw HoldfastError(.validationFailed, "cannot sign this request: \(error)")
        }
    }
}
