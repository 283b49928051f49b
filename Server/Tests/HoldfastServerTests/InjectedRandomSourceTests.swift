import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastServer
import Testing

/// DESIGN §4 "Randomness": admin keys, issuance and status lists draw every id, secret, code and index from the
/// `RandomSource` they are given (a scripted one here, so that each drawn value is known), none from the system's
/// generator behind its back.
@Suite struct InjectedRandomSourceTests {
    static let zeroUUID = "00000000-0000-4000-8000-000000000000"

    @Test func adminKeysIssuanceAndStatusListsDrawFromTheSourceTheyAreGiven() async throws {
        try await StorageBackend.sqlite.withConfiguration { configuration in
            try await TestServices.with(configuration) { services in
                let zero = RandomSourceTests.ScriptedSource(byte: 0)
                let now = Date(timeIntervalSince1970: 1_800_000_000)

                let keys = AdminKeyService(database: services.database, logger: StorageBackend.quietLogger, random: zero)
                let key = try await keys.create(name: "scripted", now: now)
                #expect(key.adminKey.id == String(repeating: "0", count: 24))
                #expect(key.key == "hfk_" + String(repeating: "0", count: 24) + "_" + String(repeating: "0", count: 64))
                #expect(try await keys.authenticate(token: key.key, now: now).id == key.adminKey.id)

                let issuance = IssuanceServices(database: services.database, masterKey: services.masterKey,
                                                certificates: services.issuerCertificates, random: zero,
                                                publicURL: { "https://issuer.example" })
                let created = try await issuance.configurations.create(
                    CredentialConfiguration(docType: "org.example.scripted", display: CredentialDisplay(name: "Scripted")), now: now)
                #expect(created.id == Self.zeroUUID)
                let offer = try await issuance.offers.create(
                    CredentialOfferRequest(configurationId: Self.zeroUUID, claims: ["org.example": ["given_name": .string("Ada")]],
                                           txCode: .init(length: 6)), now: now)
                #expect(offer.id == Self.zeroUUID)
                #expect(offer.txCode == "000000")

                let lists = issuance.statusLists
                let position = try await lists.store.transaction { transaction in try await lists.allocate(in: transaction, now: now) }
                #expect(position == StatusListPosition(listID: Self.zeroUUID, index: 0))
            }
        }
    }
}
