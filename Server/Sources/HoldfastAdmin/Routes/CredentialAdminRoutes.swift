import HoldfastProtocol

/// The issuer's admin routes (docs/server-api.md "Credentials"): its IACAs, credential configurations, offers, issued
/// credentials and their status, trusted wallet providers, and the status list settings.
public enum CredentialAdminRoutes {
    /// The route templates, exactly as in `openapi.json`.
    public enum Template {
        /// `GET ?limit=&cursor=` → `IssuedCredentialPage`.
        public static let credentials = RouteTemplate("/v1/credentials/mobile")
        /// `GET` → `MobileIACAList`.
        public static let iacas = credentials.appending("iacas")
        /// `POST` — `CredentialConfiguration`; `GET` → `CredentialConfigurationList`.
        public static let configurations = credentials.appending("configurations")
        /// `GET`, `DELETE`.
        public static let configuration = configurations.appending("{id}")
        /// `POST` — `CredentialOfferRequest` → `CredentialOfferCreated`.
        public static let offers = credentials.appending("offers")
        /// `POST` — `CredentialStatusChange` (revoke, suspend, reinstate).
        public static let credentialStatus = credentials.appending("{credentialId}/status")
        /// `POST` — `TrustedWalletProvider`; `GET` → `TrustedWalletProviderList`.
        public static let walletProviders = credentials.appending("wallet-providers")
        /// `DELETE`.
        public static let walletProvider = walletProviders.appending("{id}")
        /// `GET`, `PUT` — `StatusListSettings`.
        public static let statusListSettings = credentials.appending("status-list-settings")

        public static let all: [RouteTemplate] = [
            credentials, iacas, configurations, configuration, offers, credentialStatus, walletProviders, walletProvider,
            statusListSettings,
        ]
    }
}
