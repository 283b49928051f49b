import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE
import SQLKit

/// SQL for SCA wallets (docs/server-api.md "SCA wallet (back end)"): `sca_wallets`, their events (`sca_events`) and the wrong activation
/// codes per hour over all sources (`sca_activation_failures`, counted, never a stop). A change that must go with its events is made in one
/// `transaction`, whose `Transaction` reads the wallet's row for update first (PostgreSQL `FOR UPDATE`; SQLite's
/// `BEGIN IMMEDIATE` already serialises writers), so that two changes racing never count as one.
struct SCAWalletStore: TransactionalStore {
    let database: HoldfastDatabase

    /// A wallet as a new one is stored: pending, with the hash and selector of its one-time code.
    struct NewWallet: Sendable {
        let id: String
        let applicationId: String
        let userId: String
        let accessProtection: SCAAccessProtection
        let maxPinAttempts: Int
        let activationCodeHash: String
        let activationSelector: String?
        let activationExpiresAt: Date
        let createdAt: Date
    }

    /// The columns of a pending activation that its code is checked against.
    struct PendingActivation: Sendable {
        let walletId: String
        let applicationId: String
        let userId: String
        let accessProtection: SCAAccessProtection
        let maxPinAttempts: Int
        let state: SCAWalletState
        let activationCodeHash: String?
        let activationExpiresAt: Date
        let activationFailures: Int64
    }

    /// An activated wallet's device, as the eligibility rules judge it.
    struct ActivatedDevice: Sendable {
        let walletId: String
        let applicationId: String
        let model: String?
        let appVersion: String?
    }

    // MARK: wallets

    /// Stores a new wallet; returns its activation's expiry as stored (to the millisecond).
    @discardableResult
    func insert(_ wallet: NewWallet) async throws -> Date {
        let expires = Timestamp.milliseconds(wallet.activationExpiresAt)
        try await database.sql.insert(into: "sca_wallets")
            .columns("id", "application_id", "user_id", "state", "access_protection", "max_pin_attempts", "pin_attempts_left",
                     "activation_code_hash", "activation_selector", "activation_expires_at", "created_at")
            .values(SQLBind(wallet.id), SQLBind(wallet.applicationId), SQLBind(wallet.userId), SQLBind(SCAWalletState.pending.rawValue),
                    SQLBind(wallet.accessProtection.rawValue), SQLBind(Int64(wallet.maxPinAttempts)), SQLBind(Int64(wallet.maxPinAttempts)),
                    SQLBind(wallet.activationCodeHash), SQLBind(wallet.activationSelector),
                    SQLBind(expires), SQLBind(Timestamp.milliseconds(wallet.createdAt)))
            .run()
        return Timestamp.date(expires)
    }

    /// The wallet with this id, or nil.
    func wallet(id: String) async throws -> SCAWallet? {
        guard ResourceID.isValid(id) else { return nil }
        return try await database.sql.select().column("*").from("sca_wallets").where("id", .equal, id).first().map(Self.wallet)
    }

    /// A user's wallets, by id, at most `limit`.
    func wallets(userId: String, limit: Int) async throws -> [SCAWallet] {
        try await database.sql.select().column("*").from("sca_wallets").where("user_id", .equal, userId)
            .orderBy("id").limit(limit).all().map(Self.wallet)
    }

    /// What a device call or a proof is checked against: the wallet's state, its keys and its device.
    struct Credential: Sendable {
        let userId: String
        let applicationId: String
        let state: SCAWalletState
        /// The wallet key (possession): the device's calls and `none` proofs.
        let publicKey: String?
        /// The key of `pin` proofs, and of `biometry` proofs (docs/DESIGN.md "The SCA wallet's PIN").
        let pinKey: String?
        let biometryKey: String?
        let deviceModel: String?
        let appVersion: String?
    }

    /// A wallet's state, keys and device; nil for an unknown wallet.
    func credential(walletId: String) async throws -> Credential? {
        guard ResourceID.isValid(walletId),
              let row = try await database.sql.select()
                .columns("user_id", "application_id", "state", "public_key", "pin_key", "biometry_key", "device_model", "app_version")
                .from("sca_wallets").where("id", .equal, walletId).first() else { return nil }
        return Credential(userId: try row.decode(column: "user_id", as: String.self),
                          applicationId: try row.decode(column: "application_id", as: String.self),
                          state: SCAWalletState(rawValue: try row.decode(column: "state", as: String.self)),
                          publicKey: try row.decode(column: "public_key", as: String?.self),
                          pinKey: try row.decode(column: "pin_key", as: String?.self),
                          biometryKey: try row.decode(column: "biometry_key", as: String?.self),
                          deviceModel: try row.decode(column: "device_model", as: String?.self),
                          appVersion: try row.decode(column: "app_version", as: String?.self))
    }

