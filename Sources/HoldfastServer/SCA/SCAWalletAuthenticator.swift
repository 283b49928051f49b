import Ephemeral
import Foundation
import HTTPTypes
import HoldfastProtocol
import Hummingbird
import HummingbirdAuth
import JOSE
import SQLKit

/// The wallet a device call authenticated as (README "SCA wallet").
public struct AuthenticatedWallet: Sendable {
    public let walletId: String
    public let state: String
}

/// Authenticates `.wallet` routes (README "SCA wallet"; RFC 9449): a `DPoP` proof made with the key of the SCA wallet
/// named by the path's `{walletId}` — no access token: the wallet key itself is the credential. Checks, in order:
/// one `DPoP` header; the proof valid for this method and `htu` = public URL + path, `iat` within the tethering
/// DPoP window; the wallet exists, was activated, is not deleted, and its key has the proof's thumbprint; then the
/// proof's `jti` is spent in the replay store (atomic across nodes). Any failure is 401 `INVALID_DPOP_PROOF` or
/// `INVALID_TOKEN` with `WWW-Authenticate: DPoP`.
struct SCAWalletAuthenticator: AuthenticatorMiddleware {
    typealias Context = HoldfastRequestContext
    typealias Identity = HoldfastIdentity

    let database: HoldfastDatabase
    let replay: any EphemeralStore
    let configuration: TetheringConfiguration
    let publicURL: @Sendable () -> String
    let clock: any HoldfastClock

    func authenticate(request: Request, context: Context) async throws -> HoldfastIdentity? {
        let walletId = try context.parameters.require("walletId")
        let proofs = request.headers[values: HTTPField.Name(HoldfastHeaders.dpop)!]
        guard proofs.count == 1, let proofText = proofs.first else {
            throw TetheringError.unauthenticated(.invalidDPoPProof, "one DPoP header, made with the wallet key, is required",
                                                 error: "invalid_dpop_proof")
        }
        let now = clock.now()
        let verifier = DPoPVerifier(allowedAlgorithms: [.es256], maximumAge: configuration.dpopMaximumAge,
                                    maximumFutureSkew: configuration.dpopMaximumFutureSkew)
        let proof: DPoPVerifiedProof
        do {
            proof = try verifier.verify(proofText, for: DPoPRequest(method: request.method.rawValue, uri: publicURL() + request.uri.path), at: now)
        } catch {
            let reason = (error as? JOSEError)?.code ?? "malformed"
            throw TetheringError.unauthenticated(.invalidDPoPProof, "the DPoP proof is not valid: \(reason)", error: "invalid_dpop_proof")
        }
        guard TetheringID.isValid(walletId),
              let row = try await database.sql.select().columns("state", "public_key").from("sca_wallets").where("id", .equal, walletId).first(),
              let encoded = try row.decode(column: "public_key", as: String?.self),
              let key = try? InstancePublicKey(encoded: encoded), (try? key.thumbprint()) == proof.thumbprint else {
            throw TetheringError.unauthenticated(.invalidToken, "the proof is not made with this wallet's key")
        }
        let state = try row.decode(column: "state", as: String.self)
        guard state != "deleted" else { throw TetheringError.unauthenticated(.invalidToken, "the wallet is deleted") }
        let window = Duration.seconds(Int64(configuration.dpopMaximumAge + configuration.dpopMaximumFutureSkew) + 5)
        guard try await replay.setIfAbsent("holdfast:sca:dpop:jti:\(proof.thumbprint):\(proof.jti)", value: [1], ttl: window) else {
            throw TetheringError.unauthenticated(.invalidDPoPProof, "the DPoP proof was already used (jti replay)", error: "invalid_dpop_proof")
        }
        return .wallet(AuthenticatedWallet(walletId: walletId, state: state))
    }
}

/// The context of a `.wallet` route: made only from a request `SCAWalletAuthenticator` accepted.
public struct WalletRequestContext: HoldfastContext, ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let requestID: String
    public let maxUploadSize: Int
    public let wallet: AuthenticatedWallet

    public init(context: HoldfastRequestContext) throws {
        guard case .wallet(let wallet) = context.identity else {
            throw TetheringError.unauthenticated(.invalidDPoPProof, "a DPoP proof made with the wallet key is required",
                                                 error: "invalid_dpop_proof")
        }
        self.coreContext = context.coreContext
        self.requestID = context.requestID
        self.maxUploadSize = context.maxUploadSize
        self.wallet = wallet
    }
}
