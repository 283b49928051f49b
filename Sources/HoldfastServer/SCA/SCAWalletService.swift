import Attestation
import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import HTTPTypes
import JOSE
import Logging
import SQLKit

/// SCA wallets on the tenant (README "SCA wallet"): made by the bank's back end for one of its users, activated once
/// by a device with the one-time code (the wallet key registered the way an instance key is: one challenge, one
/// binding nonce, one evidence verifier), then locked, unlocked, reset or deleted by the back end. Every change is
/// an event for the wallet's device (`sca_events`).
struct SCAWalletService: Sendable {
    static let defaultMaxPinAttempts = 3
    static let maxPinAttemptsRange = 1...10
    static let lockReasons: Set<String> = ["LOST_DEVICE", "STOLEN_DEVICE", "FRAUD_SUSPICION", "OTHER"]
    static let activationLifetime: TimeInterval = 900
    static let maximumUserIdLength = 255
    static let maximumDetailLength = 200
    static let maximumListed = 100
    static let maximumEventData = 4_096

    let database: HoldfastDatabase
    let applications: HolderApplicationService
    let logger: Logger

    // MARK: the back end's operations

    func create(_ request: SCAWalletCreateRequest, now: Date) async throws -> SCAWalletCreated {
        var errors: [ProblemDetails.FieldError] = []
        if request.userId.isEmpty || request.userId.unicodeScalars.count > Self.maximumUserIdLength
            || request.userId.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            errors.append(.init(field: "userId", code: ProblemDetails.FieldError.invalidValue,
                                detail: "1 to \(Self.maximumUserIdLength) characters, no control characters"))
        }
        let protection = request.settings?.accessProtection ?? .pin
        if !protection.isKnown {
            errors.append(.init(field: "settings.accessProtection", code: ProblemDetails.FieldError.invalidValue,
                                detail: #""pin", "biometric" or "none""#))
        }
        let attempts = request.settings?.maxPinAttempts ?? Self.defaultMaxPinAttempts
        if !Self.maxPinAttemptsRange.contains(attempts) {
            errors.append(.init(field: "settings.maxPinAttempts", code: ProblemDetails.FieldError.outOfRange,
                                detail: "\(Self.maxPinAttemptsRange.lowerBound) to \(Self.maxPinAttemptsRange.upperBound)"))
        }
        guard errors.isEmpty else { throw ProblemError.validation(errors) }
        _ = try await applications.get(id: request.applicationId)
        let id = TetheringID.generate()
        let code = Self.activationCode()
        let expiresAt = Timestamp.milliseconds(now.addingTimeInterval(Self.activationLifetime))
        try await database.sql.insert(into: "sca_wallets")
            .columns("id", "application_id", "user_id", "state", "access_protection", "max_pin_attempts", "pin_attempts_left",
                     "activation_code_hash", "activation_selector", "activation_expires_at", "created_at")
            .values(SQLBind(id), SQLBind(request.applicationId), SQLBind(request.userId), SQLBind(SCAWalletState.pending.rawValue), SQLBind(protection.rawValue),
                    SQLBind(Int64(attempts)), SQLBind(Int64(attempts)), SQLBind(Self.hash(code)), SQLBind(Self.selector(of: code)),
                    SQLBind(expiresAt), SQLBind(Timestamp.milliseconds(now)))
            .run()
        logger.info("sca wallet created", metadata: ["wallet_id": .string(id), "application_id": .string(request.applicationId)])
        return SCAWalletCreated(walletId: id, activationCode: code, activationExpiresAt: Timestamp.date(expiresAt))
    }

    func get(id: String) async throws -> SCAWallet {
        guard TetheringID.isValid(id),
              let row = try await database.sql.select().column("*").from("sca_wallets").where("id", .equal, id).first() else {
            throw Self.notFound(id)
        }
        return try Self.wallet(row)
    }

    func list(userId: String) async throws -> SCAWalletList {
        let rows = try await database.sql.select().column("*").from("sca_wallets").where("user_id", .equal, userId)
            .orderBy("id").limit(Self.maximumListed).all()
        return SCAWalletList(data: try rows.map(Self.wallet))
    }

    /// Locks an active wallet (its proofs are refused until it is unlocked).
    func lock(id: String, reason: String, now: Date) async throws -> SCAWallet {
        guard Self.lockReasons.contains(reason) else {
            throw ProblemError.invalidField("reason", code: ProblemDetails.FieldError.invalidValue,
                                            detail: Self.lockReasons.sorted().joined(separator: ", "))
        }
        return try await change(id: id, from: [.active, .locked], event: .locked, data: ["reason": .string(reason)], now: now) { db in
            try await db.raw("UPDATE sca_wallets SET state = 'locked', lock_reason = \(bind: reason) WHERE id = \(bind: id)").run()
        }
    }

    /// Unlocks a wallet, its PIN attempts back to the maximum.
    func unlock(id: String, now: Date) async throws -> SCAWallet {
        try await change(id: id, from: [.active, .locked], event: .unlocked, data: [:], now: now) { db in
            try await db.raw("""
                UPDATE sca_wallets SET state = 'active', lock_reason = NULL, pin_attempts_left = max_pin_attempts WHERE id = \(bind: id)
                """).run()
        }
    }

    /// The customer's credentials are to be set again: the device asks for new ones at its next connection.
    func resetCredentials(id: String, now: Date) async throws -> SCAWallet {
        try await change(id: id, from: [.active, .locked], event: .credentialsReset, data: [:], now: now) { db in
            try await db.raw("UPDATE sca_wallets SET pin_attempts_left = max_pin_attempts WHERE id = \(bind: id)").run()
        }
    }

    /// Changes a wallet's settings (event `settingsUpdated` with the new ones). A new `accessProtection` means new
    /// credentials: the device asks the customer for them at its next connection. A lower `maxPinAttempts` lowers
    /// the attempts left with it.
    func updateSettings(id: String, _ settings: SCAWalletSettings, now: Date) async throws -> SCAWallet {
        var errors: [ProblemDetails.FieldError] = []
        if let protection = settings.accessProtection, !protection.isKnown {
            errors.append(.init(field: "accessProtection", code: ProblemDetails.FieldError.invalidValue, detail: #""pin", "biometric" or "none""#))
        }
        if let attempts = settings.maxPinAttempts, !Self.maxPinAttemptsRange.contains(attempts) {
            errors.append(.init(field: "maxPinAttempts", code: ProblemDetails.FieldError.outOfRange,
                                detail: "\(Self.maxPinAttemptsRange.lowerBound) to \(Self.maxPinAttemptsRange.upperBound)"))
        }
        if settings.accessProtection == nil, settings.maxPinAttempts == nil {
            errors.append(.init(field: "", code: ProblemDetails.FieldError.required, detail: "accessProtection or maxPinAttempts"))
        }
        guard errors.isEmpty else { throw ProblemError.validation(errors) }
        var data: [String: JSONValue] = [:]
        if let protection = settings.accessProtection { data["accessProtection"] = .string(protection.rawValue) }
        if let attempts = settings.maxPinAttempts { data["maxPinAttempts"] = .integer(Int64(attempts)) }
        return try await change(id: id, from: [.pending, .active, .locked], event: .settingsUpdated, data: data, now: now) { db in
            if let protection = settings.accessProtection {
                try await db.raw("UPDATE sca_wallets SET access_protection = \(bind: protection.rawValue) WHERE id = \(bind: id)").run()
            }
            if let attempts = settings.maxPinAttempts {
                try await db.raw("""
                    UPDATE sca_wallets SET max_pin_attempts = \(bind: Int64(attempts)), \
                    pin_attempts_left = CASE WHEN pin_attempts_left > \(bind: Int64(attempts)) THEN \(bind: Int64(attempts)) ELSE pin_attempts_left END \
                    WHERE id = \(bind: id)
                    """).run()
            }
        }
    }

    /// Tells the wallet's device that the customer's products (cards, accounts) changed, so that the app reloads
    /// them (event `productsUpdated`, with the bank's own `data`).
    func productsUpdated(id: String, data: JSONValue?, now: Date) async throws -> SCAWallet {
        if let data, data.objectValue == nil, data != .null {
            throw ProblemError.invalidField("data", code: ProblemDetails.FieldError.invalidValue, detail: "a JSON object")
        }
        if let data, try data.jsonBytes().count > Self.maximumEventData {
            throw ProblemError.invalidField("data", code: ProblemDetails.FieldError.tooLong, detail: "at most \(Self.maximumEventData) bytes")
        }
        return try await change(id: id, from: [.active, .locked], event: .productsUpdated, data: data?.objectValue ?? [:], now: now) { _ in }
    }

    /// Deletes a wallet: kept as `deleted`, so that its proofs are refused as such and its device learns it.
    func delete(id: String, now: Date) async throws {
        _ = try await change(id: id, from: [.pending, .active, .locked], event: .deleted, data: [:], now: now) { db in
            try await db.raw("""
                UPDATE sca_wallets SET state = 'deleted', activation_code_hash = NULL, deleted_at = \(bind: Timestamp.milliseconds(now)) \
                WHERE id = \(bind: id)
                """).run()
        }
    }

    /// One state change and its event, in one transaction; a wallet in another state is `409 CONFLICT`.
    private func change(id: String, from states: Set<SCAWalletState>, event: SCAEventType, data: [String: JSONValue], now: Date,
                        _ update: @escaping @Sendable (any SQLDatabase) async throws -> Void) async throws -> SCAWallet {
        guard TetheringID.isValid(id) else { throw Self.notFound(id) }
        let lock = database.dialect == .postgresql ? " FOR UPDATE" : ""
        return try await database.transaction { db in
            guard let row = try await db.raw("SELECT state FROM sca_wallets WHERE id = \(bind: id)\(unsafeRaw: lock)").first() else {
                throw Self.notFound(id)
            }
            let state = SCAWalletState(rawValue: try row.decode(column: "state", as: String.self))
            guard states.contains(state) else {
                throw ProblemError(status: .conflict, code: .conflict, title: "Wallet state", detail: "the wallet is \(state)")
            }
            try await update(db)
            try await Self.appendEvent(walletId: id, type: event, data: data, now: now, on: db)
            guard let updated = try await db.select().column("*").from("sca_wallets").where("id", .equal, id).first() else {
                throw Self.notFound(id)
            }
            return try Self.wallet(updated)
        }
    }

    // MARK: the device's calls

    /// A PIN attempt the device reports (README "SCA wallet"): a failure takes one of the attempts left and, at none
    /// left, locks the wallet (`lockReason` `PIN_ATTEMPTS`, event `locked`); a success gives them all back. Decided in
    /// one transaction holding the wallet's row, so two reports never count as one. A wallet that is not active is
    /// `409` (its device learns why from its events).
    func reportPinAttempt(walletId: String, success: Bool, now: Date) async throws -> SCAPinAttemptResult {
        let lock = database.dialect == .postgresql ? " FOR UPDATE" : ""
        return try await database.transaction { db in
            guard let row = try await db.raw("""
                SELECT state, pin_attempts_left, max_pin_attempts FROM sca_wallets WHERE id = \(bind: walletId)\(unsafeRaw: lock)
                """).first() else { throw Self.notFound(walletId) }
            let state = SCAWalletState(rawValue: try row.decode(column: "state", as: String.self))
            guard state == .active else {
                throw ProblemError(status: .conflict, code: .conflict, title: "Wallet state", detail: "the wallet is \(state)")
            }
            let maximum = try row.decode(column: "max_pin_attempts", as: Int64.self)
            let left = success ? maximum : max(0, try row.decode(column: "pin_attempts_left", as: Int64.self) - 1)
            let locks = left == 0
            try await db.raw("""
                UPDATE sca_wallets SET pin_attempts_left = \(bind: left), state = \(bind: (locks ? SCAWalletState.locked : .active).rawValue), \
                lock_reason = \(bind: locks ? "PIN_ATTEMPTS" : nil as String?) WHERE id = \(bind: walletId)
                """).run()
            if !success {
                try await Self.appendEvent(walletId: walletId, type: .countersUpdated, data: ["pinAttemptsLeft": .integer(left)], now: now, on: db)
            }
            if locks {
                try await Self.appendEvent(walletId: walletId, type: .locked, data: ["reason": .string("PIN_ATTEMPTS")], now: now, on: db)
            }
            return SCAPinAttemptResult(pinAttemptsLeft: Int(left), state: locks ? .locked : .active)
        }
    }

    /// The wallet's events after `after` (a sequence number, as the feed's `id:` lines give it), oldest first.
    func events(walletId: String, after: Int64, limit: Int = 100) async throws -> [SCAEvent] {
        try await database.sql.raw("""
            SELECT sequence, type, data, created_at FROM sca_events WHERE wallet_id = \(bind: walletId) AND sequence > \(bind: after) \
            ORDER BY sequence LIMIT \(bind: limit)
            """).all().map { row in
            SCAEvent(id: try row.decode(column: "sequence", as: Int64.self), type: SCAEventType(rawValue: try row.decode(column: "type", as: String.self)),
                     data: try JSONValue(json: Array(try row.decode(column: "data", as: String.self).utf8)),
                     createdAt: Timestamp.date(try row.decode(column: "created_at", as: Int64.self)))
        }
    }

    // MARK: helpers

    static func appendEvent(walletId: String, type: SCAEventType, data: [String: JSONValue], now: Date, on db: any SQLDatabase) async throws {
        try await db.insert(into: "sca_events").columns("wallet_id", "type", "data", "created_at")
            .values(SQLBind(walletId), SQLBind(type), SQLBind(String(decoding: try JSONValue.object(data).jsonBytes(), as: UTF8.self)),
                    SQLBind(Timestamp.milliseconds(now)))
            .run()
    }

    static let invalidCode = ProblemError(status: .badRequest, code: .invalidActivationCode, title: "Invalid activation code",
                                          detail: "the activation code is unknown, used already or expired")

    static let activationLocked = ProblemError(
        status: .badRequest, code: .activationLocked, title: "Activation locked",
        detail: "too many wrong codes were given for this activation: the wallet must be made again (a new code)")

    static func notFound(_ id: String) -> ProblemError {
        ProblemError(status: .notFound, code: .notFound, title: "Wallet not found", detail: "no SCA wallet \(id.prefix(64))")
    }

    /// 16 digits in groups of four (about 53 bits: a code lives 15 minutes and is used once). The first two groups are
    /// the selector — which activation the code is for, so that wrong codes count against it and lock it
    /// (`SCAActivationService.maximumFailuresPerActivation`) —, the last two the secret; the whole code is stored only
    /// as its SHA-256.
    static func activationCode() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = (0..<16).map { _ in String(UInt8.random(in: 0...9, using: &generator)) }
        return [digits[0..<4], digits[4..<8], digits[8..<12], digits[12..<16]].map { $0.joined() }.joined(separator: "-")
    }

    /// The selector of a code of the form `activationCode()` makes (`dddd-dddd-dddd-dddd`): its first nine characters;
    /// nil for any other text (a code made before selectors, or a guess of another shape).
    static func selector(of code: String) -> String? {
        let bytes = Array(code.utf8)
        guard bytes.count == 19 else { return nil }
        for (index, byte) in bytes.enumerated() {
            let isDash = index % 5 == 4
            guard isDash ? byte == UInt8(ascii: "-") : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        }
        return String(code.prefix(9))
    }

    /// The stored form of a code: SHA-256, hex (the code itself is never stored).
    static func hash(_ code: String) -> String {
        SHA256.hash(data: Array(code.utf8)).map { String(format: "%02x", $0) }.joined()
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
            publicKeyJwk: jwk, lockReason: try row.decode(column: "lock_reason", as: String?.self),
            createdAt: Timestamp.date(try row.decode(column: "created_at", as: Int64.self)),
            activatedAt: try row.decode(column: "activated_at", as: Int64?.self).map(Timestamp.date),
            device: model == nil && version == nil ? nil : SCAWallet.Device(model: model, appVersion: version))
    }
}

/// A device's activation of its wallet (README "SCA wallet"), with the registration core's challenge store and
/// evidence verifier.
struct SCAActivationService: Sendable {
    /// Wrong codes for one activation (its selector) before it refuses every code, the right one too.
    static let maximumFailuresPerActivation: Int64 = 5