    /// The proof counter moved to `counter` when the wallet is active and its last accepted counter is below it, in one
    /// conditional update (the common case of a proof verification); false otherwise.
    func advanceProofCounter(walletId: String, to counter: Int64) async throws -> Bool {
        !(try await database.sql.raw("""
            UPDATE sca_wallets SET proof_counter = \(bind: counter) \
            WHERE id = \(bind: walletId) AND state = 'active' AND proof_counter < \(bind: counter) RETURNING id
            """).all()).isEmpty
    }

    /// A page of the activated (active or locked) wallets' devices, by id after `after`.
    func activatedDevices(after: String, limit: Int) async throws -> [ActivatedDevice] {
        try await database.sql.raw("""
            SELECT id, application_id, device_model, app_version FROM sca_wallets \
            WHERE state IN ('active', 'locked') AND id > \(bind: after) ORDER BY id LIMIT \(bind: limit)
            """).all().map { row in
            ActivatedDevice(walletId: try row.decode(column: "id", as: String.self),
                            applicationId: try row.decode(column: "application_id", as: String.self),
                            model: try row.decode(column: "device_model", as: String?.self),
                            appVersion: try row.decode(column: "app_version", as: String?.self))
        }
    }

    // MARK: events

    /// The wallet's events after `after` (a sequence number), oldest first.
    func events(walletId: String, after: Int64, limit: Int) async throws -> [SCAEvent] {
        try await database.sql.raw("""
            SELECT sequence, type, data, created_at FROM sca_events WHERE wallet_id = \(bind: walletId) AND sequence > \(bind: after) \
            ORDER BY sequence LIMIT \(bind: limit)
            """).all().map { row in
            SCAEvent(id: try row.decode(column: "sequence", as: Int64.self), type: SCAEventType(rawValue: try row.decode(column: "type", as: String.self)),
                     data: try JSONValue(json: Array(try row.decode(column: "data", as: String.self).utf8)),
                     createdAt: Timestamp.date(try row.decode(column: "created_at", as: Int64.self)))
        }
    }

    // MARK: activation

    /// The activations a code may be for: those of its selector, or, for a code without one (made before selectors),
    /// those of its hash.
    func activations(selector: String?, codeHash: String) async throws -> [PendingActivation] {
        let query = database.sql.select()
            .columns("id", "application_id", "user_id", "access_protection", "max_pin_attempts", "activation_expires_at", "state",
                     "activation_code_hash", "activation_failures")
            .from("sca_wallets")
        let rows = if let selector {
            try await query.where("activation_selector", .equal, selector).all()
        } else {
            try await query.where("activation_code_hash", .equal, codeHash).all()
        }
        return try rows.map { row in
            PendingActivation(
                walletId: try row.decode(column: "id", as: String.self),
                applicationId: try row.decode(column: "application_id", as: String.self),
                userId: try row.decode(column: "user_id", as: String.self),
                accessProtection: SCAAccessProtection(rawValue: try row.decode(column: "access_protection", as: String.self)),
                maxPinAttempts: Int(try row.decode(column: "max_pin_attempts", as: Int64.self)),
                state: SCAWalletState(rawValue: try row.decode(column: "state", as: String.self)),
                activationCodeHash: try row.decode(column: "activation_code_hash", as: String?.self),
                activationExpiresAt: Timestamp.date(try row.decode(column: "activation_expires_at", as: Int64.self)),
                activationFailures: try row.decode(column: "activation_failures", as: Int64.self))
        }
    }

    /// The hour `date` falls in, counted from 1970: what wrong codes are counted per (`recordActivationFailure`).
    static func activationHour(of date: Date) -> Int64 {
        Timestamp.milliseconds(date) / 3_600_000
    }

    /// When `hour` (an `activationHour`) ends.
    static func end(ofActivationHour hour: Int64) -> Date {
        Timestamp.date((hour + 1) * 3_600_000)
    }

