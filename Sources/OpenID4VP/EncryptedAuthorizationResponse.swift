import Crypto
import JOSE

/// OpenID4VP 1.0 §8.3 — the encrypted authorization response a wallet posts (`response` of `direct_post.jwt`, the
/// `response` of `dc_api.jwt`, Appendix A.4): a compact JWE to the verifier's ephemeral key (ECDH-ES, RFC 7518 §4.6).
/// Opening it gives the payload and what the JWE header carries for an ISO/IEC TS 18013-7:2024 handover
/// (`ISO18013_7Handover.ResponseInputs`), so that a verifier never reads JOSE header members itself.
public struct EncryptedAuthorizationResponse: Sendable {
    /// Why a response does not open; the caller names each in its own terms.
    public enum Failure: Error, Sendable, Hashable {
        /// Not a JWE in compact serialization (RFC 7516 §7.1).
        case notCompactJWE
        /// The JWE does not decrypt with the key (or is not ECDH-ES with A128GCM / A256GCM).
        case undecryptable
        /// The plaintext is not JSON.
        case notJSON
        /// The plaintext is JSON, but not an object (§8.1: the response parameters are an object).
        case notAnObject
    }

    private let jwe: JWE

    public init(compactSerialization: String) throws(Failure) {
        do { jwe = try JWE(compactSerialization: compactSerialization) } catch { throw .notCompactJWE }
    }

    /// The `kid` of the key the JWE names (RFC 7516 §4.1.6), when it names one.
    public var kid: String? { jwe.header.kid }

    /// True unless the JWE names a key other than `kid` (then it was made for another request).
    public func names(kid expected: String) -> Bool { kid.map { $0 == expected } ?? true }

    /// The content encryption (`enc`, RFC 7516 §4.1.2) the header gives, as written.
    public var contentEncryption: String? { jwe.header.enc }

    /// Decrypts with the recipient's key: the payload's members, and the handover inputs of the header.
    public func decrypt(with key: P256.KeyAgreement.PrivateKey) throws(Failure) -> DecryptedAuthorizationResponse {
        let plaintext: [UInt8]
        do { plaintext = try jwe.decrypt(with: key) } catch { throw .undecryptable }
        let value: JSONValue
        do { value = try JSONValue(json: plaintext) } catch { throw .notJSON }
        guard let members = value.objectValue else { throw .notAnObject }
        return DecryptedAuthorizationResponse(
            members: members,
            handover: ISO18013_7Handover.ResponseInputs(mdocGeneratedNonce: Self.partyInfo(jwe.header["apu"]),
                                                        apv: Self.partyInfo(jwe.header["apv"])))
    }

    /// RFC 7518 §4.6.1.2/§4.6.1.3: `apu` / `apv` are base64url; one that is absent or not base64url is nil.
    private static func partyInfo(_ member: JSONValue?) -> [UInt8]? {
        member?.stringValue.flatMap { Base64URL.decode($0) }
    }
}

/// A decrypted authorization response (OpenID4VP 1.0 §8.1): the payload's members as sent, and the inputs of an
/// ISO/IEC TS 18013-7:2024 handover the JWE header carried.
public struct DecryptedAuthorizationResponse: Sendable {
    public let members: [String: JSONValue]
    public let handover: ISO18013_7Handover.ResponseInputs

    public init(members: [String: JSONValue], handover: ISO18013_7Handover.ResponseInputs) {
        self.members = members
        self.handover = handover
    }

    /// The payload read as an `AuthorizationResponse` (`AuthorizationResponse.init(members:)`).
    public var response: AuthorizationResponse { AuthorizationResponse(members: members) }
}