    let database: HoldfastDatabase
    let applications: HolderApplicationService
    let keys: NewKeyVerification
    let logger: Logger
    /// Wrong codes per hour over all sources: past it, no code is checked until the hour ends, so that guessers
    /// spread over many sources (each within the per-source limit) still get nowhere.
    var maximumFailuresPerHour: Int64 = 1_000

    /// Turns the one-time code into the wallet: the code must be unused and unexpired; the challenge (of the wallet's
    /// holder application) is consumed and the key's evidence verified as at instance registration; then, in one
    /// conditional update, the code is spent and the key stored — of two activations racing with one code, one wins.
    func activate(_ request: SCAActivationRequest, now: Date) async throws -> SCAActivationResponse {
        var errors: [ProblemDetails.FieldError] = []
        if request.activationCode.isEmpty { errors.append(.init(field: "activationCode", code: ProblemDetails.FieldError.required, detail: "must not be empty")) }
        if request.challenge.isEmpty { errors.append(.init(field: "challenge", code: ProblemDetails.FieldError.required, detail: "must not be empty")) }
        var publicKey: InstancePublicKey?
        do { publicKey = try InstancePublicKey(encoded: request.publicKey) } catch {
            errors.append(.init(field: "publicKey", code: ProblemDetails.FieldError.invalidValue, detail: error.description))
        }
        for (field, value) in [("device.model", request.device?.model), ("device.appVersion", request.device?.appVersion)] {
            if let value, value.unicodeScalars.count > SCAWalletService.maximumDetailLength {
                errors.append(.init(field: field, code: ProblemDetails.FieldError.tooLong, detail: "at most \(SCAWalletService.maximumDetailLength) characters"))
            }
        }
        guard errors.isEmpty, let publicKey else { throw ProblemError.validation(errors) }
        let row = try await matchingActivation(code: request.activationCode, now: now)
        let codeHash = SCAWalletService.hash(request.activationCode)
        let walletId = try row.decode(column: "id", as: String.self)
        let application = try await applications.get(id: try row.decode(column: "application_id", as: String.self))
        let verified = try await keys.verify(
            challenge: request.challenge, publicKey: publicKey, attestation: request.attestation, keyId: request.keyId,
            assertion: request.assertion, applicationId: application.id ?? "", application: application, developmentMode: false,
            now: now)
        let activated = try await database.transaction { db in
            let updated = try await db.raw("""
                UPDATE sca_wallets SET state = 'active', activation_code_hash = NULL, activation_selector = NULL, \
                public_key = \(bind: publicKey.encoded), \
                attestation_type = \(bind: verified.type.rawValue), device_model = \(bind: request.device?.model), \
                app_version = \(bind: request.device?.appVersion), activated_at = \(bind: Timestamp.milliseconds(now)) \
                WHERE id = \(bind: walletId) AND activation_code_hash = \(bind: codeHash) AND state = 'pending' \
                AND activation_failures < \(bind: Self.maximumFailuresPerActivation) RETURNING id
                """).all()
            guard !updated.isEmpty else { return false }
            try await SCAWalletService.appendEvent(walletId: walletId, type: .loaded, data: [:], now: now, on: db)
            return true
        }
        guard activated else { throw SCAWalletService.invalidCode }
        logger.info("sca wallet activated", metadata: ["wallet_id": .string(walletId), "attestation": .string(verified.type.rawValue)])
        return SCAActivationResponse(walletId: walletId, userId: try row.decode(column: "user_id", as: String.self),
                                     accessProtection: SCAAccessProtection(rawValue: try row.decode(column: "access_protection", as: String.self)),
                                     maxPinAttempts: Int(try row.decode(column: "max_pin_attempts", as: Int64.self)))
    }

