import Foundation
import HoldfastSDK

// docs/sdk.md "SCA wallet (device)": the calls around a connected wallet.

/// The PIN checked by the tenant (a wrong one counts), then changed.
func checkAndChangePIN(_ manager: WalletManager, enteredPIN: String, oldPIN: String, newPIN: String) async throws(HoldfastError) {
    // guide: sca-credentials
    try await manager.checkCredentials(.pin(enteredPIN))        // the tenant checks it; WRONG_CREDENTIALS counts one
    try await manager.changeCredentials(current: .pin(oldPIN), new: .pin(newPIN))
    // guide: end
}

/// A `pinOrBiometric` wallet signs with either; the proof's pattern says which key signed.
func signEitherWay(_ manager: WalletManager, wallet: Wallet, chosenPIN: String, enteredPIN: String, m: String,
                   p: SCAPayload) async -> [SignatureResult] {
    // guide: sca-pin-or-biometry
    _ = await manager.connect(newCredentials: .pin(chosenPIN))                     // PIN key + biometry key
    let byFace = await wallet.sign(CustomerAuthenticatedSignature(patternName: .biometry, message: m, payload: p))
    let byPIN = await wallet.sign(CustomerAuthenticatedSignature(patternName: .pin, message: m, payload: p),
                                  credentials: .pin(enteredPIN))
    // guide: end
    return [byFace, byPIN]
}

/// Events by listener (each method has an empty default), beside the `events` stream.
func listen(to manager: WalletManager) async -> any WalletEventListener {
    // guide: sca-events
    final class Listener: WalletEventListener {               // every method has an empty default
        func onSettingsUpdated() { reloadSettings() }
        func onProductsUpdated() { reloadCards() }
        func onCountersUpdated(pinAttemptsLeft: Int) { show(pinAttemptsLeft) }
        func onCustomerCredentialsReset() { askForANewPIN() }
        func onWalletLocked(reason: SCALockReason) { showLocked(reason) }
    }
    let listener = Listener()
    await manager.setEventListener(listener)                   // beside `for await event in manager.events`
    // guide: end
    return listener
}

func reloadSettings() { log("settings updated") }
func reloadCards() { log("products updated") }
func show(_ attemptsLeft: Int) { log("PIN attempts left:", attemptsLeft) }
func askForANewPIN() { log("the bank reset the credentials: choose a new PIN") }
func showLocked(_ reason: SCALockReason) { log("locked:", reason.rawValue) }

/// What a refused signature says.
func signOrExplain(_ wallet: Wallet, signature: CustomerAuthenticatedSignature, enteredPIN: String) async {
    // guide: sca-refusals
    if case .failure(let error) = await wallet.sign(signature, credentials: .pin(enteredPIN)) {
        switch error.code {
        case .deviceNotEligible: showNotEligible()             // DEVICE_NOT_ELIGIBLE
        case .appSunsetPassed: askForAnUpdate()                // APP_SUNSET
        default: show(error)
        }
    }
    // guide: end
}

func showNotEligible() { log("this device can no longer sign") }
func askForAnUpdate() { log("update the app to sign again") }
func show(_ error: HoldfastError) { log("refused:", error) }

/// Ends the connection, connects again, and drops the cached state on teardown.
func reconnect(_ manager: WalletManager) async -> Wallet? {
    // guide: sca-disconnect
    await manager.disconnect()                                 // wallet.sign(…) → WALLET_DISCONNECTED
    guard case .connectionSuccess(let again) = await manager.connect() else { return nil }
    await manager.clean()                                      // on the app's teardown: nothing stored changes
    // guide: end
    return again
}
