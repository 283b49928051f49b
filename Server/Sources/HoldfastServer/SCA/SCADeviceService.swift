import Attestation
import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE
import Plumbing

/// What an SCA wallet's device calls with its wallet key (docs/server-api.md "SCA wallet (back end)"): its PIN attempts, the enrolment of
/// its customer's credentials and its event feed. The back end's side of the same wallets is `SCAWalletService`.
///
/// The PIN is checked here, never on the device (docs/DESIGN.md "The SCA wallet's PIN"): the device sends a secret
/// derived from the PIN (scrypt with a salt only it holds, then HMAC), stored here only as its SHA-256; a right one
/// releases `key_share`, without which the device cannot unseal the key that signs `pin` proofs, a wrong one is
/// counted. A copy of the device's state therefore tells a right PIN from a wrong one only by asking this tenant.
/// The share is kept sealed with the master key (docs/security.md "What is not tested here"), so a copy of the database alone does not
/// give it either.
struct SCADeviceService: Sendable {
    static let secretLength = 32

    let store: SCAWalletStore
    let masterKey: MasterKey

    /// The stored form of a key share: AES-256-GCM with the master key, the wallet id bound as associated data so that
    /// a share moved to another wallet's row does not open (as an offer's claim values are sealed).
    static func sealKeyShare(_ share: [UInt8], walletId: String, masterKey: MasterKey) throws -> [UInt8] {
        try masterKey.seal(share, context: keyShareContext(walletId))
    }

    static func keyShareContext(_ walletId: String) -> String { "holdfast sca key share \(walletId)" }

    /// The share as the device enrolled it (base64url), from its sealed form.
    private func openKeyShare(_ sealed: [UInt8], walletId: String) throws -> String {
        do {
            return Base64URL.encode(try masterKey.open(sealed, context: Self.keyShareContext(walletId)))
        } catch {
            throw StorageError(code: StorageError.Code.corruptRow, message: "the key share of SCA wallet \(walletId) does not open with the master key")
        }
    }

    /// A PIN attempt: the secret is compared (constant time) with the enrolled one; a wrong one takes one of the
    /// attempts left (event `countersUpdated`) and, at none left, locks the wallet (`lockReason` `PIN_ATTEMPTS`, event
    /// `locked`); a right one gives them all back and releases the key share. Decided in one transaction holding the
    /// wallet's row, so two attempts never count as one. A wallet that is not active, or has no PIN, is `409`.
    func attemptPin(walletId: String, _ request: SCAPinAttemptRequest, now: Date) async throws -> SCAPinAttemptResult {
        let secret = try Self.secret(request.pinSecret, field: "pinSecret")
        return try await store.transaction { transaction in
            guard let wallet = try await transaction.walletForUpdate(id: walletId) else { throw SCAError.walletNotFound(id: walletId) }
            guard wallet.state == .active else { throw SCAError.walletState(wallet.state) }
            guard let verifier = wallet.pinVerifier, let sealed = wallet.sealedKeyShare else { throw SCAError.credentialsNotSet }
            return try await Self.check(secret, against: verifier, share: { try openKeyShare(sealed, walletId: walletId) }, wallet: wallet,
                                        walletId: walletId, transaction: transaction, now: now)
        }
    }

