import CBOR
import Crypto
import MDoc

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

extension ISO18013_7Handover {
    /// B.4.3.3.2: what the wallet's JWE carries for the handover — `apu`, its `mdocGeneratedNonce`, and `apv`, the
    /// request's nonce — as `EncryptedAuthorizationResponse.decrypt(with:)` reads them (nil: absent or not base64url).
    public struct ResponseInputs: Sendable, Hashable {
        public var mdocGeneratedNonce: [UInt8]?
        public var apv: [UInt8]?

        public init(mdocGeneratedNonce: [UInt8]?, apv: [UInt8]?) {
            self.mdocGeneratedNonce = mdocGeneratedNonce
            self.apv = apv
        }

        /// B.4.3.3.2: `apv` is the request's `nonce`.
        public func echoes(nonce: String) -> Bool { apv == Array(nonce.utf8) }

        /// The B.4.4 SessionTranscript of a response to the request of `clientId`, `responseUri` and `nonce` (an
        /// absent `mdocGeneratedNonce` is the empty string, so that the device signature is what refuses it).
        public func sessionTranscript(clientId: String, responseUri: String, nonce: String) -> SessionTranscript {
            .iso18013_7(clientId: clientId, responseUri: responseUri, nonce: nonce,
                        mdocGeneratedNonce: mdocGeneratedNonce.map { String(decoding: $0, as: UTF8.self) } ?? "")
        }
    }
}
