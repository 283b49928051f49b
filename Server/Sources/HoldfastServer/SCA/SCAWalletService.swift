import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE
import Logging
import Plumbing

/// SCA wallets on the tenant, as the bank's back end manages them (docs/server-api.md "SCA wallet (back end)"): made for one of its users
/// (activated once by a device with the one-time code, `SCAActivationService`), then locked, unlocked, reset, changed
/// or deleted. Every change is an event for the wallet's device (`SCADeviceService` serves them).
struct SCAWalletService: Sendable {
    static let defaultMaxPinAttempts = 3
    static let maxPinAttemptsRange = 1...10
    static let activationLifetime: TimeInterval = 900
    static let maximumUserIdLength = 255
    static let maximumDetailLength = 200
    static let maximumListed = 100
    static let maximumEventData = 4_096

    let store: SCAWalletStore
    let applications: HolderApplicationService
    let logger: Logger
    /// Draws the wallets' ids and activation codes.
    let random: any RandomSource

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
                                detail: #""pin", "biometric", "pinOrBiometric" or "none""#))
        }
        let attempts = request.settings?.maxPinAttempts ?? Self.defaultMaxPinAttempts
        if !Self.maxPinAttemptsRange.contains(attempts) {
            errors.append(.init(field: "settings.maxPinAttempts", code: ProblemDetails.FieldError.outOfRange,
                                detail: "\(Self.maxPinAttemptsRange.lowerBound) to \(Self.maxPinAttemptsRange.upperBound)"))
        }
        guard errors.isEmpty else { throw ProblemError.validation(errors) }
        _ = try await applications.get(id: request.applicationId)
        let id = random.identifier()
        let code = Self.activationCode(random: random)
        let expiresAt = now.addingTimeInterval(Self.activationLifetime)
        let expires = try await store.insert(SCAWalletStore.NewWallet(
            id: id, applicationId: request.applicationId, userId: request.userId, accessProtection: protection,
            maxPinAttempts: attempts, activationCodeHash: Self.hash(code), activationSelector: Self.selector(of: code),
            activationExpiresAt: expiresAt, createdAt: now))
        logger.info("sca wallet created", metadata: ["wallet_id": .string(id), "application_id": .string(request.applicationId)])
        return SCAWalletCreated(walletId: id, activationCode: code, activationExpiresAt: expires)
    }

    func get(id: String) async throws -> SCAWallet {
        guard let wallet = try await store.wallet(id: id) else { throw SCAError.walletNotFound(id: id) }
        return wallet
    }

    func list(userId: String) async throws -> SCAWalletList {
        SCAWalletList(data: try await store.wallets(userId: userId, limit: Self.maximumListed))
    }

    /// Locks an active wallet (its proofs are refused until it is unlocked).
    func lock(id: String, reason: SCALockReason, now: Date) async throws -> SCAWallet {
        guard SCALockReason.backEnd.contains(reason) else {
            throw ProblemError.invalidField("reason", code: ProblemDetails.FieldError.invalidValue,
                                            detail: SCALockReason.backEnd.map(\.rawValue).sorted().joined(separator: ", "))
        }
        return try await change(id: id, from: [.active, .locked], event: .locked, data: ["reason": .string(reason.rawValue)], now: now) { transaction in
            try await transaction.lock(id: id, reason: reason)
        }
    }

    /// Unlocks a wallet, its PIN attempts back to the maximum.
    func unlock(id: String, now: Date) async throws -> SCAWallet {
        try await change(id: id, from: [.active, .locked], event: .unlocked, data: [:], now: now) { transaction in
            try await transaction.unlock(id: id)
        }
    }

    /// The customer's credentials are to be set again: the enrolled PIN secret, key share and keys are dropped (no
    /// `pin` or `biometry` proof verifies until new ones are enrolled), and the device asks for new ones at its next
    /// connection.
    func resetCredentials(id: String, now: Date) async throws -> SCAWallet {
        try await change(id: id, from: [.active, .locked], event: .credentialsReset, data: [:], now: now) { transaction in
            try await transaction.setCredentials(id: id, pinVerifier: nil, sealedKeyShare: nil, pinKey: nil, biometryKey: nil)
        }
    }

    /// Changes a wallet's settings (event `settingsUpdated` with the new ones). A new `accessProtection` means new
    /// credentials: the device asks the customer for them at its next connection. A lower `maxPinAttempts` lowers
    /// the attempts left with it.
    func updateSettings(id: String, _ settings: SCAWalletSettings, now: Date) async throws -> SCAWallet {
        var errors: [ProblemDetails.FieldError] = []
        if let protection = settings.accessProtection, !protection.isKnown {
            errors.append(.init(field: "accessProtection", code: ProblemDetails.FieldError.invalidValue, detail: #""pin", "biometric", "pinOrBiometric" or "none""#))
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
        return try await change(id: id, from: [.pending, .active, .locked], event: .settingsUpdated, data: data, now: now) { transaction in
            if let protection = settings.accessProtection, try await transaction.walletForUpdate(id: id)?.accessProtection != protection {
                try await transaction.setAccessProtection(id: id, protection)
                try await transaction.setCredentials(id: id, pinVerifier: nil, sealedKeyShare: nil, pinKey: nil, biometryKey: nil)
            }
            if let attempts = settings.maxPinAttempts { try await transaction.setMaxPinAttempts(id: id, attempts) }
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
        _ = try await change(id: id, from: [.pending, .active, .locked], event: .deleted, data: [:], now: now) { transaction in
            try await transaction.markDeleted(id: id, at: now)
        }
    }

    /// One state change and its event, in one transaction; a wallet in another state is `409 CONFLICT`.
    private func change(id: String, from states: Set<SCAWalletState>, event: SCAEventType, data: [String: JSONValue], now: Date,
                        _ update: @escaping @Sendable (SCAWalletStore.Transaction) async throws -> Void) async throws -> SCAWallet {
        guard ResourceID.isValid(id) else { throw SCAError.walletNotFound(id: id) }
        return try await store.transaction { transaction in
            guard let state = try await transaction.walletForUpdate(id: id)?.state else { throw SCAError.walletNotFound(id: id) }
            guard states.contains(state) else { throw SCAError.walletState(state) }
            try await update(transaction)
            try await transaction.appendEvent(walletId: id, type: event, data: data, now: now)
            guard let updated = try await transaction.wallet(id: id) else { throw SCAError.walletNotFound(id: id) }
            return updated
        }
    }

    // MARK: activation codes

    /// 16 digits in groups of four (about 53 bits: a code lives 15 minutes and is used once). The first two groups are
    /// the selector — which activation the code is for, so that wrong codes count against it and lock it
    /// (`SCAActivationService.maximumFailuresPerActivation`) —, the last two the secret; the whole code is stored only
    /// as its SHA-256.
    static func activationCode(random: any RandomSource) -> String {
        let digits = (0..<16).map { _ in String(random.integer(in: 0..<10)) }
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
        Hex.encode(SHA256.hash(data: Array(code.utf8)))
    }
}
