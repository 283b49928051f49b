import Foundation
import HoldfastProtocol

/// Reads and writes `TetheringState` in `SecureStorage`, one item per application id. `nil` means *absent*; an
/// unavailable store throws `SECURE_STORAGE_UNAVAILABLE` — it is never read as absent.
struct TetheringStore: Sendable {
    let storage: any SecureStorage
    let applicationId: String

    var itemKey: String { "holdfast.tethering.v1." + applicationId }

    func load() async throws(HoldfastError) -> TetheringState? {
        let bytes: [UInt8]?
        do { bytes = try await storage.read(itemKey) } catch { throw HoldfastError.storage(error) }
        guard let bytes else { return nil }
        do {
            return try HoldfastJSON.decode(TetheringState.self, from: Data(bytes))
        } catch {
            throw HoldfastError(.secureStorageCorrupted, "the tethering state of \(applicationId) does not decode")
        }
    }

    func save(_ state: TetheringState) async throws(HoldfastError) {
        let data: Data
        do { data = try HoldfastJSON.encode(state) } catch {
            throw HoldfastError(.secureStorageCorrupted, "cannot encode the tethering state")
        }
        do { try await storage.write(itemKey, value: [UInt8](data)) } catch { throw HoldfastError.storage(error) }
    }

    func delete() async throws(HoldfastError) {
        do { try await storage.delete(itemKey) } catch { throw HoldfastError.storage(error) }
    }

    /// The two aliases an application's instance key alternates between, so that a new key (registration or
    /// rotation) never overwrites the key in use, and a key left by a failed or interrupted attempt is overwritten
    /// by the next one.
    func keyAliases() -> (String, String) {
        ("holdfast.instance.\(applicationId).a", "holdfast.instance.\(applicationId).b")
    }

    func candidateAlias(current: String?) -> String {
        let (first, second) = keyAliases()
        return current == first ? second : first
    }
}
