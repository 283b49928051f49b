import Foundation

/// Google's attestation certificate status list (developer.android.com "Key attestation" → certificate revocation
/// status list, served at https://android.googleapis.com/attestation/status):
/// `{ "entries": { "<serial, lowercase hex, no leading zeros>": { "status": "REVOKED" | "SUSPENDED", "reason": … } } }`.
///
/// A snapshot is embedded (`bundledSnapshot`); a newer list can be loaded from a file or bytes with
/// `init(jsonData:)` and handed to the verifier. Any listed status (REVOKED or SUSPENDED) makes a chain fail.
public struct AttestationRevocationList: Sendable, Hashable {
    public struct Entry: Sendable, Hashable, Codable {
        public let status: String
        public let reason: String?
    }

    /// Entries by normalised serial (lowercase hex, no leading zeros).
    public let entries: [String: Entry]

    public init(entries: [String: Entry]) {
        var normalised: [String: Entry] = [:]
        for (serial, entry) in entries { normalised[Self.normalise(serial)] = entry }
        self.entries = normalised
    }

    /// Parses the JSON Google serves. Bounded: at most 4 MiB.
    public init(jsonData data: Data) throws(AttestationError) {
        guard data.count <= 4 * 1024 * 1024 else { throw .invalidFormat("revocation list is larger than 4 MiB") }
        struct Document: Codable { let entries: [String: Entry] }
        do {
            self.init(entries: try JSONDecoder().decode(Document.self, from: data).entries)
        } catch {
            throw .invalidFormat("revocation list is not Google's status JSON")
        }
    }

    /// Reads a status list file.
    public init(contentsOf url: URL) throws(AttestationError) {
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw .invalidFormat("cannot read revocation list at \(url.path)") }
        try self.init(jsonData: data)
    }

    /// The entry for a certificate, if listed.
    public func entry(for certificate: AttestationCertificate) -> Entry? {
        entries[certificate.serialNumberHex]
    }

    /// The embedded snapshot. It holds the entries published in google/android-key-attestation's
    /// `src/test/resources/status.json` (commit f9846cd0…), the only copy available offline when this was written;
    /// deployments should load the live list with `init(jsonData:)` and refresh it daily.
    public static let bundledSnapshot: AttestationRevocationList = {
        (try? AttestationRevocationList(jsonData: Data(bundledSnapshotJSON.utf8))) ?? AttestationRevocationList(entries: [:])
    }()

    static let bundledSnapshotJSON = """
    {
      "entries": {
        "6681152659205225093": { "status": "REVOKED", "reason": "KEY_COMPROMISE" },
        "8350192447815228107": { "status": "REVOKED", "reason": "KEY_COMPROMISE" },
        "9408173275444922801": { "status": "REVOKED", "reason": "KEY_COMPROMISE" },
        "11244410301401252959": { "status": "REVOKED", "reason": "KEY_COMPROMISE" },
        "cc66e9a93713b6e643b26c15879786f7": { "status": "SUSPENDED", "reason": "KEY_COMPROMISE" }
      }
    }
    """

    static func normalise(_ serial: String) -> String {
        let trimmed = serial.lowercased().drop { $0 == "0" }
        return trimmed.isEmpty ? "0" : String(trimmed)
    }
}
