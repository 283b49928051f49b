import Attestation
import Foundation
import TestSupport
import Testing

/// The Android Key Attestation vectors of shared/vectors/android-key-attestation (see its README and index.json).
struct AndroidVector {
    let file: String
    let entry: [String: Any]

    static let directory = "android-key-attestation/"

    static func all() throws -> [AndroidVector] {
        let index = try TestEnvironment.jsonVector(directory + "index.json")
        let chains = index["chains"] as? [[String: Any]] ?? []
        return chains.compactMap { entry in (entry["file"] as? String).map { AndroidVector(file: $0, entry: entry) } }
    }

    static func named(_ file: String) throws -> AndroidVector {
        guard let vector = try all().first(where: { $0.file == file }) else { throw TestSupportError("no vector \(file)") }
        return vector
    }

    /// The chain bytes: a PEM file, or the cert0…cert3 files of a folder (DER or PEM) concatenated.
    func chainBytes() throws -> [UInt8] {
        if file.hasSuffix(".pem"), !file.contains("cert0..") { return [UInt8](try TestEnvironment.vector(Self.directory + file)) }
        let folder = (file as NSString).deletingLastPathComponent
        let ext = file.hasSuffix(".der") ? "der" : "pem"
        var bytes: [UInt8] = []
        for index in 0..<4 { bytes += try TestEnvironment.vector(Self.directory + folder + "/cert\(index).\(ext)") }
        return bytes
    }

    func chain() throws -> [AttestationCertificate] { try CertificateChainDecoder.decode(chainBytes()) }

    var expectedResult: String { (entry["expected"] as? [String: Any])?["result"] as? String ?? "" }

    var challenge: [UInt8] {
        hexBytes(((entry["parsedKeyDescription"] as? [String: Any])?["attestationChallenge_hex"] as? String) ?? "")
    }

    var packageName: String? {
        let app = entry["attestationApplicationId"] as? [String: Any]
        return ((app?["package_infos"] as? [[String: Any]])?.first)?["package_name"] as? String
    }

    var signingDigests: [String] {
        let app = entry["attestationApplicationId"] as? [String: Any]
        return app?["signature_digests_sha256"] as? [String] ?? []
    }

    /// verifyAt, or 2019-09-01 for the TestDPC chains whose README entry suggests that instant.
    var verifyAt: Date {
        if let text = entry["verifyAt"] as? String, let date = parseInstant(text) { return date }
        return parseInstant("2019-09-01T00:00:00Z")!
    }
}

func parseInstant(_ text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime]
    if let date = formatter.date(from: text) { return date }
    // Six fractional digits ("…22:31:27.639000Z") — drop the fraction.
    if let dot = text.firstIndex(of: ".") { return formatter.date(from: String(text[..<dot]) + "Z") }
    return nil
}

func expectCode(_ code: String, _ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async {
    do {
        try await body()
        Issue.record("expected \(code), but verification succeeded", sourceLocation: sourceLocation)
    } catch let error as AttestationError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
    }
}
