import Foundation
import HoldfastProtocol

/// One JSON value kept in `SecureStorage` under `key`. `nil` means *absent*; an unavailable store throws
/// `SECURE_STORAGE_UNAVAILABLE` and is never read as absent; a value that does not decode is
/// `SECURE_STORAGE_CORRUPTED`, named by `description` in the message.
struct SecureStorageItem<Value: Codable & Sendable>: Sendable {
    let storage: any SecureStorage
    let key: String
    /// What the value is, for messages ("the tethering state of <application>").
    let description: String

    func load() async throws(HoldfastError) -> Value? {
        let bytes: [UInt8]?
        do { bytes = try await storage.read(key) } catch { throw HoldfastError.storage(error) }
        guard let bytes else { return nil }
        do {
            return try HoldfastJSON.decode(Value.self, from: Data(bytes))
        } catch {
            throw HoldfastError(.secureStorageCorrupted, "\(description) does not decode")
        }
    }

    func save(_ value: Value) async throws(HoldfastError) {
        let data: Data
        do { data = try HoldfastJSON.encode(value) } catch {
            throw HoldfastError(.secureStorageCorrupted, "cannot encode \(description)")
        }
        do { try await storage.write(key, value: [UInt8](data)) } catch { throw HoldfastError.storage(error) }
    }

    func delete() async throws(HoldfastError) {
        do { try await storage.delete(key) } catch { throw HoldfastError.storage(error) }
    }
}
