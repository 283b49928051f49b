import Crypto
import Foundation
import HoldfastProtocol
import JOSE

/// What ties the SCA wallet to its tenant: the tenant and holder application (as for tethering) and the app's own
/// version, which the tenant's eligibility rules read.
public struct WalletConfiguration: Sendable, Hashable {
    public var platform: PlatformConfiguration
    public var appVersion: String

    public init(platform: PlatformConfiguration, appVersion: String) {
        self.platform = platform
        self.appVersion = appVersion
    }
}

/// The SCA wallet on the device (README "SCA wallet"; DESIGN.md §1 W): a wallet key in the secure area, registered
/// with the tenant once with a one-time activation code and the platform's attestation, protected by the customer's
/// PIN, biometrics or nothing (the wallet's settings), signing proofs of the operations the customer approves.
///
/// Use it with delegates (`setDelegate`, `setProvisioningDelegate`, `setEventListener`) or with async/await and the
/// `events` stream; every outcome is also an event, and nothing assumes that calls end in the order they were made.
/// `connect` hands out a `Wallet` valid until `disconnect()`, `logout()`, `clean()`, a lock, a reset or a deletion;
/// a stale handle's calls fail with `WALLET_DISCONNECTED`. The wallet's state is read from the device's store, never
/// the network; the tenant's feed (`synchronize()`, also run by `connect`) brings the back end's changes.
public actor WalletManager {
    let seams: PlatformSeams
    let configuration: WalletConfiguration
    let client: TenantClient
    let store: WalletStore
    private let hub = WalletEventHub()
    private var cached: StoredWallet?
    /// The live connection's number; 0 when not connected.
    private var connection: UInt64 = 0
    private var connections: UInt64 = 0
    private var policyCache: [SCAPolicy]?
    private let pinChecks = AsyncGate()
    private var deliveringReports = false
    private var feedTask: Task<Void, Never>?
    private weak var delegate: (any WalletManagerDelegate)?
    private weak var provisioningDelegate: (any WalletProvisioningDelegate)?
    private weak var eventListener: (any WalletEventListener)?

    public init(seams: PlatformSeams, configuration: WalletConfiguration) throws(HoldfastError) {
        guard let baseURL = configuration.platform.baseURL else {
            throw HoldfastError(.validationFailed, "tenantHost \(configuration.platform.tenantHost) is not a host or an http(s) URL")
        }
        guard !configuration.platform.applicationId.isEmpty, configuration.platform.applicationId.utf8.count <= 256 else {
            throw HoldfastError(.validationFailed, "applicationId must be 1 to 256 bytes")
        }
        var headers: [String: String] = [:]
        #if DEBUG
        if configuration.platform.developmentIntegrityBypass { headers[HoldfastHeaders.devMode] = HoldfastHeaders.devModeEnabled }
        #endif
        self.seams = seams
        self.configuration = configuration
        self.client = TenantClient(baseURL: baseURL, transport: seams.transport, clock: seams.clock, extraHeaders: headers)
        self.store = WalletStore(storage: seams.secureStorage, applicationId: configuration.platform.applicationId)
    }

    // MARK: listening

    /// Every event from now on, until the stream's consumer stops.
    public nonisolated var events: AsyncStream<WalletEvent> { hub.stream() }

    public func setDelegate(_ delegate: (any WalletManagerDelegate)?) { self.delegate = delegate }
    public func setProvisioningDelegate(_ delegate: (any WalletProvisioningDelegate)?) { provisioningDelegate = delegate }
    public func setEventListener(_ listener: (any WalletEventListener)?) { eventListener = listener }

    /// Eligibility and provisioning.
    public nonisolated var provisioning: WalletProvisioning { WalletProvisioning(manager: self) }

    // MARK: state, offline

    /// The wallet's state on this device (no network).
    public func state() async throws(HoldfastError) -> WalletState {
        try await load()?.state ?? .notProvisioned
    }

    /// The provisioned wallet's id, `nil` when there is none (no network).
    public func walletId() async throws(HoldfastError) -> String? { try await load()?.walletId }

    /// PIN attempts left before the wallet locks, as this device counts them (no network).
    public func pinAttemptsLeft() async throws(HoldfastError) -> Int? { try await load()?.pinAttemptsLeft }

    /// Everything the device knows of its wallet (no network).
    public func status() async throws(HoldfastError) -> WalletStatus {
        guard let wallet = try await load() else { return WalletStatus(state: .notProvisioned) }
        return WalletStatus(state: wallet.state, walletId: wallet.walletId, userId: wallet.userId, accessProtection: wallet.accessProtection,
                            credentialsSet: wallet.credentialsSet, pinAttemptsLeft: wallet.pinAttemptsLeft,
                            maxPinAttempts: wallet.maxPinAttempts, lockReason: wallet.lockReason,
                            pendingPinReports: wallet.pendingReports.count, lastEventId: wallet.lastEventId)
    }

    // MARK: connection

    /// Connects to the wallet: ends in exactly one of `connectionSuccess`, `provisioningRequired`,
    /// `credentialsRequired(.new | .current)` or `connectionError`, returned, sent to the delegate and emitted.
    /// `newCredentials` are set when the wallet needs new ones (after provisioning or a reset); `currentCredentials`
    /// are checked when it needs the current ones (after a logout) — a wrong PIN counts as an attempt. The tenant's
    /// feed is read first when the tenant can be reached; offline, the device's own state decides.
    public func connect(currentCredentials: WalletCredentials? = nil, newCredentials: WalletCredentials? = nil) async -> WalletConnectionResult {
        let result = await connectOutcome(current: currentCredentials, new: newCredentials)
        switch result {
        case .connectionSuccess(let wallet):
            emit(.connectionSuccess(walletId: wallet.id))
            delegate?.onConnectionSuccess(wallet)
        case .provisioningRequired:
            emit(.provisioningRequired)
            delegate?.onProvisioningRequired()
        case .credentialsRequired(let kind):
            emit(.credentialsRequired(kind))
            delegate?.onCredentialsRequired(kind)
        case .connectionError(let error):
            emit(.connectionError(error))
            delegate?.onConnectionError(error)
        }
        return result
    }

    private func connectOutcome(current: WalletCredentials?, new: WalletCredentials?) async -> WalletConnectionResult {
        connection = 0
        do {
            guard try await load() != nil else { return .provisioningRequired }
            _ = try? await synchronize()
            guard let wallet = try await load() else { return .provisioningRequired }
            if wallet.state == .locked {
                return .connectionError(HoldfastError(.lockedWallet, "the wallet is locked (\(wallet.lockReason ?? "by the back end"))"))
            }
            if wallet.needsNewCredentials {
                guard let new else { return .credentialsRequired(.new) }
                try await setCredentials(new)
                try await update { if $0.state == .logout { $0.state = .ready } }
            } else if wallet.state == .logout {
                if wallet.accessProtection != "none" {
                    guard let current else { return .credentialsRequired(.current) }
                    try await verify(current, reason: "Log in to your wallet")
                }
                try await update { if $0.state == .logout { $0.state = .ready } }
            }
            guard let wallet = try await load() else { return .provisioningRequired }
            guard wallet.state == .ready else {
                return .connectionError(HoldfastError(.lockedWallet, "the wallet was locked meanwhile"))
            }
            connections += 1
            connection = connections
            return .connectionSuccess(Wallet(id: wallet.walletId, userId: wallet.userId, connection: connection, manager: self))
        } catch {
            return .connectionError(error)
        }
    }

    /// Ends the connection: the `Wallet` handle it gave stops working.
    public func disconnect() { connection = 0 }

    /// Logs the customer out: the connection ends, and the next `connect` asks for the current credentials.
    public func logout() async throws(HoldfastError) {
        connection = 0
        guard try await load() != nil else { throw Self.notProvisioned() }
        var changed = false
        try await update { wallet in
            guard wallet.state == .ready else { return }
            wallet.state = .logout
            changed = true
        }
        if changed { emit(.logout) }
    }

    /// Releases everything held in memory (the connection, the cached state and policies); nothing stored changes.
    public func clean() {
        feedTask?.cancel()
        feedTask = nil
        connection = 0
        cached = nil
        policyCache = nil
    }

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

    private static func requireUsable(_ wallet: StoredWallet) throws(HoldfastError) {
        if wallet.state == .locked { throw HoldfastError(.lockedWallet, "the wallet is locked") }
        if wallet.needsNewCredentials { throw HoldfastError(.credentialsRequired, "the wallet's credentials are to be set: connect with new ones") }
    }

    private func setCredentials(_ credentials: WalletCredentials) async throws(HoldfastError) {
        guard let wallet = try await load() else { throw Self.notProvisioned() }
        var vault: WalletPINVault?
        switch (wallet.accessProtection, credentials) {
        case ("pin", .pin(let pin)):
            guard WalletPINVault.isWellFormed(pin) else {
                throw HoldfastError(.validationFailed, "a PIN is \(WalletPINVault.pinLengths.lowerBound) to \(WalletPINVault.pinLengths.upperBound) digits")
            }
            let walletId = wallet.walletId
            vault = try await Self.offActor { () throws(HoldfastError) in try WalletPINVault.seal(pin: pin, walletId: walletId) }
        case ("biometric", .biometry):
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
    private func verify(_ credentials: WalletCredentials, reason: String) async throws(HoldfastError) {
        guard let wallet = try await load() else { throw Self.notProvisioned() }
        switch (wallet.accessProtection, credentials) {
        case ("pin", .pin(let pin)):
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
                    if before < wallet.maxPinAttempts { wallet.pendingReports.append("success") }
                }
                await deliverReports()
                return
            }
            var locks = false
            let after = try await update { wallet in
                wallet.pendingReports.append("failure")
                if wallet.pinAttemptsLeft <= 0, wallet.state != .locked {
                    wallet.state = .locked
                    wallet.lockReason = "PIN_ATTEMPTS"
                    locks = true
                }
            }
            if locks { connection = 0 }
            emit(.countersUpdated(pinAttemptsLeft: after.pinAttemptsLeft))
            if locks { emit(.walletLocked(reason: "PIN_ATTEMPTS")) }
            await deliverReports()
            if after.state == .locked { throw HoldfastError(.lockedWallet, "wrong PIN: the wallet is locked until the back end unlocks it") }
            throw HoldfastError(.wrongCredentials, "wrong PIN: \(after.pinAttemptsLeft) attempt(s) left")
        case ("biometric", .biometry):
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
    private func deliverReports() async {
        guard !deliveringReports else { return }
        deliveringReports = true
        defer { deliveringReports = false }
        guard let wallet = try? await load(), let signer = try? await signer(for: wallet) else { return }
        while let outcome = (try? await load())?.pendingReports.first {
            do {
                let result = try await client.call("POST", path: "/v1/sca/wallets/\(wallet.walletId)/pin-attempts",
                                                   body: SCAPinAttemptReport(outcome: outcome),
                                                   proof: TenantClient.Proof(signer: signer, accessToken: nil), as: SCAPinAttemptResult.self)
                var locks = false
                _ = try? await update { wallet in
                    if !wallet.pendingReports.isEmpty { wallet.pendingReports.removeFirst() }
                    if result.state == "locked", wallet.state != .locked {
                        wallet.state = .locked
                        wallet.lockReason = "PIN_ATTEMPTS"
                        locks = true
                    }
                }
                if locks {
                    connection = 0
                    emit(.walletLocked(reason: "PIN_ATTEMPTS"))
                }
            } catch {
                if error.httpStatus == 409 { _ = try? await update { $0.pendingReports.removeAll() } }
                return
            }
        }
    }

    // MARK: signing

    func sign(_ signature: CustomerAuthenticatedSignature, credentials: WalletCredentials?, handle: Wallet) async throws(HoldfastError) -> SCAProof {
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
            guard wallet.accessProtection == "pin" else { throw HoldfastError(.patternUnavailable, "this wallet has no PIN") }
            guard !wallet.needsNewCredentials else { throw HoldfastError(.credentialsRequired, "no PIN is set") }
            guard case .pin = credentials, let credentials else { throw HoldfastError(.credentialsRequired, "the pin pattern needs the PIN") }
            try await verify(credentials, reason: signature.message)
        case .biometry:
            guard wallet.accessProtection == "biometric" else { throw HoldfastError(.patternUnavailable, "this wallet is not protected by biometry") }
            try await verify(.biometry, reason: signature.message)
        }
        // The wallet may have been locked, reset or deleted while the customer was asked.
        guard handle.connection == connection, let wallet = try await load(), wallet.state == .ready else {
            throw HoldfastError(.walletDisconnected, "the wallet changed while signing: connect again")
        }
        let claims = SCAProofClaims(url: signature.payload.url, body: signature.payload.body, message: signature.message,
                                    pattern: signature.patternName, signatureInputData: signature.signatureInputData,
                                    walletId: wallet.walletId, iat: Int64(await client.serverNow().timeIntervalSince1970),
                                    jti: UUID().uuidString.lowercased())
        var header = JOSEHeader()
        header.typ = SCAProofClaims.type
        header.kid = wallet.walletId
        do {
            let jws = try await JWS.sign(payload: try JSONEncoder().encode(claims), header: header, signer: try await signer(for: wallet))
            return SCAProof(jws: jws.compactSerialization, claims: claims)
        } catch {
            throw HoldfastError.wrap(error)
        }
    }

    /// The operation signing policies the tenant serves (`GET /v1/sca/policies`), fetched once per connection.
    public func policies(refresh: Bool = false) async throws(HoldfastError) -> [SCAPolicy] {
        if !refresh, let policyCache { return policyCache }
        let policies = try await client.call("GET", path: "/v1/sca/policies", as: [SCAPolicy].self)
        policyCache = policies
        return policies
    }

    /// The `{url, body}` a proof of `method` `url` with `body` signs under the tenant's policy for it (every field
    /// when no policy covers it).
    public func payload(method: String, url: String, body: JSONValue?) async throws(HoldfastError) -> SCAPayload {
        guard let parsed = URL(string: url) else { throw HoldfastError(.validationFailed, "not a URL: \(url)") }
        let policy = SCAPolicy.matching(try await policies(), method: method, url: parsed)
        do { return try SCAPayload(method: method, url: url, body: body, policy: policy) } catch {
            throw HoldfastError(.validationFailed, "cannot sign this request: \(error)")
        }
    }

    // MARK: the tenant's feed

    /// Reads the wallet's events from the tenant's feed (`GET /v1/sca/wallets/{id}/events`, from the last one
    /// applied), applies them here and emits them; returns what was emitted.
    @discardableResult
    public func synchronize() async throws(HoldfastError) -> [WalletEvent] {
        guard let wallet = try await load() else { throw Self.notProvisioned() }
        await deliverReports()
        let signer = try await signer(for: wallet)
        guard let url = URL(string: client.baseURL.absoluteString + "/v1/sca/wallets/\(wallet.walletId)/events?wait=0") else {
            throw HoldfastError(.validationFailed, "cannot form the feed's URL")
        }
        let after = (try await load())?.lastEventId ?? wallet.lastEventId
        let request = TransportRequest(method: "GET", url: url, headers: [HoldfastHeaders.lastEventID: String(after)])
        let response = try await client.send(request, proof: TenantClient.Proof(signer: signer, accessToken: nil))
        guard response.status == 200 else { throw TenantClient.error(from: response) }
        var emitted: [WalletEvent] = []
        for event in ServerSentEvents.parse(response.body) {
            // Applied to the latest stored wallet: another call may have changed it while the feed was read.
            guard var current = try await load(), current.walletId == wallet.walletId else { break }
            guard let id = Int64(event.id ?? ""), id > current.lastEventId else { continue }
            current.lastEventId = id
            let (updated, events) = apply(event, to: current)
            guard let updated else {
                try await forget(current)
                events.forEach(emit)
                emitted += events
                return emitted
            }
            try await save(updated)
            events.forEach(emit)
            emitted += events
        }
        return emitted
    }

    /// Reads the tenant's feed every `seconds` (`synchronize()`) until `stopEventFeed()`, `clean()` or the wallet's
    /// deletion, so that events reach the delegates and streams while the app is in the foreground. A read that
    /// fails (offline) is tried again at the next tick. Calling it again restarts it with the new period.
    public func startEventFeed(every seconds: Double = 30) {
        feedTask?.cancel()
        let period = max(1, seconds)
        let sleeper = seams.sleeper
        feedTask = Task { [weak self] in
            while !Task.isCancelled {
                guard let self else { return }
                _ = try? await self.synchronize()
                if Task.isCancelled { return }
                if (try? await self.state()) == .notProvisioned { return }
                do { try await sleeper.sleep(seconds: period) } catch { return }
            }
        }
    }

    /// Stops the periodic reading of the feed; returns once a read in flight has ended, so that no event arrives
    /// from the feed afterwards.
    public func stopEventFeed() async {
        let task = feedTask
        feedTask = nil
        task?.cancel()
        await task?.value
    }

    /// One event of the feed applied to the stored wallet: the wallet after it (nil: deleted) and what to emit.
    /// An event saying what the device already knows (a lock it made itself, the count of its own wrong PINs) changes
    /// and emits nothing.
    private func apply(_ event: ServerSentEvents.Event, to wallet: StoredWallet) -> (StoredWallet?, [WalletEvent]) {
        var wallet = wallet
        let data = (try? JSONValue(json: Array(event.data.utf8)))?.objectValue ?? [:]
        switch event.type {
        case "loaded":
            return (wallet, [.walletLoaded])
        case "locked":
            let reason = data["reason"]?.stringValue ?? "OTHER"
            guard wallet.state != .locked || wallet.lockReason != reason else { return (wallet, []) }
            wallet.state = .locked
            wallet.lockReason = reason
            connection = 0
            return (wallet, [.walletLocked(reason: reason)])
        case "unlocked":
            guard wallet.state == .locked else { return (wallet, []) }
            wallet.state = .ready
            wallet.lockReason = nil
            wallet.pinAttemptsLeft = wallet.maxPinAttempts
            return (wallet, [.walletUnlocked])
        case "credentialsReset":
            wallet.vault = nil
            wallet.credentialsSet = wallet.accessProtection == "none"
            wallet.pinAttemptsLeft = wallet.maxPinAttempts
            connection = 0
            return (wallet, [.customerCredentialsReset])
        case "countersUpdated":
            // Only a count lower than the device's own is news: the tenant's echo of failures this device reported
            // is not, and a device state restored from an old copy learns the attempts it already spent.
            guard case .integer(let left)? = data["pinAttemptsLeft"], Int(left) < wallet.pinAttemptsLeft else { return (wallet, []) }
            wallet.pinAttemptsLeft = Int(left)
            return (wallet, [.countersUpdated(pinAttemptsLeft: Int(left))])
        case "deleted":
            connection = 0
            return (nil, [.walletDeleted])
        case "deviceEligibilityLost":
            return (wallet, [.deviceEligibilityLost(reason: data["reason"]?.stringValue ?? "")])
        case "appSunsetScheduled":
            guard let version = data["minimumVersion"]?.stringValue, let date = data["sunsetAt"]?.stringValue.flatMap(HoldfastJSON.parseDate) else {
                return (wallet, [])
            }
            return (wallet, [.appSunsetScheduled(minimumVersion: version, sunsetAt: date)])
        case "settingsUpdated":
            // A new protection needs new credentials (asked at the next connect); fewer attempts cap those left.
            if let protection = data["accessProtection"]?.stringValue, protection != wallet.accessProtection {
                wallet.accessProtection = protection
                wallet.vault = nil
                wallet.credentialsSet = protection == "none"
                connection = 0
            }
            if case .integer(let maximum)? = data["maxPinAttempts"], maximum > 0 {
                wallet.maxPinAttempts = Int(maximum)
                wallet.pinAttemptsLeft = min(wallet.pinAttemptsLeft, Int(maximum))
            }
            return (wallet, [.settingsUpdated])
        case "productsUpdated":
            return (wallet, [.productsUpdated])
        default:
            // An event a newer tenant knows and this SDK does not: skipped, its id still counted as read.
            return (wallet, [])
        }
    }

    // MARK: eligibility and provisioning

    func checkEligibility() async -> EligibilityResult {
        let result: EligibilityResult
        do {
            let signals = await seams.deviceIntegrity.signals()
            let request = SCAEligibilityCheckRequest(
                applicationId: configuration.platform.applicationId,
                device: .init(model: seams.deviceInfo.deviceModel, appVersion: configuration.appVersion),
                integrity: .init(compromised: !signals.isEmpty, signals: signals.isEmpty ? nil : signals))
            let answer = try await client.call("POST", path: "/v1/sca/eligibility/checks", body: request, as: SCAEligibilityCheckResponse.self)
            if answer.eligible {
                var features: Set<WalletFeature> = [.pin]
                if (try? await seams.userVerification.checkAvailability(of: .biometry)) != nil { features.insert(.biometry) }
                if !(seams.platformAttestation is UnavailablePlatformAttestation) { features.insert(.platformAttestation) }
                if let sunset = answer.appSunset, let date = sunset.sunsetAt {
                    emit(.appSunsetScheduled(minimumVersion: sunset.version, sunsetAt: date))
                }
                result = .deviceEligible(features)
            } else {
                result = .deviceNotEligible(reason: answer.reason ?? "", denialReference: answer.denialReference ?? "")
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

    /// Activation (README "SCA wallet"): a challenge of the holder application, a new key in the secure area with
    /// its binding nonce and the platform's attestation (or an assertion where allowed), then the one-time code.
    /// Nothing is stored until the tenant said `201`; a key made by a failed attempt is deleted.
    private func performProvisioning(activationCode: String) async throws(HoldfastError) -> String {
        guard try await load() == nil else { throw HoldfastError(.walletAlreadyProvisioned, "a wallet is provisioned on this device already") }
        let code = activationCode.trimmingCharacters(in: .whitespaces)
        guard !code.isEmpty, code.utf8.count <= 64 else { throw HoldfastError(.validationFailed, "the activation code is empty or too long") }
        let platform = configuration.platform
        let alias = store.keyAlias
        do {
            let challenge = try await client.call("POST", path: TetheringRoutes.challenges(applicationId: platform.applicationId),
                                                  as: ChallengeResponse.self)
            let evidence = try await KeyEvidence.make(alias: alias, challenge: challenge.challenge, seams: seams,
                                                      allowsAssertionFallback: platform.allowsAssertionFallback,
                                                      forceAssertion: Tethering.developmentBypass(platform))
            let wire = evidence.attestation?.wire
            let request = SCAActivationRequest(activationCode: code, challenge: challenge.challenge, publicKey: evidence.publicKey.encoded,
                                               attestation: wire?.attestation, assertion: evidence.assertion, keyId: wire?.keyId,
                                               device: .init(model: seams.deviceInfo.deviceModel, appVersion: configuration.appVersion))
            let activated = try await client.call("POST", path: "/v1/sca/activations", body: request, as: SCAActivationResponse.self)
            let wallet = StoredWallet(
                walletId: activated.walletId, userId: activated.userId, applicationId: platform.applicationId,
                accessProtection: activated.accessProtection, maxPinAttempts: activated.maxPinAttempts,
                pinAttemptsLeft: activated.maxPinAttempts, keyAlias: alias, state: .ready, lockReason: nil, vault: nil,
                credentialsSet: activated.accessProtection == "none", lastEventId: 0, pendingReports: [],
                clockOffsetMs: await client.clockOffsetMilliseconds)
            try await save(wallet)
            return activated.walletId
        } catch {
            try? await seams.secureArea.deleteKey(alias: alias)
            throw error
        }
    }

    // MARK: plumbing

    private func load() async throws(HoldfastError) -> StoredWallet? {
        if let cached { return cached }
        let wallet = try await store.load()
        if let wallet { await client.setClockOffset(milliseconds: wallet.clockOffsetMs) }
        cached = wallet
        return wallet
    }

    /// Stores `wallet`. The cache takes it first, so that every call after this one reads it, even while the store
    /// is being written.
    private func save(_ wallet: StoredWallet) async throws(HoldfastError) {
        var wallet = wallet
        wallet.clockOffsetMs = await client.clockOffsetMilliseconds
        cached = wallet
        try await store.save(wallet)
    }

    /// Changes the latest stored wallet (read and changed with no suspension in between) and stores it.
    @discardableResult
    private func update(_ change: (inout StoredWallet) -> Void) async throws(HoldfastError) -> StoredWallet {
        guard var wallet = try await load() else { throw Self.notProvisioned() }
        change(&wallet)
        try await save(wallet)
        return wallet
    }

    /// CPU-bound work (scrypt) off the actor, so that reading the state stays quick meanwhile.
    private static func offActor<T: Sendable>(_ work: @escaping @Sendable () throws(HoldfastError) -> T) async throws(HoldfastError) -> T {
        let result = await Task.detached { () -> Result<T, HoldfastError> in
            Result { () throws(HoldfastError) -> T in try work() }
        }.value
        return try result.get()
    }

    /// The wallet is gone (deleted by the back end): its key and state are removed from the device.
    private func forget(_ wallet: StoredWallet) async throws(HoldfastError) {
        connection = 0
        try? await seams.secureArea.deleteKey(alias: wallet.keyAlias)
        try await store.delete()
        cached = nil
    }

    private func signer(for wallet: StoredWallet) async throws(HoldfastError) -> SecureAreaSigner {
        let key: P256.Signing.PublicKey?
        do { key = try await seams.secureArea.publicKey(alias: wallet.keyAlias) } catch { throw HoldfastError.secureArea(error) }
        guard let key else { throw HoldfastError.secureArea(.keyNotFound(wallet.keyAlias)) }
        return SecureAreaSigner(secureArea: seams.secureArea, alias: wallet.keyAlias, publicKey: key)
    }

    private func emit(_ event: WalletEvent) {
        hub.yield(event)
        eventListener?.onWalletEvent(event)
    }

    private static func notProvisioned() -> HoldfastError {
        HoldfastError(.walletNotProvisioned, "no SCA wallet is provisioned on this device")
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
