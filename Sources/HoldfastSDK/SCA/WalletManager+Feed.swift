import Foundation
import HoldfastProtocol
import JOSE

/// The tenant's event feed applied on the device (docs/sdk.md "SCA wallet (device)": events).
extension WalletManager {
    // MARK: the tenant's feed

    /// Reads the wallet's events from the tenant's feed (`GET /v1/sca/wallets/{id}/events`, from the last one
    /// applied), applies them here and emits them; returns what was emitted.
    @discardableResult
    public func synchronize() async throws(HoldfastError) -> [WalletEvent] {
        guard let wallet = try await load() else { throw Self.notProvisioned() }
        let signer = try await signer(for: wallet)
        let url = try client.url(SCARoutes.Template.events, ["walletId": wallet.walletId], query: [(SCARoutes.Query.wait, "0")])
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
    func apply(_ event: ServerSentEvents.Event, to wallet: StoredWallet) -> (StoredWallet?, [WalletEvent]) {
        var wallet = wallet
        let data = (try? JSONValue(json: Array(event.data.utf8)))?.objectValue ?? [:]
        switch SCAEventType(rawValue: event.type).known {
        case .loaded?:
            return (wallet, [.walletLoaded])
        case .locked?:
            let reason = data["reason"]?.stringValue.map(SCALockReason.init(rawValue:)) ?? .other
            guard wallet.state != .locked || wallet.lockReason != reason else { return (wallet, []) }
            wallet.state = .locked
            wallet.lockReason = reason
            connection = 0
            return (wallet, [.walletLocked(reason: reason)])
        case .unlocked?:
            guard wallet.state == .locked else { return (wallet, []) }
            wallet.state = .ready
            wallet.lockReason = nil
            wallet.pinAttemptsLeft = wallet.maxPinAttempts
            return (wallet, [.walletUnlocked])
        case .credentialsReset?:
            wallet.pin = nil
            wallet.biometryKey = nil
            wallet.credentialsSet = wallet.accessProtection == .none
            wallet.pinAttemptsLeft = wallet.maxPinAttempts
            connection = 0
            return (wallet, [.customerCredentialsReset])
        case .countersUpdated?:
            // Only a count lower than the device's own is news: the tenant's echo of the wrong PINs this device
            // tried (it applied the tenant's answer already) is not.
            guard case .integer(let left)? = data["pinAttemptsLeft"], Int(left) < wallet.pinAttemptsLeft else { return (wallet, []) }
            wallet.pinAttemptsLeft = Int(left)
            return (wallet, [.countersUpdated(pinAttemptsLeft: Int(left))])
        case .deleted?:
            connection = 0
            return (nil, [.walletDeleted])
        case .deviceEligibilityLost?:
            // From now on the device refuses to sign (`DEVICE_NOT_ELIGIBLE`), as the tenant refuses its proofs.
            let reason = SCAIneligibilityReason(rawValue: data["reason"]?.stringValue ?? "")
            wallet.ineligibility = reason
            return (wallet, [.deviceEligibilityLost(reason: reason)])
        case .appSunsetScheduled?:
            guard let version = data["minimumVersion"]?.stringValue, let date = data["sunsetAt"]?.stringValue.flatMap(HoldfastJSON.parseDate) else {
                return (wallet, [])
            }
            // Past `sunsetAt` the device refuses to sign (`APP_SUNSET`) while its version is below `version`.
            wallet.sunset = SCAMinimumAppVersion(version: version, sunsetAt: date)
            return (wallet, [.appSunsetScheduled(minimumVersion: version, sunsetAt: date)])
        case .settingsUpdated?:
            // A new protection needs new credentials (asked at the next connect); fewer attempts cap those left.
            if let protection = data["accessProtection"]?.stringValue.map(SCAAccessProtection.init(rawValue:)), protection != wallet.accessProtection {
                wallet.accessProtection = protection
                wallet.pin = nil
                wallet.biometryKey = nil
                wallet.credentialsSet = protection == .none
                connection = 0
            }
            if case .integer(let maximum)? = data["maxPinAttempts"], maximum > 0 {
                wallet.maxPinAttempts = Int(maximum)
                wallet.pinAttemptsLeft = min(wallet.pinAttemptsLeft, Int(maximum))
            }
            return (wallet, [.settingsUpdated])
        case .productsUpdated?:
            return (wallet, [.productsUpdated])
        case nil:
            // An event a newer tenant knows and this SDK does not: skipped, its id still counted as read.
            return (wallet, [])
        }
    }
}
