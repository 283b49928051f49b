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

/// The SCA wallet on the device (docs/sdk.md "SCA wallet (device)"; DESIGN.md §1 W): a wallet key in the secure area, registered
/// with the tenant once with a one-time activation code and the platform's attestation, and the keys the customer's
/// PIN or biometrics unlock (docs/DESIGN.md "The SCA wallet's PIN"), signing proofs of the operations the customer
/// approves.
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
    let hub = WalletEventHub()
    var cached: StoredWallet?
    /// The live connection's number; 0 when not connected.
    var connection: UInt64 = 0
    var connections: UInt64 = 0
    var policyCache: [SCAPolicy]?
    let pinChecks = AsyncGate()
    /// The PIN and biometry keys' home (docs/DESIGN.md "The SCA wallet's PIN").
    let keys: any UserVerifiedKeys
    var feedTask: Task<Void, Never>?
    weak var delegate: (any WalletManagerDelegate)?
    weak var provisioningDelegate: (any WalletProvisioningDelegate)?
    weak var eventListener: (any WalletEventListener)?

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
        self.keys = Self.userVerifiedKeys(seams: seams)
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
                            maxPinAttempts: wallet.maxPinAttempts, lockReason: wallet.lockReason, lastEventId: wallet.lastEventId,
                            proofCounter: wallet.proofCounter, ineligibility: wallet.ineligibility, sunset: wallet.sunset)
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

    func connectOutcome(current: WalletCredentials?, new: WalletCredentials?) async -> WalletConnectionResult {
        connection = 0
        do {
            try current?.validate()
            try new?.validate()
            guard try await load() != nil else { return .provisioningRequired }
            _ = try? await synchronize()
            guard let wallet = try await load() else { return .provisioningRequired }
            if wallet.state == .locked {
                return .connectionError(HoldfastError(.lockedWallet, "the wallet is locked (\(wallet.lockReason?.rawValue ?? "by the back end"))"))
            }
            if wallet.needsNewCredentials {
                guard let new else { return .credentialsRequired(.new) }
                try await setCredentials(new)
                try await update { if $0.state == .logout { $0.state = .ready } }
            } else if wallet.state == .logout {
                if wallet.accessProtection != .none {
                    guard let current else { return .credentialsRequired(.current) }
                    _ = try await verify(current, reason: "Log in to your wallet")
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


    // MARK: plumbing

    func load() async throws(HoldfastError) -> StoredWallet? {
        if let cached { return cached }
        let wallet = try await store.load()
        if let wallet { await client.setClockOffset(milliseconds: wallet.clockOffsetMs) }
        cached = wallet
        return wallet
    }

    /// Stores `wallet`. The cache takes it first, so that every call after this one reads it, even while the store
    /// is being written.
    func save(_ wallet: StoredWallet) async throws(HoldfastError) {
        var wallet = wallet
        wallet.clockOffsetMs = await client.clockOffsetMilliseconds
        cached = wallet
        try await store.save(wallet)
    }

    /// Changes the latest stored wallet (read and changed with no suspension in between) and stores it.
    @discardableResult
    func update(_ change: (inout StoredWallet) -> Void) async throws(HoldfastError) -> StoredWallet {
        guard var wallet = try await load() else { throw Self.notProvisioned() }
        change(&wallet)
        try await save(wallet)
        return wallet
    }

    /// CPU-bound work (scrypt: about 0.1 s and 32 MiB a derivation) off the actor and off Swift's cooperative
    /// threads — one per core — on a dispatch queue, so that neither reading the state nor the app's other tasks
    /// wait behind it.
    static func offActor<T: Sendable>(_ work: @escaping @Sendable () throws(HoldfastError) -> T) async throws(HoldfastError) -> T {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, HoldfastError>, Never>) in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: Result { () throws(HoldfastError) -> T in try work() })
            }
        }
        return try result.get()
    }

    /// The wallet is gone (deleted by the back end): its keys and state are removed from the device.
    func forget(_ wallet: StoredWallet) async throws(HoldfastError) {
        connection = 0
        try? await seams.secureArea.deleteKey(alias: wallet.keyAlias)
        try await store.delete()
        cached = nil
    }

    func signer(for wallet: StoredWallet) async throws(HoldfastError) -> SecureAreaSigner {
        let key: P256.Signing.PublicKey?
        do { key = try await seams.secureArea.publicKey(alias: wallet.keyAlias) } catch { throw HoldfastError.secureArea(error) }
        guard let key else { throw HoldfastError.secureArea(.keyNotFound(wallet.keyAlias)) }
        return SecureAreaSigner(secureArea: seams.secureArea, alias: wallet.keyAlias, publicKey: key)
    }

    func emit(_ event: WalletEvent) {
        hub.yield(event)
        eventListener?.deliver(event)
    }

    static func notProvisioned() -> HoldfastError {
        HoldfastError(.walletNotProvisioned, "no SCA wallet is provisioned on this device")
    }
}