    /// One wrong code: in `hour`'s count over all sources (hours older than a day are dropped) and, with `selector`,
    /// against its pending activations. Returns the hour's count with this one.
    @discardableResult
    func recordActivationFailure(hour: Int64, selector: String?) async throws -> Int64 {
        let count = try await database.sql.raw("""
            INSERT INTO sca_activation_failures (hour, failures) VALUES (\(bind: hour), 1) \
            ON CONFLICT (hour) DO UPDATE SET failures = sca_activation_failures.failures + 1 RETURNING failures
            """).first()?.decode(column: "failures", as: Int64.self) ?? 1
        try await database.sql.raw("DELETE FROM sca_activation_failures WHERE hour < \(bind: hour - 24)").run()
        if let selector {
            try await database.sql.raw("""
                UPDATE sca_wallets SET activation_failures = activation_failures + 1 \
                WHERE activation_selector = \(bind: selector) AND state = 'pending'
                """).run()
        }
        return count
    }

    // MARK: transactions

    /// The statements a wallet change is made of, on one transaction's connection.
    struct Transaction: StoreTransaction {
        let db: any SQLDatabase
        let dialect: HoldfastDatabase.Dialect

        init(session: HoldfastDatabase.Session, dialect: HoldfastDatabase.Dialect) {
            (db, self.dialect) = (session, dialect)
        }

        /// The columns a change decides on, the wallet's row held until the transaction ends.
        struct LockedWallet: Sendable {
            let state: SCAWalletState
            let pinAttemptsLeft: Int64
            let maxPinAttempts: Int64
            let accessProtection: SCAAccessProtection
            /// SHA-256 (hex) of the PIN secret; nil while no PIN is set.
            let pinVerifier: String?
            /// The key share sealed with the master key (`SCADeviceService.sealKeyShare`).
            let sealedKeyShare: [UInt8]?
            let biometryKey: String?
            let proofCounter: Int64
        }

        /// The wallet's row, held until the transaction ends; nil for an unknown wallet.
        func walletForUpdate(id: String) async throws -> LockedWallet? {
            let lock = dialect == .postgresql ? " FOR UPDATE" : ""
            guard let row = try await db.raw("""
                SELECT state, pin_attempts_left, max_pin_attempts, access_protection, pin_verifier, key_share_sealed, biometry_key, proof_counter \
                FROM sca_wallets WHERE id = \(bind: id)\(unsafeRaw: lock)
                """).first() else { return nil }
            return LockedWallet(state: SCAWalletState(rawValue: try row.decode(column: "state", as: String.self)),
                                pinAttemptsLeft: try row.decode(column: "pin_attempts_left", as: Int64.self),
                                maxPinAttempts: try row.decode(column: "max_pin_attempts", as: Int64.self),
                                accessProtection: SCAAccessProtection(rawValue: try row.decode(column: "access_protection", as: String.self)),
                                pinVerifier: try row.decode(column: "pin_verifier", as: String?.self),
                                sealedKeyShare: try row.decode(column: "key_share_sealed", as: Data?.self).map(Array.init),
                                biometryKey: try row.decode(column: "biometry_key", as: String?.self),
                                proofCounter: try row.decode(column: "proof_counter", as: Int64.self))
        }

        /// The customer's credentials as enrolled (all nil: none, after a reset or a new protection); the attempts
        /// back to the maximum.
        func setCredentials(id: String, pinVerifier: String?, sealedKeyShare: [UInt8]?, pinKey: String?, biometryKey: String?) async throws {
            try await db.raw("""
                UPDATE sca_wallets SET pin_verifier = \(bind: pinVerifier), key_share_sealed = \(bind: sealedKeyShare.map { Data($0) }), \
                pin_key = \(bind: pinKey), \
                biometry_key = \(bind: biometryKey), pin_attempts_left = max_pin_attempts WHERE id = \(bind: id)
                """).run()
        }

        func setProofCounter(id: String, _ counter: Int64) async throws {
            try await db.raw("UPDATE sca_wallets SET proof_counter = \(bind: counter) WHERE id = \(bind: id)").run()
        }

        func wallet(id: String) async throws -> SCAWallet? {
            try await db.select().column("*").from("sca_wallets").where("id", .equal, id).first().map(SCAWalletStore.wallet)
        }

        func lock(id: String, reason: SCALockReason) async throws {
            try await db.raw("UPDATE sca_wallets SET state = 'locked', lock_reason = \(bind: reason.rawValue) WHERE id = \(bind: id)").run()
        }

        /// Active again, its PIN attempts back to the maximum.
        func unlock(id: String) async throws {
            try await db.raw("""
                UPDATE sca_wallets SET state = 'active', lock_reason = NULL, pin_attempts_left = max_pin_attempts WHERE id = \(bind: id)
                """).run()
        }

