import Foundation
import HoldfastSDK

/// The guide's flow, start to end, against a tenant (docs/sdk.md): tethering, an attestation-only registration refused
/// on a device that cannot attest, claiming, the offline limit, status, an online presentation, one declined for want of
/// a matching credential, an in-person presentation read by a reader, and an SCA signature.
/// What only a tenant's admin or a bank's back end can do (an offer, a verifier session, an activation code) comes in
/// as arguments; Server/Tests/HoldfastEndToEndTests/WalletAppTests.swift prepares them and checks each step.
///
///     WalletApp --tenant URL --application ID --state DIR --iaca FILE --offer URI --verifier-ca FILE \
///               --presentation URI --unanswerable URI --activation-code CODE --pin PIN --body JSON
@main
struct WalletApp {
    static func main() async {
        do {
            let arguments = try Arguments(CommandLine.arguments.dropFirst())
            try await run(arguments)
        } catch {
            log("error:", error)
            exit(1)
        }
    }

    static func run(_ arguments: Arguments) async throws {
        let tenant = try arguments["tenant"], application = try arguments["application"]
        let state = URL(fileURLWithPath: try arguments["state"])
        let seams = platformSeams(stateDirectory: state.appendingPathComponent("phone"))

        let registered = try await registerWithAttestationOnly(
            seams: platformSeams(stateDirectory: state.appendingPathComponent("attestation-only")),
            tenantHost: tenant, applicationId: application)
        Output.step("attestation-only", ["registered": registered])

        let holder = try await tetheredHolder(seams: seams, tenantHost: tenant, applicationId: application)
        let events = followTethering(of: holder)
        defer { events.cancel() }

        let iaca = try String(contentsOfFile: try arguments["iaca"], encoding: .utf8)
        let credential = try await claim(holder, iacaPEM: iaca, scannedURI: try arguments["offer"], codeFromSMS: nil)
        Output.step("claiming", ["id": credential.metadata.id, "docType": credential.metadata.docType,
                                 "elements": credential.claims.values.flatMap(\.keys).sorted()])

        let opened = try await openCredential(holder, id: credential.metadata.id)
        Output.step("offline-limit", ["opened": opened != nil])
        _ = try await checkStatus(holder, id: credential.metadata.id)

        await allowAppRedirects(holder)
        let verifierCA = try String(contentsOfFile: try arguments["verifier-ca"], encoding: .utf8)
        let redirect = try await present(holder, verifierCAPEM: verifierCA, scannedURI: try arguments["presentation"])
        Output.step("presentation", ["sent": true, "redirect": redirect ?? NSNull()])
        // A request for what the credential does not hold: the app declines, and the verifier's session ends.
        _ = try await present(holder, verifierCAPEM: verifierCA, scannedURI: try arguments["unanswerable"])
        Output.step("declined", [:])

        // In person: the holder's engagement, read by a verifier app's reader (here in the same process, over loopback).
        let inPerson = try await startInPersonPresentation(holder)
        let answering = Task { await answerInPerson(inPerson) }
        let read = try await readInPerson(iacaPEM: iaca, statusLists: holder.statusLists, scannedQRCode: inPerson.qrCode)
        await answering.value
        Output.step("proximity", ["status": read.status.rawValue, "failures": (read.failures ?? []).map(\.code.rawValue),
                                  "elements": (read.claims?["org.iso.18013.5.1.mDL"]?["org.iso.18013.5.1"] ?? [:]).keys.sorted()])

        let body = try JSONValue(json: Array(try arguments["body"].utf8))
        let proof = try await signBeneficiary(seams: seams, tenantHost: tenant, applicationId: application,
                                              codeFromTheBank: try arguments["activation-code"],
                                              chosenPIN: try arguments["pin"], enteredPIN: try arguments["pin"], body: body)
        Output.step("sca", ["proof": proof ?? NSNull()])
    }
}

/// `--name value` pairs.
struct Arguments {
    struct Missing: Error, CustomStringConvertible {
        let name: String
        var description: String { "--\(name) is required" }
    }

    private var values: [String: String] = [:]

    init(_ words: some Sequence<String>) throws {
        var iterator = words.makeIterator()
        while let word = iterator.next() {
            guard word.hasPrefix("--"), let value = iterator.next() else { throw Missing(name: word) }
            values[String(word.dropFirst(2))] = value
        }
    }

    subscript(name: String) -> String {
        get throws {
            guard let value = values[name] else { throw Missing(name: name) }
            return value
        }
    }
}
