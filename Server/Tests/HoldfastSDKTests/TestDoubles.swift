import Foundation
import HoldfastProtocol
@testable import HoldfastSDK

/// An in-memory `SecureStorage` that can be made unavailable, or made to fail writes of chosen items (a "crash"
/// before the write).
actor MemorySecureStorage: SecureStorage {
    private var items: [String: [UInt8]] = [:]
    var unavailable = false
    var failingWritePrefixes: [String] = []

    func read(_ key: String) async throws(SecureStorageError) -> [UInt8]? {
        if unavailable { throw .unavailable("device locked") }
        return items[key]
    }

    func write(_ key: String, value: [UInt8]) async throws(SecureStorageError) {
        if unavailable { throw .unavailable("device locked") }
        if failingWritePrefixes.contains(where: { key.hasPrefix($0) }) { throw .unavailable("crashed before the write") }
        items[key] = value
    }

    func delete(_ key: String) async throws(SecureStorageError) {
        if unavailable { throw .unavailable("device locked") }
        items[key] = nil
    }

    func setUnavailable(_ value: Bool) { unavailable = value }
    func failWrites(withPrefix prefix: String?) { failingWritePrefixes = prefix.map { [$0] } ?? [] }
    func keys() -> [String] { items.keys.sorted() }
}

/// Records the backoff delays instead of waiting.
actor RecordingSleeper: Sleeper {
    private(set) var delays: [Double] = []
    func sleep(seconds: Double) async throws { delays.append(seconds) }
}

/// A scripted App Attest: the "attestation object" is `FAKE-ATTEST` ‖ clientDataHash and the "assertion" is
/// `FAKE-ASSERT` ‖ clientDataHash, which `FakeTenant` checks against the nonce it recomputes.
actor ScriptedAttestation: PlatformAttestation {
    static let attestPrefix = Array("FAKE-ATTEST".utf8)
    static let assertPrefix = Array("FAKE-ASSERT".utf8)
    var failuresBeforeSuccess = 0
    var unavailable = false
    /// Attestations that answer "not right now" (Apple's service unreachable) before the platform attests again.
    var temporarilyUnavailableTimes = 0
    private(set) var attestCalls = 0
    private(set) var assertCalls = 0

    init(failuresBeforeSuccess: Int = 0, unavailable: Bool = false, temporarilyUnavailableTimes: Int = 0) {
        self.failuresBeforeSuccess = failuresBeforeSuccess
        self.unavailable = unavailable
        self.temporarilyUnavailableTimes = temporarilyUnavailableTimes
    }

    func attestKey(clientDataHash: [UInt8]) async throws(PlatformAttestationError) -> PlatformAttestationPayload {
        attestCalls += 1
        if unavailable { throw .unavailable("scripted") }
        if temporarilyUnavailableTimes > 0 {
            temporarilyUnavailableTimes -= 1
            throw .temporarilyUnavailable("scripted: the attestation service cannot be reached")
        }
        if failuresBeforeSuccess > 0 {
            failuresBeforeSuccess -= 1
            throw .failed("scripted failure")
        }
        return .appAttest(attestationObject: Self.attestPrefix + clientDataHash, keyId: [UInt8](repeating: 7, count: 32))
    }

    func generateAssertion(keyId: [UInt8], clientDataHash: [UInt8]) async throws(PlatformAttestationError) -> [UInt8] {
        assertCalls += 1
        return Self.assertPrefix + clientDataHash
    }
}
