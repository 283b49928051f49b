import ArgumentParser
import Crypto
import Foundation
import HoldfastProtocol
import HoldfastSDK
import SwiftASN1
import X509

/// `holdfast reader --engagement 'mdoc:…' --doctype DOCTYPE --elements NS:ELEMENT,… --iaca @iaca.pem [--reader-cert
/// @chain.pem --reader-key @key.pem]` (docs/command-line.md "The `holdfast` command"; docs/sdk.md "Reader"): an mdoc
/// reader (ISO/IEC 18013-5) on the SDK's `MobileCredentialReader`. Connects to the holder the engagement names, asks
/// for the elements (with `readerAuth` when given the reader's chain, leaf first, and its PKCS#8 key), prints the
/// result JSON — the tenant verifier's shape (docs/server-api.md "Verifier") — and ends the session with status 20.
/// Exits 0 only when the result is `verified`.
struct ReaderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reader",
        abstract: "Read an mdoc in person (ISO/IEC 18013-5) from its mdoc: engagement and verify what it shows.")

    @Option(help: "The holder's engagement: its QR text, mdoc:…") var engagement: String
    @Option(name: .customLong("doctype"), help: "The docType to ask for (org.iso.18013.5.1.mDL).") var docType: String
    @Option(help: "The elements to ask for, NAMESPACE:ELEMENT separated by commas; every one is required.") var elements: String
    @Option(help: "The trusted IACA certificates: @file.pem or the PEM text.") var iaca: String
    @Option(name: .customLong("reader-cert"), help: "The reader's certificate chain as PEM, leaf first (@file.pem), for readerAuth.")
    var readerCertificate: String?
    @Option(name: .customLong("reader-key"), help: "The reader's key as PKCS#8 PEM (@file.pem).") var readerKey: String?
    @Option(help: "How the holder is reached: loopback (the engagement's 127.0.0.1 endpoint; BLE is Apple-only).")
    var transport: DevicePresentProximity.Transport = .loopback
    @Flag(help: "Do not fetch status lists: a credential that names one fails STATUS_UNKNOWN.") var offline = false

    func validate() throws {
        if (readerCertificate == nil) != (readerKey == nil) { throw ValidationError("--reader-cert and --reader-key go together") }
        if (try? Self.nameSpaces(elements)) == nil { throw ValidationError("--elements is NAMESPACE:ELEMENT[,NAMESPACE:ELEMENT…]") }
    }

    func run() async throws {
        let nameSpaces = try Self.nameSpaces(elements)
        let iacas: [Certificate]
        do { iacas = try Self.certificates(try Self.text(iaca, "--iaca"), "--iaca") } catch let failure as CommandFailure { throw failure } catch {
            throw CommandFailure(.dataError, "--iaca is not PEM certificates: \(error)")
        }
        var identity: ReaderIdentity?
        if let readerCertificate, let readerKey {
            do {
                let chain = try Self.certificates(try Self.text(readerCertificate, "--reader-cert"), "--reader-cert")
                var serializer = DER.Serializer()
                let der = try chain.map { certificate in
                    serializer = DER.Serializer()
                    try serializer.serialize(certificate)
                    return serializer.serializedBytes
                }
                identity = ReaderIdentity(certificateChain: der, key: try P256.Signing.PrivateKey(pemRepresentation: try Self.text(readerKey, "--reader-key")))
            } catch let failure as CommandFailure { throw failure } catch {
                throw CommandFailure(.dataError, "the reader's identity (--reader-cert, --reader-key) cannot be read: \(error)")
            }
        }
        let run = CommandRun.system()
        let cacheDirectory = run.temporaryURL("holdfast-reader")
        defer { try? FileManager.default.removeItem(at: cacheDirectory) }
        let statusLists: StatusListCache? = offline ? nil : StatusListCache(
            storage: FileSecureStorage(directory: cacheDirectory, applicationId: "holdfast-reader"), transport: URLSessionTransport(), clock: run.clock)
        let reader = MobileCredentialReader(trustedIACAs: iacas, statusLists: statusLists)
        let result: PresentationResult
        do throws(HoldfastError) {
            result = try await reader.read(engagement: engagement, request: [ProximityReadRequest(docType: docType, elements: nameSpaces)],
                                           over: LoopbackReaderTransport(), readerIdentity: identity)
        } catch where [.requestInvalid, .requestUnsupported].contains(error.code) {
            // The engagement is data the command line carried: one it cannot read (not `mdoc:` + base64url of a
            // DeviceEngagement, ISO/IEC 18013-5 §8.2.2.3) or that offers no retrieval this reader speaks is 65.
            throw CommandFailure(.dataError, "--engagement: \(error.message)", code: error.code.rawValue)
        } catch {
            throw CommandFailure(error)
        }
        print(DeviceCredentialOutput.json(result))
        guard result.status == .verified else {
            throw CommandFailure(.failure, "the presentation is \(result.status.rawValue)"
                                 + (result.failures.map { ": " + $0.map(\.code.rawValue).joined(separator: ", ") } ?? ""))
        }
    }

    /// `NAMESPACE:ELEMENT,…` → namespace → elements (the namespace is what comes before the last colon).
    static func nameSpaces(_ text: String) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for entry in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            guard let colon = entry.lastIndex(of: ":"), colon != entry.startIndex, entry.index(after: colon) != entry.endIndex else {
                throw ValidationError("\(entry) is not NAMESPACE:ELEMENT")
            }
            result[String(entry[..<colon]), default: []].append(String(entry[entry.index(after: colon)...]))
        }
        guard !result.isEmpty else { throw ValidationError("--elements names no element") }
        return result
    }

    /// The text of `@file` or the argument itself.
    static func text(_ argument: String, _ option: String) throws -> String {
        guard argument.hasPrefix("@") else { return argument }
        let path = String(argument.dropFirst())
        guard let data = FileManager.default.contents(atPath: path) else { throw CommandFailure(.dataError, "\(option): cannot read \(path)") }
        return String(decoding: data, as: UTF8.self)
    }

    static func certificates(_ pem: String, _ option: String) throws -> [Certificate] {
        let certificates = try PEMDocument.parseMultiple(pemString: pem).map { try Certificate(pemDocument: $0) }
        guard !certificates.isEmpty else { throw CommandFailure(.dataError, "\(option): no certificate in the PEM text") }
        return certificates
    }
}
