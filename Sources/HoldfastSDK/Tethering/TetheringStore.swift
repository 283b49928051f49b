import Foundation
import HoldfastProtocol

/// Reads and writes `TetheringState` in `SecureStorage`, one item per application id, and beside it the record of a
/// revoked registration (`RevokedRegistration`). `nil` means *absent*; an unavailable store throws
/// `SECURE_STORAGE_UNAVAILABLE` — it is never read as absent.
struct TetheringStore: Sendable {
    let storage: any SecureStorage
    let applicationId: String

    var itemKey: String { "holdfast.tethering.v1." + applicationId }

    private var item: SecureStorageItem<TetheringState> {
        SecureStorageItem(storage: storage, key: itemKey, description: "the tethering state of \(applicationId)")
    }

    func load() async throws(HoldfastError) -> TetheringState? { try await item.load() }

    func save(_ state: TetheringState) async throws(HoldfastError) { try await item.save(state) }

    func delete() async throws(HoldfastError) { try await item.delete() }

    var revocationKey: String { "holdfast.tethering.revoked.v1." + applicationId }

    private var revocation: SecureStorageItem<RevokedRegistration> {
        SecureStorageItem(storage: storage, key: revocationKey, description: "the revoked registration of \(applicationId)")
    }

    func loadRevocation() async throws(HoldfastError) -> RevokedRegistration? { try await revocation.load() }

    func saveRevocation(_ revoked: RevokedRegistration) async throws(HoldfastError) { try await revocation.save(revoked) }

    func deleteRevocation() async throws(HoldfastError) { try await revocation.delete() }

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
