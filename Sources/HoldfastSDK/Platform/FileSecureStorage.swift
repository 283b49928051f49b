import Crypto
import Foundation

/// `SecureStorage` for Linux (servers, CI, simulated devices): one file per application id holding every item,
/// sealed with AES-256-GCM under a key kept in a second file beside it (mode 0600).
///
/// This protects against casual reading of the state folder, not against an attacker who can read both files:
/// Linux has no hardware-backed store for the SDK to use. Writes go to a temporary file and are renamed over the
/// old one, so a crash in the middle leaves either the old or the new contents, never half of each.
public actor FileSecureStorage: SecureStorage {
    private let dataURL: URL
    private let keyURL: URL
    private var cache: [String: [UInt8]]?

    /// - Parameters:
    ///   - directory: the state folder (created when missing).
    ///   - applicationId: items of different applications live in different files.
    public init(directory: URL, applicationId: String) {
        let safeName = applicationId.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }
        self.dataURL = directory.appendingPathComponent("secure-storage-\(String(safeName)).sealed")
        self.keyURL = directory.appendingPathComponent("secure-storage.key")
    }

    public func read(_ key: String) async throws(SecureStorageError) -> [UInt8]? {
        try load()[key]
    }

    public func write(_ key: String, value: [UInt8]) async throws(SecureStorageError) {
        var items = try load()
        items[key] = value
        try save(items)
    }

    public func delete(_ key: String) async throws(SecureStorageError) {
        var items = try load()
        guard items.removeValue(forKey: key) != nil else { return }
        try save(items)
    }

    private func load() throws(SecureStorageError) -> [String: [UInt8]] {
        if let cache { return cache }
        let manager = FileManager.default
        guard manager.fileExists(atPath: dataURL.path) else {
            cache = [:]
            return [:]
        }
        let sealed: Data
        do { sealed = try Data(contentsOf: dataURL) } catch {
            throw .unavailable("cannot read \(dataURL.lastPathComponent): \(error.localizedDescription)")
        }
        let key = try storageKey(createIfMissing: false)
        let items: [String: [UInt8]]
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            let plain = try AES.GCM.open(box, using: key)
            let decoded = try JSONDecoder().decode([String: Data].self, from: plain)
            items = decoded.mapValues { [UInt8]($0) }
        } catch {
            throw .corrupted("\(dataURL.lastPathComponent) does not open with the storage key")
        }
        cache = items
        return items
    }

    private func save(_ items: [String: [UInt8]]) throws(SecureStorageError) {
        let key = try storageKey(createIfMissing: true)
        do {
            let plain = try JSONEncoder().encode(items.mapValues { Data($0) })
            guard let sealed = try AES.GCM.seal(plain, using: key).combined else {
                throw SecureStorageError.unavailable("AES-GCM produced no combined form")
            }
            try Self.writeAtomically(sealed, to: dataURL)
        } catch let error as SecureStorageError {
            throw error
        } catch {
            throw .unavailable("cannot write \(dataURL.lastPathComponent): \(error.localizedDescription)")
        }
        cache = items
    }

    private func storageKey(createIfMissing: Bool) throws(SecureStorageError) -> SymmetricKey {
        let manager = FileManager.default
        if let data = manager.contents(atPath: keyURL.path) {
            guard data.count == 32 else { throw .corrupted("\(keyURL.lastPathComponent) is not a 256-bit key") }
            return SymmetricKey(data: data)
        }
        guard createIfMissing else { throw .corrupted("\(keyURL.lastPathComponent) is missing") }
        let key = SymmetricKey(size: .bits256)
        do {
            try manager.createDirectory(at: keyURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Self.writeAtomically(key.withUnsafeBytes { Data($0) }, to: keyURL)
        } catch {
            throw .unavailable("cannot create \(keyURL.lastPathComponent): \(error.localizedDescription)")
        }
        return key
    }

    private static func writeAtomically(_ data: Data, to url: URL) throws {
        let manager = FileManager.default
        try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString)")
        guard manager.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown)
        }
        // On disk before it replaces the old file, so that a power cut after the rename finds the new contents.
        if let handle = try? FileHandle(forWritingTo: temporary) {
            try? handle.synchronize()
            try? handle.close()
        }
        // rename(2) replaces the target atomically; Foundation's replaceItemAt is not reliable on Linux.
        guard rename(temporary.path, url.path) == 0 else {
            try? manager.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown)
        }
    }
}
