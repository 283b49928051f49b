import Foundation
import HoldfastProtocol

/// A claimed credential as kept: the IssuerSigned as issued, the alias of its device key, and what was known of
/// it at claim time.
struct StoredCredential: Codable, Sendable, Hashable {
    var id: String
    var configurationId: String
    var docType: String
    var issuerSigned: Data
    var keyAlias: String
    var credentialIssuer: String
    var branding: CredentialBranding?
    var trustedIssuerCertificateId: String?
    var claimedAt: Date
}

/// The credentials in `SecureStorage` (the Keychain; on Linux the sealed state file, written to a new file and
/// renamed over the old): one item per credential and an index of their ids. A credential is written before the
/// index names it, and left out of the index before it is deleted, so that a crash between two writes never
/// leaves the index naming a credential that is not there; at worst an item that no index names, removed at the
/// next start.
struct CredentialStore: Sendable {
    static let indexKey = "holdfast.credentials.v1"
    static func itemKey(_ id: String) -> String { "holdfast.credential.v1." + id }

    let storage: any SecureStorage

    func ids() async throws(HoldfastError) -> [String] {
        guard let bytes = try await read(Self.indexKey) else { return [] }
        do { return try HoldfastJSON.decode([String].self, from: Data(bytes)) } catch {
            throw HoldfastError(.secureStorageCorrupted, "the credential index does not decode")
        }
    }

    func load(_ id: String) async throws(HoldfastError) -> StoredCredential? {
        guard try await ids().contains(id), let bytes = try await read(Self.itemKey(id)) else { return nil }
        do { return try HoldfastJSON.decode(StoredCredential.self, from: Data(bytes)) } catch {
            throw HoldfastError(.secureStorageCorrupted, "the stored credential \(id) does not decode")
        }
    }

    func all() async throws(HoldfastError) -> [StoredCredential] {
        var result: [StoredCredential] = []
        for id in try await ids() {
            if let credential = try await load(id) { result.append(credential) }
        }
        return result
    }

    func save(_ credential: StoredCredential) async throws(HoldfastError) {
        let data: Data
        do { data = try HoldfastJSON.encode(credential) } catch {
            throw HoldfastError(.secureStorageCorrupted, "cannot encode the credential")
        }
        try await write(Self.itemKey(credential.id), [UInt8](data))
        var index = try await ids()
        if !index.contains(credential.id) {
            index.append(credential.id)
            try await writeIndex(index)
        }
    }

    func delete(_ id: String) async throws(HoldfastError) {
        var index = try await ids()
        guard let position = index.firstIndex(of: id) else { return }
        index.remove(at: position)
        try await writeIndex(index)
        do { try await storage.delete(Self.itemKey(id)) } catch { throw HoldfastError.storage(error) }
    }

    private func writeIndex(_ index: [String]) async throws(HoldfastError) {
        let data: Data
        do { data = try HoldfastJSON.encode(index) } catch {
            throw HoldfastError(.secureStorageCorrupted, "cannot encode the credential index")
        }
        try await write(Self.indexKey, [UInt8](data))
    }

    private func read(_ key: String) async throws(HoldfastError) -> [UInt8]? {
        do { return try await storage.read(key) } catch { throw HoldfastError.storage(error) }
    }

    private func write(_ key: String, _ value: [UInt8]) async throws(HoldfastError) {
        do { try await storage.write(key, value: value) } catch { throw HoldfastError.storage(error) }
    }
}
