import ArgumentParser
import HoldfastProtocol
import HoldfastSDK

/// `holdfast device --state DIR offer <uri>` (docs/command-line.md "The `holdfast` command"): reads a credential offer and the
/// issuer's metadata and prints what it holds; nothing is claimed.
struct DeviceOffer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "offer", abstract: "Show what a credential offer holds (issuer, credentials, claims, transaction code).")
    @OptionGroup var options: DeviceOptions
    @Argument(help: "The offer URI (openid-credential-offer://?credential_offer=… or …credential_offer_uri=…).")
    var uri: String

    func run() async throws {
        try await DeviceCredentialOutput.run("offer") { () async throws(HoldfastError) in try await Self.output(options, uri: uri) }
    }

    static func output(_ options: some DeviceSettings, uri: String) async throws(HoldfastError) -> String {
        let holder = try await DeviceCredentialOutput.holder(options, needsTethering: false)
        return DeviceCredentialOutput.json(View(try await holder.retrieveCredentialOffer(uri: uri)))
    }

    /// What `offer` prints, and `claim` shows before asking.
    struct View: Encodable {
        struct Credential: Encodable {
            var configurationId: String
            var docType: String
            var branding: CredentialBranding?
            var claims: [String: [String]]
        }
        var issuer: String
        var issuerName: String?
        var issuerHost: String
        var credentials: [Credential]
        var transactionCode: TransactionCodeRequirement?

        init(_ offer: CredentialOffer) {
            issuer = offer.issuer
            issuerName = offer.issuerName
            issuerHost = offer.issuerHost
            credentials = offer.credentials.map { Credential(configurationId: $0.configurationId, docType: $0.docType,
                                                             branding: $0.branding, claims: $0.claims) }
            transactionCode = offer.transactionCode
        }
    }
}
