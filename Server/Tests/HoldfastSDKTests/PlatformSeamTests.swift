import Crypto
import Foundation
import HoldfastProtocol
import HoldfastSDK
import Testing

@Suite struct FileSecureStorageTests {
    private func freshDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-sdk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func absentItemReadsAsNil() async throws {
        let storage = FileSecureStorage(directory: try freshDirectory(), applicationId: "app")
        #expect(try await storage.read("instance") == nil)
    }

    @Test func writtenItemSurvivesANewInstance() async throws {
        let directory = try freshDirectory()
        try await FileSecureStorage(directory: directory, applicationId: "app").write("instance", value: [1, 2, 3])
        #expect(try await FileSecureStorage(directory: directory, applicationId: "app").read("instance") == [1, 2, 3])
    }

    /// A process killed after it wrote the new file but before it renamed it over the old one leaves the old
    /// contents whole: the half-written file is never read.
    @Test func aKillBeforeTheRenameLosesNothingStored() async throws {
        let directory = try freshDirectory()
        try await FileSecureStorage(directory: directory, applicationId: "app").write("credential-1", value: [1, 2, 3])
        let sealed = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasSuffix(".sealed") })
        let stray = directory.appendingPathComponent(".\(sealed).\(UUID().uuidString)")
        try Data([UInt8](repeating: 0x42, count: 37)).write(to: stray)  // what the killed writer got to write
        let reopened = FileSecureStorage(directory: directory, applicationId: "app")
        #expect(try await reopened.read("credential-1") == [1, 2, 3])
        try await reopened.write("credential-2", value: [4])
        #expect(try await FileSecureStorage(directory: directory, applicationId: "app").read("credential-1") == [1, 2, 3])
    }

    @Test func itemsAreSealedOnDisk() async throws {
        let directory = try freshDirectory()
        let secret = Array("a-secret-license-token".utf8)
        try await FileSecureStorage(directory: directory, applicationId: "app").write("token", value: secret)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(file)))
            #expect(bytes.firstRange(of: secret) == nil, "\(file) holds the secret in clear")
        }
    }

    @Test func applicationsDoNotShareItems() async throws {
        let directory = try freshDirectory()
        try await FileSecureStorage(directory: directory, applicationId: "one").write("instance", value: [1])
        #expect(try await FileSecureStorage(directory: directory, applicationId: "two").read("instance") == nil)
    }

    @Test func deleteRemovesAndDeletingTwiceIsFine() async throws {
        let storage = FileSecureStorage(directory: try freshDirectory(), applicationId: "app")
        try await storage.write("k", value: [9])
        try await storage.delete("k")
        try await storage.delete("k")
        #expect(try await storage.read("k") == nil)
    }

    /// A damaged file is *corrupted*, never *absent*: the SDK must not take it for a fresh install.
    @Test func tamperedFileIsCorruptedNotAbsent() async throws {
        let directory = try freshDirectory()
        try await FileSecureStorage(directory: directory, applicationId: "app").write("instance", value: [1, 2, 3])
        let file = directory.appendingPathComponent("secure-storage-app.sealed")
        var bytes = try Data(contentsOf: file)
        bytes[bytes.count - 1] ^= 0x01
        try bytes.write(to: file)
        await #expect(throws: SecureStorageError.self) {
            try await FileSecureStorage(directory: directory, applicationId: "app").read("instance")
        }
    }

    /// A store whose file cannot be read answers *unavailable*, never *absent*.
    @Test func unreadableStoreIsUnavailableNotAbsent() async throws {
        let directory = try freshDirectory()
        // A directory where the sealed file should be: it exists but cannot be read as a file.
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("secure-storage-app.sealed"),
                                                withIntermediateDirectories: true)
        let storage = FileSecureStorage(directory: directory, applicationId: "app")
        do {
            _ = try await storage.read("instance")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == "SECURE_STORAGE_UNAVAILABLE")
        }
    }
}

@Suite struct SoftwareSecureAreaTests {
    private func area() throws -> SoftwareSecureArea {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-sa-\(UUID().uuidString)")
        return SoftwareSecureArea(storage: FileSecureStorage(directory: url, applicationId: "app"))
    }

    @Test func signatureVerifiesWithThePublicKey() async throws {
        let area = try area()
        let publicKey = try await area.createKey(alias: "device")
        let message = Array("binding nonce".utf8)
        let signature = try await area.sign(message, alias: "device")
        #expect(publicKey.isValidSignature(signature, for: message))
        #expect(try await area.publicKey(alias: "device")?.rawRepresentation == publicKey.rawRepresentation)
    }

    @Test func createReplacesTheKeyOfTheAlias() async throws {
        let area = try area()
        let first = try await area.createKey(alias: "device")
        let second = try await area.createKey(alias: "device")
        #expect(first.rawRepresentation != second.rawRepresentation)
        let signature = try await area.sign([1], alias: "device")
        #expect(!first.isValidSignature(signature, for: [1]))
    }

    @Test func signingWithAMissingKeyFails() async throws {
        let area = try area()
        await #expect(throws: SecureAreaError.keyNotFound("nope")) { try await area.sign([1], alias: "nope") }
    }

    @Test func deletedKeyIsGone() async throws {
        let area = try area()
        _ = try await area.createKey(alias: "device")
        try await area.deleteKey(alias: "device")
        #expect(try await area.publicKey(alias: "device") == nil)
    }
}

@Suite struct ManualClockTests {
    @Test func movesOnlyWhenTold() {
        let clock = ManualClock(Date(timeIntervalSince1970: 100))
        #expect(clock.now() == Date(timeIntervalSince1970: 100))
        clock.advance(by: 50)
        #expect(clock.now() == Date(timeIntervalSince1970: 150))
    }
}
