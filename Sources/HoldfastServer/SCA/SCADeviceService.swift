import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE

/// What an SCA wallet's device calls with its wallet key (README "SCA wallet"): the PIN attempts it reports and its
/// event feed. The back end's side of the same wallets is `SCAWalletService`.
struct SCADeviceService: Sendable {
    let store: SCAWalletStore

    /// A PIN attempt the device reports (README "SCA wallet"): a failure takes one of the attempts left and, at none
    /// left, locks the wallet (`lockReason` `PIN_ATTEMPTS`, event `locked`); a success gives them all back. Decided in
    /// one transaction holding the wallet's row, so two reports never count as one. A wallet that is not active is
    /// `409` (its device learns why from its events).
    func reportPinAttempt(walletId: String, success: Bool, now: Date) async throws -> SCAPinAttemptResult {
        try await store.transaction { transaction in
            guard let wallet = try await transaction.walletForUpdate(id: walletId) else { throw SCAError.walletNotFound(id: walletId) }
            guard wallet.state == .active else { throw SCAError.walletState(wallet.state) }
            let left = success ? wallet.maxPinAttempts : max(0, wallet.pinAttemptsLeft - 1)
            let locks = left == 0
            try await transaction.setPinAttemptsLeft(id: walletId, left, lockReason: locks ? .pinAttempts : nil)
            if !success {
                try await transaction.appendEvent(walletId: walletId, type: .countersUpdated, data: ["pinAttemptsLeft": .integer(left)], now: now)
            }
            if locks {
                try await transaction.appendEvent(walletId: walletId, type: .locked, data: ["reason": .string(SCALockReason.pinAttempts.rawValue)], now: now)
            }
            return SCAPinAttemptResult(pinAttemptsLeft: Int(left), state: locks ? .locked : .active)
        }
    }

    /// The wallet's events after `after` (a sequence number, as the feed's `id:` lines give it), oldest first.
    func events(walletId: String, after: Int64, limit: Int = 100) async throws -> [SCAEvent] {
        try await store.events(walletId: walletId, after: after, limit: limit)
    }
}