        func setAccessProtection(id: String, _ protection: SCAAccessProtection) async throws {
            try await db.raw("UPDATE sca_wallets SET access_protection = \(bind: protection.rawValue) WHERE id = \(bind: id)").run()
        }

        /// A new maximum; the attempts left are lowered to it when above.
        func setMaxPinAttempts(id: String, _ attempts: Int) async throws {
            try await db.raw("""
                UPDATE sca_wallets SET max_pin_attempts = \(bind: Int64(attempts)), \
                pin_attempts_left = CASE WHEN pin_attempts_left > \(bind: Int64(attempts)) THEN \(bind: Int64(attempts)) ELSE pin_attempts_left END \
                WHERE id = \(bind: id)
                """).run()
        }

        /// Kept as `deleted`, its activation code forgotten.
        func markDeleted(id: String, at date: Date) async throws {
            try await db.raw("""
                UPDATE sca_wallets SET state = 'deleted', activation_code_hash = NULL, deleted_at = \(bind: Timestamp.milliseconds(date)) \
                WHERE id = \(bind: id)
                """).run()
        }

        /// The attempts left and, with `lockReason`, the wallet locked for it (otherwise active).
        func setPinAttemptsLeft(id: String, _ left: Int64, lockReason: SCALockReason?) async throws {
            try await db.raw("""
                UPDATE sca_wallets SET pin_attempts_left = \(bind: left), state = \(bind: (lockReason == nil ? SCAWalletState.active : .locked).rawValue), \
                lock_reason = \(bind: lockReason?.rawValue) WHERE id = \(bind: id)
                """).run()
        }

        /// Spends the code and stores the wallet's key, on condition that the code is still this wallet's, the wallet
        /// pending and its activation not locked; false when it was not (another activation won, or it was locked).
        func activate(walletId: String, codeHash: String, publicKey: String, attestationType: String, deviceModel: String?, appVersion: String?,
                      at date: Date, maximumFailures: Int64) async throws -> Bool {
            let stamp = Timestamp.milliseconds(date)
            return !(try await db.raw("""
                UPDATE sca_wallets SET state = 'active', activation_code_hash = NULL, activation_selector = NULL, \
                public_key = \(bind: publicKey), \
                attestation_type = \(bind: attestationType), device_model = \(bind: deviceModel), \
                app_version = \(bind: appVersion), activated_at = \(bind: stamp) \
                WHERE id = \(bind: walletId) AND activation_code_hash = \(bind: codeHash) AND state = 'pending' \
                AND activation_failures < \(bind: maximumFailures) RETURNING id
                """).all()).isEmpty
        }

        /// An event for the wallet's device.
        func appendEvent(walletId: String, type: SCAEventType, data: [String: JSONValue], now: Date) async throws {
            try await db.insert(into: "sca_events").columns("wallet_id", "type", "data", "created_at")
                .values(SQLBind(walletId), SQLBind(type), SQLBind(String(decoding: try JSONValue.object(data).jsonBytes(), as: UTF8.self)),
                        SQLBind(Timestamp.milliseconds(now)))
                .run()
        }
    }

    static func wallet(_ row: any SQLRow) throws -> SCAWallet {
        let key = try row.decode(column: "public_key", as: String?.self)
        let jwk = try key.flatMap { try? InstancePublicKey(encoded: $0) }.map { publicKey in
            try JSONValue(json: Array(JSONEncoder().encode(publicKey.jwk)))
        }
        let model = try row.decode(column: "device_model", as: String?.self)
        let version = try row.decode(column: "app_version", as: String?.self)
        return SCAWallet(
            id: try row.decode(column: "id", as: String.self),
            applicationId: try row.decode(column: "application_id", as: String.self),
            userId: try row.decode(column: "user_id", as: String.self),
            state: SCAWalletState(rawValue: try row.decode(column: "state", as: String.self)),
            accessProtection: SCAAccessProtection(rawValue: try row.decode(column: "access_protection", as: String.self)),
            maxPinAttempts: Int(try row.decode(column: "max_pin_attempts", as: Int64.self)),
            pinAttemptsLeft: Int(try row.decode(column: "pin_attempts_left", as: Int64.self)),
            publicKeyJwk: jwk, lockReason: try row.decode(column: "lock_reason", as: String?.self).map(SCALockReason.init(rawValue:)),
            createdAt: Timestamp.date(try row.decode(column: "created_at", as: Int64.self)),
            activatedAt: try row.decode(column: "activated_at", as: Int64?.self).map(Timestamp.date),
            device: model == nil && version == nil ? nil : SCAWallet.Device(model: model, appVersion: version))
    }
}
