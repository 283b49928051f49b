import Foundation

/// The mDoc issuer's identity (docs/operations.md "Configuration"): the names in the tenant's IACA, document signer and status
/// list signer certificates. ISO/IEC 18013-5 Annex B requires a country (C) and a common name (CN) in each.
public struct IssuanceConfiguration: Sendable, Equatable {
    /// `HOLDFAST_ISSUER_NAME`: the organisation named in the certificates; the common names add what each one is.
    public var issuerName: String
    /// `HOLDFAST_ISSUER_COUNTRY`: the ISO 3166-1 alpha-2 code of the issuing country or territory, upper case.
    public var country: String

    public static let defaultIssuerName = "Holdfast tenant"
    /// ISO 3166-1 reserves ZZ for user assignment: no verifier mistakes it for a real state's issuer.
    public static let defaultCountry = "ZZ"

    public init(issuerName: String = defaultIssuerName, country: String = defaultCountry) {
        self.issuerName = issuerName
        self.country = country
    }

    mutating func apply(environment value: (String) -> String?) throws(ConfigurationError) {
        if let name = value("HOLDFAST_ISSUER_NAME") {
            guard name.count <= 64, name.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f }) else {
                throw ConfigurationError(variable: "HOLDFAST_ISSUER_NAME",
                                         reason: "must be at most 64 printable characters (an X.520 name)")
            }
            issuerName = name
        }
        if let country = value("HOLDFAST_ISSUER_COUNTRY") {
            guard country.count == 2, country.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }) else {
                throw ConfigurationError(variable: "HOLDFAST_ISSUER_COUNTRY",
                                         reason: "must be an ISO 3166-1 alpha-2 code in upper case, such as NL or US")
            }
            self.country = country
        }
    }
}
