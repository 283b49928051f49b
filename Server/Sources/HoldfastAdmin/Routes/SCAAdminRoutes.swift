import HoldfastProtocol

/// The SCA wallets' admin routes (docs/server-api.md "SCA wallet (back end)"), below `SCARoutes.Template.wallet` and
/// `SCARoutes.Template.eligibility` (which, with `wallets` and `policies`, also carry admin methods).
public enum SCAAdminRoutes {
    /// The route templates, exactly as in `openapi.json`.
    public enum Template {
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

        public static let all: [RouteTemplate] = [lock, unlock, resetCredentials, settings, productsUpdated, denial]
    }
}
