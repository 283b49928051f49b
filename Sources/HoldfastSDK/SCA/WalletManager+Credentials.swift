import Foundation
import HoldfastProtocol
import JOSE

/// The customer's credentials and the proofs they approve (README "SCA wallet (device)": the PIN, signing).
extension WalletManager {
    // MARK: credentials

    /// Checks the customer's current credentials; a wrong PIN counts as an attempt (`WRONG_CREDENTIALS`, or
    /// `WALLET_LOCKED` at the last one).
    public func checkCredentials(_ current: WalletCredentials) async throws(HoldfastError) {
        guard let wallet = try await load() else { throw Self.notProvisioned() }
        try Self.requireUsable(wallet)
        try await verify(current, reason: "Confirm it is you")
    }

    /// Replaces the credentials after checking the current ones (a wrong PIN counts as an attempt).
    public func changeCredentials(current: WalletCredentials, new: WalletCredentials) async throws(HoldfastError) {
        guard let wallet = try await load() else { throw Self.notProvisioned() }
        try Self.requireUsable(wallet)
        try await verify(current, reason: "Confirm it is you")
        try await setCredentials(new)
    }

    static func requireUsable(_ wallet: StoredWallet) throws(HoldfastError) {
        if wallet.state == .locked { throw HoldfastError(.lockedWallet, "the wallet is locked") }
        if wallet.needsNewCredentials { throw HoldfastError(.credentialsRequired, "the wallet's credentials are to be set: connect with new ones") }
    }

    func setCredentials(_ credentials: WalletCredentials) async throws(HoldfastError) {
        guard let wallet = try await load() else { throw Self.notProvisioned() }
        var vault: WalletPINVault?
        switch (wallet.accessProtection, credentials) {
        case (.pin, .pin(let pin)):
            guard WalletPINVault.isWellFormed(pin) else {
                throw HoldfastError(.validationFailed, "a PIN is \(WalletPINVault.pinLengths.lowerBound) to \(WalletPINVault.pinLengths.upperBound) digits")
            }
            let walletId = wallet.walletId
            vault = try await Self.offActor { () throws(HoldfastError) in try WalletPINVault.seal(pin: pin, walletId: walletId) }
        case (.biometric, .biometry):
            do { try await seams.userVerification.checkAvailability(of: .biometry) } catch {
                throw HoldfastError(.userVerificationFailed, "biometry cannot be used: \(error.code)")
            }
        default:
            throw HoldfastError(.validationFailed, "this wallet is protected by \(wallet.accessProtection): \(credentials) does not fit")
        }
        try await update { wallet in
            wallet.vault = vault
            wallet.credentialsSet = true
            wallet.pinAttemptsLeft = wallet.maxPinAttempts
        }
    }

    /// Verifies `credentials`. PIN checks run one at a time. A PIN's attempt is spent (and stored) before the PIN
    /// is tried, so that stopping the app mid-check gives no free attempt; a right PIN gives them all back. Outcomes
    /// are reported to the tenant (now, or at the next chance when offline); the last wrong PIN locks the wallet
    /// here and there. Every change is made on the latest stored wallet (`update`), never on a copy kept across a
    /// suspension.
    func verify(_ credentials: WalletCredentials, reason: String) async throws(HoldfastError) {
        guard let wallet = try await load() else { throw Self.notProvisioned() }
        switch (wallet.accessProtection, credentials) {
        case (.pin, .pin(let pin)):
            guard WalletPINVault.isWellFormed(pin) else {
                throw HoldfastError(.validationFailed, "a PIN is \(WalletPINVault.pinLengths.lowerBound) to \(WalletPINVault.pinLengths.upperBound) digits")
            }
            await pinChecks.acquire()
            defer { pinChecks.release() }
            guard let current = try await load() else { throw Self.notProvisioned() }
            guard current.state != .locked else { throw HoldfastError(.lockedWallet, "the wallet is locked") }
            guard let vault = current.vault else { throw HoldfastError(.credentialsRequired, "no PIN is set") }
            guard current.pinAttemptsLeft > 0 else { throw HoldfastError(.lockedWallet, "no PIN attempt is left") }
            let before = current.pinAttemptsLeft
            try await update { $0.pinAttemptsLeft -= 1 }
            let walletId = current.walletId
            if try await Self.offActor({ () throws(HoldfastError) in try vault.opens(with: pin, walletId: walletId) }) {
                try await update { wallet in
                    wallet.pinAttemptsLeft = wallet.maxPinAttempts
                    if before < wallet.maxPinAttempts { wallet.pendingReports.append(.success) }
                }
                await deliverReports()
                return
            }
            var locks = false
            let after = try await update { wallet in
                wallet.pendingReports.append(.failure)
                if wallet.pinAttemptsLeft <= 0, wallet.state != .locked {
                    wallet.state = .locked
                    wallet.lockReason = .pinAttempts
                    locks = true
                }
            }
            if locks { connection = 0 }
            emit(.countersUpdated(pinAttemptsLeft: after.pinAttemptsLeft))
            if locks { emit(.walletLocked(reason: .pinAttempts)) }
            await deliverReports()
            if after.state == .locked { throw HoldfastError(.lockedWallet, "wrong PIN: the wallet is locked until the back end unlocks it") }
            throw HoldfastError(.wrongCredentials, "wrong PIN: \(after.pinAttemptsLeft) attempt(s) left")
        case (.biometric, .biometry):
            do { try await seams.userVerification.verify(.biometry, reason: reason) } catch {
                throw HoldfastError(.userVerificationFailed, "the user was not verified: \(error.code)")
            }
        default:
            throw HoldfastError(.validationFailed, "this wallet is protected by \(wallet.accessProtection): \(credentials) does not fit")
        }
    }

