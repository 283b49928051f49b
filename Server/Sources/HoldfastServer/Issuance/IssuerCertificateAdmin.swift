import Foundation
import HoldfastAdmin
import Logging

/// The issuer certificates as administrators see them: the IACA list and rotation (docs/server-api.md "Credentials").
public enum IssuerCertificateAdmin {
    /// Every IACA that is not retired, the active one first.
    public static func iacas(_ certificates: IssuerCertificates) -> MobileIACAList {
        MobileIACAList(data: certificates.iacas.map {
            MobileIACA(id: $0.id, certificatePem: $0.pem, notBefore: $0.notBefore, notAfter: $0.notAfter,
                       active: $0.status == .active)
        })
    }

    /// The issuer certificates stored in `database` (`holdfast admin`, `AdminServices`), made first as the server's
    /// first start would when there are none yet.
    static func loadOrCreate(configuration: HoldfastConfiguration, database: HoldfastDatabase, now: Date,
                                     logger: Logger) async throws -> IssuerCertificates {
        let masterKey = try MasterKey.load(configuration.masterKey)
        return try await database.withStartupLock { session in
            try await IssuerCertificates.loadOrCreate(on: IssuerCertificateStore.Session(session), masterKey: masterKey,
                                                      configuration: configuration.issuance, now: now, logger: logger)
        }
    }

    /// New document and status list signers, and with `newIACA` a new IACA issuing them; what they replace stays
    /// published. Every node uses the new ones within `IssuerCertificateStore.refreshInterval`.
    public static func rotate(configuration: HoldfastConfiguration, database: HoldfastDatabase, newIACA: Bool,
                              now: Date, logger: Logger) async throws -> IssuerCertificates {
        _ = try await loadOrCreate(configuration: configuration, database: database, now: now, logger: logger)
        let masterKey = try MasterKey.load(configuration.masterKey)
        let rotated = try await IssuerCertificates.rotate(database, masterKey: masterKey, configuration: configuration.issuance,
                                                          newIACA: newIACA, now: now)
        logger.info("issuer certificates rotated", metadata: [
            "iaca": .string(rotated.iaca.id), "documentSigner": .string(rotated.documentSigner.id),
            "statusListSigner": .string(rotated.statusListSigner.id),
        ])
        return rotated
    }
}
