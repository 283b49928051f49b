import ArgumentParser
import Foundation
import HoldfastProtocol
import HoldfastSDK

/// `holdfast device --state DIR [--tenant URL --application ID] claim <uri>` (docs/command-line.md "The `holdfast` command"):
/// claims the credentials of an offer and prints them — tethered (the instance registered first when it is not, its
/// wallet attestation sent) with `--tenant` and `--application`, untethered without them, which only an issuer that
/// does not require client attestation accepts (docs/sdk.md "Holder: tethering is optional").
struct DeviceClaim: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "claim",
        abstract: "Claim the credentials of an offer (asks first unless --yes).",
        discussion: """
            With --tenant and --application the device is tethered (registered first when it is not) and sends its wallet \
            attestation; without them it claims untethered, which only an issuer whose configuration has clientAttestation \
            optional accepts (WALLET_ATTESTATION_UNAVAILABLE otherwise). The issuer's IACA must be trusted (issuers add).
            """)
    @OptionGroup var options: DeviceOptions
    @Argument(help: "The offer URI.") var uri: String
    @Option(name: .customLong("tx-code"), help: "The transaction code the issuer sent by another channel.") var txCode: String?
    @Flag(help: "Claim without asking.") var yes = false

    func run() async throws {
        try await DeviceCredentialOutput.run("claim") { () async throws(HoldfastError) in
            let holder = try await DeviceCredentialOutput.holder(options, needsTethering: false)
            let offer = try await holder.retrieveCredentialOffer(uri: uri)
            if !yes {
                let summary = offer.credentials.map { "\($0.branding?.name ?? $0.docType) (\($0.docType))" }.joined(separator: ", ")
                FileHandle.standardError.write(Data("\(offer.issuerName ?? offer.issuerHost) offers: \(summary). Claim? [y/N] ".utf8))
                // Declining is a decision, not a failure: nothing is redeemed, the command exits 0.
                guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased().trimmingCharacters(in: .whitespaces)) else {
                    return DeviceCredentialOutput.json(Declined(issuer: offer.issuer, offered: offer.credentials.map(\.docType)))
                }
            }
            return DeviceCredentialOutput.json(try await holder.claimCredentials(offer: offer, transactionCode: txCode))
        }
    }

    /// What `claim` prints when the offer is declined at its question: `{"declined": true, "issuer", "offered"}`.
    struct Declined: Encodable {
        var declined = true
        var issuer: String
        var offered: [String]
    }

    /// `claim --yes`.
    static func output(_ options: some DeviceSettings, uri: String, txCode: String?,
                       transport: (any HTTPTransport)? = nil) async throws(HoldfastError) -> String {
        let holder = try await DeviceCredentialOutput.holder(options, needsTethering: false, transport: transport)
        let offer = try await holder.retrieveCredentialOffer(uri: uri)
        return DeviceCredentialOutput.json(try await holder.claimCredentials(offer: offer, transactionCode: txCode))
    }
}
