import ArgumentParser

/// How the commands that list certificates a wallet or verifier must trust print them (docs/command-line.md "The `holdfast`
/// command"): PEM by default, one block per certificate in the list's order, so that the output is what
/// `holdfast device issuers add @file` and `device verifiers add @file` read; `--json` prints the API's JSON list.
struct CertificateOutputOptions: ParsableArguments {
    @Flag(name: .customLong("json"), help: "Print the JSON list of the API ({data: [{id, certificatePem, …}]}) instead of PEM.")
    var json = false

    /// Prints `list` as asked: its JSON, or the PEM of each certificate.
    func print<List: Encodable>(_ list: List, pems: [String]) throws {
        if json {
            try Console.json(list)
        } else {
            Console.write(pems.map { $0.hasSuffix("\n") ? $0 : $0 + "\n" }.joined())
        }
    }
}