    /// Sends the PIN attempt outcomes not yet delivered, oldest first; stops at the first that cannot be sent (kept
    /// for next time). A wallet the tenant no longer has active takes none (its feed says why). One delivery runs
    /// at a time, and each outcome leaves the list only once the tenant has it.
    func deliverReports() async {
        guard !deliveringReports else { return }
        deliveringReports = true
        defer { deliveringReports = false }
        guard let wallet = try? await load(), let signer = try? await signer(for: wallet) else { return }
        while let outcome = (try? await load())?.pendingReports.first {
            do {
                let result = try await client.call("POST", SCARoutes.Template.pinAttempts, ["walletId": wallet.walletId],
                                                   body: SCAPinAttemptReport(outcome: outcome),
                                                   proof: TenantClient.Proof(signer: signer, accessToken: nil), as: SCAPinAttemptResult.self)
                var locks = false
                _ = try? await update { wallet in
                    if !wallet.pendingReports.isEmpty { wallet.pendingReports.removeFirst() }
                    if result.state == .locked, wallet.state != .locked {
                        wallet.state = .locked
                        wallet.lockReason = .pinAttempts
                        locks = true
                    }
                }
                if locks {
                    connection = 0
                    emit(.walletLocked(reason: .pinAttempts))
                }
            } catch {
                if error.httpStatus == 409 { _ = try? await update { $0.pendingReports.removeAll() } }
                return
            }
        }
    }

    // MARK: signing

    func sign(_ signature: CustomerAuthenticatedSignature, credentials: WalletCredentials?, handle: Wallet) async throws(HoldfastError) -> SCAProof {
        try await Tethering.requireWithinOfflineLimit(seams: seams, platformConfiguration: configuration.platform)
        guard handle.connection != 0, handle.connection == connection else {
            throw HoldfastError(.walletDisconnected, "this Wallet handle's connection has ended: connect again")
        }
        guard let wallet = try await load(), wallet.walletId == handle.id else { throw HoldfastError(.deletedWallet, "the wallet is gone") }
        if wallet.state == .locked { throw HoldfastError(.lockedWallet, "the wallet is locked") }
        if wallet.state == .logout { throw HoldfastError(.credentialsRequired, "logged out: connect with the current credentials") }
        switch signature.patternName {
        case .none:
            break
        case .pin:
            guard wallet.accessProtection == .pin else { throw HoldfastError(.patternUnavailable, "this wallet has no PIN") }
            guard !wallet.needsNewCredentials else { throw HoldfastError(.credentialsRequired, "no PIN is set") }
            guard case .pin = credentials, let credentials else { throw HoldfastError(.credentialsRequired, "the pin pattern needs the PIN") }
            try await verify(credentials, reason: signature.message)
        case .biometry:
            guard wallet.accessProtection == .biometric else { throw HoldfastError(.patternUnavailable, "this wallet is not protected by biometry") }
            try await verify(.biometry, reason: signature.message)
        }
        // The wallet may have been locked, reset or deleted while the customer was asked.
        guard handle.connection == connection, let wallet = try await load(), wallet.state == .ready else {
            throw HoldfastError(.walletDisconnected, "the wallet changed while signing: connect again")
        }
        let claims = SCAProofClaims(method: signature.payload.method, url: signature.payload.url, body: signature.payload.body, message: signature.message,
                                    pattern: signature.patternName, signatureInputData: signature.signatureInputData,
                                    walletId: wallet.walletId, iat: Int64(await client.serverNow().timeIntervalSince1970),
                                    jti: UUID().uuidString.lowercased())
        do {
            let jws = try await JWS.sign(payload: try JSONEncoder().encode(claims), header: claims.header, signer: try await signer(for: wallet))
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
