import CBOR
import Crypto

/// ISO/IEC TS 18013-7:2024 Annex B.4.4 — the handover of an mdoc presentation over the OpenID4VP draft the Annex
/// profiles (`OID4VPHandover`): `[SHA-256(CBOR [client_id, mdocGeneratedNonce]), SHA-256(CBOR [response_uri,
/// mdocGeneratedNonce]), nonce]`; the wallet's `mdocGeneratedNonce` travels to the verifier as the JWE's `apu`
/// (B.4.3.3.2).
public struct ISO18013_7Handover: Sendable, Hashable {
    public var clientId: String
    public var responseUri: String
    public var nonce: String
    public var mdocGeneratedNonce: String

    public init(clientId: String, responseUri: String, nonce: String, mdocGeneratedNonce: String) {
        self.clientId = clientId
        self.responseUri = responseUri
        self.nonce = nonce
        self.mdocGeneratedNonce = mdocGeneratedNonce
    }

    /// `OID4VPHandover`.
    public var cbor: CBOR {
        let clientIdHash = Array(SHA256.hash(data: CBOR.array([.text(clientId), .text(mdocGeneratedNonce)]).encoded()))
        let responseUriHash = Array(SHA256.hash(data: CBOR.array([.text(responseUri), .text(mdocGeneratedNonce)]).encoded()))
        return .array([.bytes(clientIdHash), .bytes(responseUriHash), .text(nonce)])
    }
}
