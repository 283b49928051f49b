import Foundation
import HoldfastProtocol
import JOSE

/// A connected SCA wallet (docs/sdk.md "SCA wallet (device)"): valid until its connection ends (`disconnect()`, `logout()`,
/// `clean()`, a lock, a credentials reset or a deletion); afterwards its calls fail with `WALLET_DISCONNECTED`.
public struct Wallet: Sendable, Hashable {
    public let id: String
    /// The bank's reference of its customer.
    public let userId: String
    let connection: UInt64
    let manager: WalletManager

    /// Signs `signature` (see `CustomerAuthenticatedSignature.sign(with:credentials:)`).
    public func sign(_ signature: CustomerAuthenticatedSignature, credentials: WalletCredentials? = nil) async -> SignatureResult {
        await signature.sign(with: self, credentials: credentials)
    }

    public static func == (lhs: Wallet, rhs: Wallet) -> Bool {
        lhs.id == rhs.id && lhs.connection == rhs.connection && lhs.manager === rhs.manager
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(connection)
    }
}

/// What the customer approves (docs/sdk.md "SCA wallet (device)"): an operation's `{method, url, body}` (`SCAPayload`), the `message` they
/// were shown, and how they approve it (`patternName`). `sign(with:credentials:)` makes the proof: a compact JWS,
/// ES256 by the wallet key, header `typ` `sca-proof+jwt` and `kid` the wallet id, whose payload is exactly
/// `{method, url, body, message, pattern, signatureInputData, walletId, iat, jti, counter}` (`SCAProofClaims`), signed by
/// the key of its pattern: the wallet key for `none`, the PIN key for `pin`, the biometry key for `biometry`.
public struct CustomerAuthenticatedSignature: Sendable, Hashable {
    public enum SignatureType: String, Sendable, Hashable {
        /// A compact JWS made on the device.
        case localJws
    }

    public let patternName: SCAPattern
    public let message: String
    public let signatureType: SignatureType
    /// Data of the app's own bound into the proof (a transaction reference, an amount); `null` when none.
    public let signatureInputData: JSONValue
    /// The operation: `SCAPayload(method:url:body:policy:)`, or `WalletManager.payload(method:url:body:)` with the
    /// tenant's policies.
    public let payload: SCAPayload

    public init(patternName: SCAPattern, message: String, signatureType: SignatureType = .localJws,
                signatureInputData: JSONValue = .null, payload: SCAPayload) {
        self.patternName = patternName
        self.message = message
        self.signatureType = signatureType
        self.signatureInputData = signatureInputData
        self.payload = payload
    }

    /// Asks for the pattern's credentials (`.pin(…)` for `pin`, checked by the tenant; the platform's prompt for
    /// `biometry`; nothing for `none`) and signs. A wrong PIN counts as an attempt.
    public func sign(with wallet: Wallet, credentials: WalletCredentials? = nil) async -> SignatureResult {
        do {
            return .success(try await wallet.manager.sign(self, credentials: credentials, handle: wallet))
        } catch {
            return .failure(error)
        }
    }
}

/// A signature's outcome: the proof, or why there is none (`WRONG_CREDENTIALS`, `WALLET_LOCKED`,
/// `WALLET_DISCONNECTED`, `CREDENTIALS_REQUIRED`, `PATTERN_UNAVAILABLE`, `USER_VERIFICATION_FAILED`, `DEVICE_NOT_ELIGIBLE`,
/// `APP_SUNSET`, `NETWORK_ERROR` for a PIN offline …).
public enum SignatureResult: Sendable, Hashable {
    case success(SCAProof)
    case failure(HoldfastError)

    /// The compact JWS, when signed.
    public func result() -> String? {
        if case .success(let proof) = self { return proof.jws }
        return nil
    }
}

/// A signed proof: the compact JWS to send with the request, and what it says.
public struct SCAProof: Sendable, Hashable {
    public let jws: String
    public let claims: SCAProofClaims

    public func result() -> String { jws }
}

extension SCAPayload {
    /// The payload of a request the app is about to send, under `policy`: its method, URL and (JSON) body.
    public init(request: TransportRequest, policy: SCAPolicy?) throws(HoldfastError) {
        var body: JSONValue?
        if let data = request.body, !data.isEmpty {
            do { body = try JSONValue(json: Array(data)) } catch { throw HoldfastError(.validationFailed, "the request's body is not JSON") }
        }
        do {
            try self.init(method: request.method, url: request.url.absoluteString, body: body, policy: policy)
        } catch {
            throw HoldfastError(.validationFailed, "cannot sign this request: \(error)")
        }
    }
}
