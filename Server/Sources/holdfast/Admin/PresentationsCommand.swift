import ArgumentParser
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import HoldfastServer

/// `holdfast admin presentations create|result|verifier-cas` (docs/command-line.md "The `holdfast` command"): verifier sessions
/// made directly on the configured database, and the verifier CA wallets trust.
struct PresentationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presentations", abstract: "The verifier: presentation sessions and their results.",
        subcommands: [Create.self, Result.self, VerifierCAs.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Ask for elements of a docType: prints {sessionId, authorizationRequestUri, requestUri, expiresAt}, with --qr also the URI as a QR code on standard error; with --protocol dc-api {sessionId, digital, expiresAt}.")
        @OptionGroup var storage: AdminStorageOptions
        @Option(name: .customLong("protocol"), help: "The presentation protocol.") var presentationProtocol: PresentationProtocol = .openID4VP
        @Option(name: .customLong("doc-type"), help: "The docType asked for.") var docType: String
        @Option(name: .customLong("element"), parsing: .singleValue,
                help: "namespace:element[,namespace:element…]; repeatable. A trailing ! asks to retain it (intent_to_retain).")
        var elements: [String]
        @Option(help: "How the wallet is reached.") var mode: PresentationMode = .crossDevice
        @Option(name: .customLong("redirect-uri"), help: "Where a same-device wallet returns to.") var redirectUri: String?
        @Option(name: .customLong("client-id-prefix"), help: "x509_hash (default) or x509_san_dns.") var clientIdPrefix: String?
        @Option(name: .customLong("expires-in"), help: "Seconds the session stays open (30–3600, default 300).") var expiresIn: Int?
        @Option(name: .customLong("authorization-endpoint"),
                help: "A wallet's https universal link to use instead of the openid4vp:// or mdoc-openid4vp:// scheme.")
        var authorizationEndpoint: String?
        @Flag(help: "Also print the URI as a QR code for the terminal, on standard error.") var qr = false
        @Option(name: .customLong("origin"), parsing: .singleValue,
                help: "With --protocol dc-api: a web origin the page is served from (https://shop.example); repeatable, 1 to 5.")
        var origins: [String] = []
        @Option(name: .customLong("dc-protocol"), parsing: .singleValue,
                help: "With --protocol dc-api: a request to offer (openid4vp-v1-signed, openid4vp-v1-unsigned, org-iso-mdoc); repeatable, default openid4vp-v1-signed and org-iso-mdoc.")
        var dcProtocols: [String] = []
        @Flag(name: .customLong("no-reader-auth"), help: "With --protocol dc-api: org-iso-mdoc requests without reader authentication.")
        var noReaderAuth = false

        func run() async throws {
            var spaces: [String: [String: Bool]] = [:]
            for item in elements.flatMap({ $0.split(separator: ",") }) {
                var text = item.trimmingCharacters(in: .whitespaces)
                let retain = text.hasSuffix("!")
                if retain { text.removeLast() }
                guard let colon = text.lastIndex(of: ":"), colon != text.startIndex, text.index(after: colon) != text.endIndex else {
                    throw ValidationError("--element takes namespace:element, not \(item)")
                }
                spaces[String(text[..<colon]), default: [:]][String(text[text.index(after: colon)...])] = retain
            }
            let request = PresentationSessionRequest(protocol: presentationProtocol, mode: mode, redirectUri: redirectUri,
                                                     clientIdPrefix: clientIdPrefix, expiresInSeconds: expiresIn,
                                                     authorizationEndpoint: authorizationEndpoint,
                                                     query: .init(docType: docType, nameSpaces: spaces))
            if presentationProtocol == .dcAPI {
                var asked = request
                asked.dcApi = .init(protocols: dcProtocols.isEmpty ? nil : dcProtocols, origins: origins, readerAuth: noReaderAuth ? false : nil)
                let digital = asked
                let created = try await storage.withAdminServices {
                    try await $0.presentations().createDigitalCredentialsSession(digital, now: $0.now())
                }
                try Console.json(created)
                return
            }
            guard origins.isEmpty, dcProtocols.isEmpty, !noReaderAuth else {
                throw ValidationError("--origin, --dc-protocol and --no-reader-auth are for --protocol dc-api")
            }
            let created = try await storage.withAdminServices { try await $0.presentations().createSession(request, now: $0.now()) }
            try Console.json(created)
            if qr { Console.errorLine(try TerminalQR.render(created.authorizationRequestUri)) }
        }
    }

    struct Result: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A session's result: {status, claims?, credentials?, failures?}, as the API gives it.")
        @OptionGroup var storage: AdminStorageOptions
        @Argument(help: "The session id.") var sessionId: String

        func run() async throws {
            let id = sessionId
            try Console.json(try await storage.withAdminServices { try await $0.presentations().result(sessionId: id, now: $0.now()) })
        }
    }

    struct VerifierCAs: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verifier-cas",
            abstract: "Print the verifier CA wallets add as a trusted verifier, as PEM (--json: the JSON list).",
            discussion: "holdfast admin presentations verifier-cas > verifier-ca.pem; holdfast device --state DIR verifiers add @verifier-ca.pem")
        @OptionGroup var storage: AdminStorageOptions
        @OptionGroup var output: CertificateOutputOptions

        func run() async throws {
            let list = try await storage.withAdminServices { try await $0.presentations().verifierCAs() }
            try output.print(list, pems: list.data.map(\.certificatePem))
        }
    }
}
