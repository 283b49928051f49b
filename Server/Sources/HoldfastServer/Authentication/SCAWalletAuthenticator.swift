import Foundation
import HoldfastProtocol
import Hummingbird
import HummingbirdAuth
import OpenID4VCI

/// Authenticates `.wallet` routes (docs/server-api.md "SCA wallet (back end)"; RFC 9449): a `DPoP` proof made with the key of the SCA wallet
/// named by the path's `{walletId}` — no access token: the wallet key itself is the credential. Checks, in order:
/// the proof as instance calls check theirs (`InstanceAuthenticator.verifyProof`: one `DPoP` header, valid for this
/// method and `htu` = public URL + path, the server nonce when required); the wallet exists, was activated, and its
/// key has the proof's thumbprint; then the proof's `jti` is spent (`InstanceAuthenticator.spend`, atomic across
/// nodes). Any failure is 401 `INVALID_DPOP_PROOF` or `INVALID_TOKEN` with `WWW-Authenticate: DPoP`. A deleted
/// wallet still authenticates, so that its device reads the `deleted` event from its feed; every other device call
/// refuses a wallet that is not active (409).
struct SCAWalletAuthenticator: AuthenticatorMiddleware {
    typealias Context = HoldfastRequestContext
    typealias Identity = HoldfastIdentity

    let wallets: SCAWalletStore
    /// The proof checks of instance calls, shared: the proof itself, the server nonce when required, the `jti` spent.
    let proofs: InstanceAuthenticator
    let clock: any HoldfastClock

    func authenticate(request: Request, context: Context) async throws -> HoldfastIdentity? {
        let walletId = try context.parameters.require("walletId")
        let proof = try proofs.verifyProof(request, accessToken: nil, expectedThumbprint: nil, now: clock.now())
        guard let wallet = try await wallets.credential(walletId: walletId), let encoded = wallet.publicKey,
              let key = try? InstancePublicKey(encoded: encoded), (try? key.thumbprint()) == proof.thumbprint else {
            throw AuthenticationError.unauthenticated(.invalidToken, "the proof is not made with this wallet's key")
        }
        let state = wallet.state
        try await proofs.spend(proof, now: clock.now())
        return .wallet(AuthenticatedWallet(walletId: walletId, state: state))
    }
}
