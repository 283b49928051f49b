import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The 256-bit key that encrypts the tenant's private keys in the database (DESIGN.md §4 "Keys"), from
/// `HOLDFAST_MASTER_KEY` or a key file in the data folder created on first start with mode 0600.
/// Its `description` never shows the key.
public struct MasterKey: Sendable, CustomStringConvertible {
    let key: SymmetricKey
    /// Where it came from, for start-up output.
    public let origin: String

    init(bytes: [UInt8], origin: String) {
        self.key = SymmetricKey(data: bytes)
        self.origin = origin
    }

    public var description: String { "MasterKey(\(origin))" }

    /// Loads the key, creating the key file (from `random`) when it does not exist yet.
    public static func load(_ source: HoldfastConfiguration.MasterKeySource,
                            random: any RandomSource = SystemRandomSource()) throws(KeyError) -> MasterKey {
        switch source {
        case .provided(let bytes):
            guard bytes.count == 32 else {
                throw KeyError.masterKeyUnusable("HOLDFAST_MASTER_KEY must be 32 bytes")
            }
            return MasterKey(bytes: bytes, origin: "HOLDFAST_MASTER_KEY")
        case .file(let path):
            if let existing = try read(path) { return existing }
            return try create(path, random: random)
        }
    }

    private static func read(_ path: String) throws(KeyError) -> MasterKey? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw KeyError.masterKeyUnusable("cannot read the master key file \(path)")
        }
        guard let data = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)), data.count == 32 else {
            throw KeyError.masterKeyUnusable("the master key file \(path) does not hold the base64 of 32 bytes")
        }
        return MasterKey(bytes: Array(data), origin: "key file \(path)")
    }

    /// `O_CREAT | O_EXCL` with mode 0600: the key is never readable by others, and of two processes starting
    /// at once one creates the file and the other reads it.
    private static func create(_ path: String, random: any RandomSource) throws(KeyError) -> MasterKey {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
        } catch {
            throw KeyError.masterKeyUnusable("cannot create the data folder \(directory.path)")
        }
        let bytes = random.bytes(32)
        let descriptor = createExclusive(path)
        guard descriptor >= 0 else {
            if errno == EEXIST, let existing = try read(path) { return existing }
            throw KeyError.masterKeyUnusable("cannot create the master key file \(path)")
        }
        let line = Array((Data(bytes).base64EncodedString() + "\n").utf8)
        let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == line.count, synced == 0 else {
            throw KeyError.masterKeyUnusable("cannot write the master key file \(path)")
        }
        return MasterKey(bytes: bytes, origin: "key file \(path) (created)")
    }

    /// AES-256-GCM; `context` is bound as associated data so a ciphertext moved to another row fails.
    func seal(_ plaintext: [UInt8], context: String) throws -> [UInt8] {
        let box = try AES.GCM.seal(plaintext, using: key, authenticating: Array(context.utf8))
        guard let combined = box.combined else { throw CryptoKitError.incorrectParameterSize }
        return Array(combined)
    }

    func open(_ ciphertext: [UInt8], context: String) throws -> [UInt8] {
        let box = try AES.GCM.SealedBox(combined: ciphertext)
        return Array(try AES.GCM.open(box, using: key, authenticating: Array(context.utf8)))
    }
}

/// `open(2)` with `O_CREAT | O_EXCL`, mode 0600 (outside `MasterKey`, whose `open` decrypts).
private func createExclusive(_ path: String) -> Int32 {
    open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
}
