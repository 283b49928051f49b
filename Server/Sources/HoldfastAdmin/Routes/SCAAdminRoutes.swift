import HoldfastProtocol

/// The SCA wallets' admin routes (docs/server-api.md "SCA wallet (back end)"), admin scope, below the prefixes
/// `HoldfastProtocol.SCARoutes` declares for the routes devices and the bank's back end call. `SCARoutes.Template.policies`
/// carries an admin method (`PUT`) beside its public one, so it is that type's.
public enum SCAAdminRoutes {
    /// The route templates, exactly as in `openapi.json`.
    public enum Template {
        /// `POST` — `SCAWalletCreateRequest` (a wallet and its one-time activation code); `GET ?userId=` → `SCAWalletList`.
        public static let wallets = SCARoutes.Template.wallets
        /// `GET` → `SCAWallet`; `DELETE`.
        public static let wallet = SCARoutes.Template.wallet
        /// `GET`, `PUT` — `SCAEligibilityRules`.
        public static let eligibility = SCARoutes.Template.eligibility
        /// `PUT` — `SCAWalletLockRequest`.
        public static let lock = SCARoutes.Template.wallet.appending("lock")
        /// `PUT`.
        public static let unlock = SCARoutes.Template.wallet.appending("unlock")
        /// `PUT`.
        public static let resetCredentials = SCARoutes.Template.wallet.appending("credentials/reset")
        /// `PUT` — `SCAWalletSettings`.
        public static let settings = SCARoutes.Template.wallet.appending("settings")
        /// `POST` — `SCAProductsUpdated`.
        public static let productsUpdated = SCARoutes.Template.wallet.appending("products-updated")
        /// `GET` → `SCAEligibilityDenial`.
        public static let denial = SCARoutes.Template.eligibility.appending("denials/{reference}")

        public static let all: [RouteTemplate] = [
            wallets, wallet, eligibility, lock, unlock, resetCredentials, settings, productsUpdated, denial,
        ]
    }
}