    /// The pending, unexpired activation `code` is for — found with reads only, before anything costly (the challenge,
    /// the key's evidence). In order (README "SCA wallet (back end)"):
    /// 1. the tenant-wide budget: when `maximumFailuresPerHour` wrong codes were given this hour, every activation is
    ///    `429 ACTIVATION_ATTEMPTS_EXHAUSTED` until the hour ends;
    /// 2. the code's selector names the activation; one with `maximumFailuresPerActivation` wrong codes is
    ///    `400 ACTIVATION_LOCKED`, whatever the code;
    /// 3. the code's SHA-256, compared in constant time; a wrong, used or expired code is `400 INVALID_ACTIVATION_CODE`,
    ///    counted in the hour's budget and, when its selector names a pending activation, against that activation.
    func matchingActivation(code: String, now: Date) async throws -> any SQLRow {
        let stamp = Timestamp.milliseconds(now)
        let hour = stamp / 3_600_000
        let spent = try await database.sql.raw("SELECT failures FROM sca_activation_failures WHERE hour = \(bind: hour)").first()?
            .decode(column: "failures", as: Int64.self) ?? 0
        guard spent < maximumFailuresPerHour else {
            let retryAfter = max(1, ((hour + 1) * 3_600_000 - stamp + 999) / 1_000)
            throw ProblemError(status: .tooManyRequests, code: .activationAttemptsExhausted, title: "Activation attempts exhausted",
                               detail: "too many wrong activation codes this hour; try again later",
                               headers: [.retryAfter: String(retryAfter)])
        }
        let codeHash = SCAWalletService.hash(code)
        let selector = SCAWalletService.selector(of: code)
        let columns = ["id", "application_id", "user_id", "access_protection", "max_pin_attempts", "activation_expires_at", "state",
                       "activation_code_hash", "activation_failures"]
        let rows: [any SQLRow]
        if let selector {
            rows = try await database.sql.select().columns(columns).from("sca_wallets").where("activation_selector", .equal, selector).all()
        } else {
            // A code made before selectors (12 digits) is found by its hash.
            rows = try await database.sql.select().columns(columns).from("sca_wallets").where("activation_code_hash", .equal, codeHash).all()
        }
        var pending: [any SQLRow] = []
        for row in rows where SCAWalletState(rawValue: try row.decode(column: "state", as: String.self)) == .pending {
            guard try row.decode(column: "activation_failures", as: Int64.self) < Self.maximumFailuresPerActivation else {
                throw SCAWalletService.activationLocked
            }
            pending.append(row)
        }
        for row in pending {
            guard let stored = try row.decode(column: "activation_code_hash", as: String?.self),
                  ConstantTime.equal(Array(stored.utf8), Array(codeHash.utf8)) else { continue }
            if try row.decode(column: "activation_expires_at", as: Int64.self) > stamp { return row }
        }
        try await recordFailure(hour: hour, selector: pending.isEmpty ? nil : selector,
                                walletIds: try pending.map { try $0.decode(column: "id", as: String.self) })
        throw SCAWalletService.invalidCode
    }

    /// One wrong code: in this hour's count (older hours are dropped) and, with `selector`, against its pending
    /// activations.
    private func recordFailure(hour: Int64, selector: String?, walletIds: [String]) async throws {
        try await database.sql.raw("""
            INSERT INTO sca_activation_failures (hour, failures) VALUES (\(bind: hour), 1) \
            ON CONFLICT (hour) DO UPDATE SET failures = sca_activation_failures.failures + 1
            """).run()
        try await database.sql.raw("DELETE FROM sca_activation_failures WHERE hour < \(bind: hour - 24)").run()
        if let selector {
            try await database.sql.raw("""
                UPDATE sca_wallets SET activation_failures = activation_failures + 1 \
                WHERE activation_selector = \(bind: selector) AND state = 'pending'
                """).run()
            logger.info("sca activation code wrong", metadata: ["wallet_ids": .string(walletIds.joined(separator: ","))])
        }
    }
}
