import ArgumentParser

/// `holdfast inspect <hex|base64|base64url|@file>` — for people debugging credentials: prints CBOR in
/// diagnostic notation (RFC 8949 §8), a COSE_Sign1 with its headers, payload and certificates, or a JWS/JWT with
/// its header and claims. Nothing is verified.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Recognise and pretty-print Status List Tokens, mDocs, App Attest attestations, COSE_Sign1, CWT, JWS/JWT/JWE or CBOR.",
        discussion: """
        Status List Tokens (CWT or JWT: claims, bits, size, a count per status value); mDocs — an IssuerSigned, a \
        DeviceResponse, an MSO (docType, validity, status reference, each element); App Attest attestation objects \
        (authenticator data, certificates, receipt length); COSE_Sign1 (headers, payload, certificates); JWS/JWT \
        (header, claims), JWE (header); anything else CBOR in diagnostic notation. Samples: samples/ in the repository.

        INPUT is hex, base64, base64url, a compact JWS/JWE, or @FILE (binary, or text in one of those forms). \
        Hex is preferred when the text is both hex and base64.
        """
    )

    @Argument(help: "hex, base64, base64url, compact JWS/JWE, or @file")
    var input: String

    @Flag(name: .long, help: "Print CBOR over several indented lines.")
    var pretty = false

    func run() throws {
        do {
            let report = try Inspector.inspect(input, pretty: pretty)
            print(report.text)
        } catch {
            throw CommandFailure(.dataError, "\(error)")
        }
    }
}