    /// The customer's credentials (docs/server-api.md "SCA wallet (back end)"): what the wallet's protection needs — the PIN secret, key
    /// share and PIN key when it allows the PIN, the biometry key when it is `biometric` (optional for
    /// `pinOrBiometric`), nothing else. A wallet with a PIN takes new credentials only with `currentPinSecret` right
    /// (a wrong one is an attempt, answered as `failure`); one with a biometry key and no PIN only after the back end
    /// reset its credentials (`409`).
    func enrol(walletId: String, _ request: SCACredentialsEnrolment, now: Date) async throws -> SCAPinAttemptResult {
        let current = try request.currentPinSecret.map { try Self.secret($0, field: "currentPinSecret") }
        let secret = try request.pinSecret.map { try Self.secret($0, field: "pinSecret") }
        let share = try request.keyShare.map { try Self.secret($0, field: "keyShare") }
        for (field, key) in [("pinKey", request.pinKey), ("biometryKey", request.biometryKey)] {
            if let key, (try? InstancePublicKey(encoded: key)) == nil {
                throw ProblemError.invalidField(field, code: ProblemDetails.FieldError.invalidValue, detail: "an encoded P-256 public key")
            }
        }
        return try await store.transaction { transaction in
            guard let wallet = try await transaction.walletForUpdate(id: walletId) else { throw SCAError.walletNotFound(id: walletId) }
            guard wallet.state == .active else { throw SCAError.walletState(wallet.state) }
            let protection = wallet.accessProtection
            var errors: [ProblemDetails.FieldError] = []
            func need(_ field: String, _ value: Any?, when required: Bool) {
                if required, value == nil {
                    errors.append(.init(field: field, code: ProblemDetails.FieldError.required, detail: "required by the protection \(protection)"))
                } else if !required, value != nil {
                    errors.append(.init(field: field, code: ProblemDetails.FieldError.invalidValue, detail: "not used by the protection \(protection)"))
                }
            }
            need("pinSecret", secret, when: protection.allowsPIN)
            need("keyShare", share, when: protection.allowsPIN)
            need("pinKey", request.pinKey, when: protection.allowsPIN)
            if protection != .pinOrBiometric { need("biometryKey", request.biometryKey, when: protection.allowsBiometry) }
            guard errors.isEmpty else { throw ProblemError.validation(errors) }
            if let verifier = wallet.pinVerifier, let sealed = wallet.sealedKeyShare {
                guard let current else {
                    throw ProblemError.invalidField("currentPinSecret", code: ProblemDetails.FieldError.required, detail: "the wallet has a PIN")
                }
                let checked = try await Self.check(current, against: verifier, share: { try openKeyShare(sealed, walletId: walletId) },
                                                   wallet: wallet, walletId: walletId, transaction: transaction, now: now)
                guard checked.outcome == .success else { return checked }
            } else if wallet.biometryKey != nil {
                throw SCAError.credentialsSet
            }
            try await transaction.setCredentials(id: walletId, pinVerifier: secret.map(Self.verifier),
                                                 sealedKeyShare: try share.map { try Self.sealKeyShare($0, walletId: walletId, masterKey: masterKey) },
                                                 pinKey: request.pinKey, biometryKey: request.biometryKey)
            return SCAPinAttemptResult(outcome: .success, pinAttemptsLeft: Int(wallet.maxPinAttempts), state: .active)
        }
    }

    /// The wallet's events after `after` (a sequence number, as the feed's `id:` lines give it), oldest first.
    func events(walletId: String, after: Int64, limit: Int = 100) async throws -> [SCAEvent] {
        try await store.events(walletId: walletId, after: after, limit: limit)
    }

    // MARK: the PIN secret

    /// `share` opens the sealed key share: only for a right secret.
    private static func check(_ secret: [UInt8], against verifier: String, share: () throws -> String,
                              wallet: SCAWalletStore.Transaction.LockedWallet,
                              walletId: String, transaction: SCAWalletStore.Transaction, now: Date) async throws -> SCAPinAttemptResult {
        if ConstantTime.equal(Array(Self.verifier(secret).utf8), Array(verifier.utf8)) {
            let released = try share()
            if wallet.pinAttemptsLeft != wallet.maxPinAttempts {
                try await transaction.setPinAttemptsLeft(id: walletId, wallet.maxPinAttempts, lockReason: nil)
            }
            return SCAPinAttemptResult(outcome: .success, pinAttemptsLeft: Int(wallet.maxPinAttempts), state: .active, keyShare: released)
        }
        let left = max(0, wallet.pinAttemptsLeft - 1)
        let locks = left == 0
        try await transaction.setPinAttemptsLeft(id: walletId, left, lockReason: locks ? .pinAttempts : nil)
        try await transaction.appendEvent(walletId: walletId, type: .countersUpdated, data: ["pinAttemptsLeft": .integer(left)], now: now)
        if locks {
            try await transaction.appendEvent(walletId: walletId, type: .locked, data: ["reason": .string(SCALockReason.pinAttempts.rawValue)], now: now)
        }
        return SCAPinAttemptResult(outcome: .failure, pinAttemptsLeft: Int(left), state: locks ? .locked : .active)
    }

    /// The stored form of a PIN secret: SHA-256, hex.
    static func verifier(_ secret: [UInt8]) -> String { Hex.encode(SHA256.hash(data: secret)) }

    private static func secret(_ text: String, field: String) throws -> [UInt8] {
        guard let bytes = Base64URL.decode(text), bytes.count == secretLength else {
            throw ProblemError.invalidField(field, code: ProblemDetails.FieldError.invalidValue, detail: "base64url of \(secretLength) bytes")
        }
        return bytes
    }
}
