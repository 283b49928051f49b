import CBOR
import COSE
import Foundation
import JOSE

/// A Status List Token's content (draft-ietf-oauth-status-list §5): who it is about (`sub`, the URI referenced
/// tokens point at), when it was issued, until when it may be used (`exp`), how long a reader may cache it (`ttl`),
/// and the list. ``cwt(signer:certificateChain:)`` and ``jwt(key:certificateChain:)`` sign it in the two encodings.
public struct StatusListToken: Sendable, Hashable {
    public enum Format: String, Sendable, Hashable {
        case cwt
        case jwt
    }

    /// §5.2: protected header `typ` (16) of a CWT and its media type.
    public static let cwtType = "application/statuslist+cwt"
    /// §5.1: header `typ` of a JWT.
    public static let jwtType = "statuslist+jwt"
    /// The media type of a JWT status list token (§14.x), as sent in `Accept`.
    public static let jwtMediaType = "application/statuslist+jwt"

    /// CWT claim keys (§5.2, RFC 8392).
    public enum CWTClaim {
        public static let issuer: Int64 = 1
        public static let subject: Int64 = 2
        public static let expiration: Int64 = 4
        public static let issuedAt: Int64 = 6
        public static let timeToLive: Int64 = 65534
        public static let statusList: Int64 = 65533
    }

    public var subject: String
    public var issuedAt: Date
    public var expiresAt: Date?
    /// Seconds a reader may cache the token before fetching a new one (§5.1 `ttl`).
    public var timeToLive: UInt64?
    /// `iss`, optional (§5.1).
    public var issuer: String?
    public var list: StatusList

    public init(subject: String, issuedAt: Date, expiresAt: Date?, timeToLive: UInt64?, issuer: String? = nil, list: StatusList) {
        self.subject = subject
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.timeToLive = timeToLive
        self.issuer = issuer
        self.list = list
    }

    // MARK: CWT

    /// The CWT claims set (§5.2), `lst` compressed once.
    func cwtClaims(compressed: [UInt8]) -> CBOR {
        var pairs: [CBOR.Pair] = []
        if let issuer { pairs.append(CBOR.Pair(.int(CWTClaim.issuer), .text(issuer))) }
        pairs.append(CBOR.Pair(.int(CWTClaim.subject), .text(subject)))
        pairs.append(CBOR.Pair(.int(CWTClaim.issuedAt), .int(Self.seconds(issuedAt))))
        if let expiresAt { pairs.append(CBOR.Pair(.int(CWTClaim.expiration), .int(Self.seconds(expiresAt)))) }
        if let timeToLive { pairs.append(CBOR.Pair(.int(CWTClaim.timeToLive), .unsigned(timeToLive))) }
        pairs.append(CBOR.Pair(.int(CWTClaim.statusList), .map([
            CBOR.Pair("bits", .int(list.bits)), CBOR.Pair("lst", .bytes(compressed)),
        ])))
        return .map(pairs)
    }

    /// Signs the token as a CWT: COSE_Sign1 (tag 18) with `alg` and `typ` protected and the signer's certificate
    /// chain in the unprotected `x5chain` (§5.2; RFC 9360).
    public func cwt(signer: some COSESigner, certificateChain: [[UInt8]]) throws(StatusListError) -> [UInt8] {
        let payload = cwtClaims(compressed: list.compressed()).encoded()
        var protected = COSEHeaderMap()
        protected[Int64(16)] = .text(Self.cwtType)
        var unprotected = COSEHeaderMap()
        if !certificateChain.isEmpty {
            unprotected[COSEHeaderMap.Label.x5chain] = certificateChain.count == 1
                ? .bytes(certificateChain[0]) : .array(certificateChain.map(CBOR.bytes))
        }
        do {
            return try COSESign1.sign(payload: payload, protected: protected, unprotected: unprotected, signer: signer).encoded(tagged: true)
        } catch {
            throw .signingFailed("\(error)")
        }
    }

    // MARK: JWT

    /// The JWT claims (§5.1).
    func jwtClaims(compressed: [UInt8]) -> JSONValue {
        var claims: [String: JSONValue] = [
            "sub": .string(subject), "iat": .integer(Self.seconds(issuedAt)),
            "status_list": .object(["bits": .integer(Int64(list.bits)), "lst": .string(Base64URL.encode(compressed))]),
        ]
        if let issuer { claims["iss"] = .string(issuer) }
        if let expiresAt { claims["exp"] = .integer(Self.seconds(expiresAt)) }
        if let timeToLive { claims["ttl"] = .integer(Int64(clamping: timeToLive)) }
        return .object(claims)
    }

    /// Signs the token as a JWT with `typ: statuslist+jwt` and the chain in `x5c` (§5.1; RFC 7515 §4.1.6).
    public func jwt(key: JWSSigningKey, certificateChain: [[UInt8]]) throws(StatusListError) -> String {
        var header = JOSEHeader(fields: ["typ": .string(Self.jwtType)])
        if !certificateChain.isEmpty { header.setX5C(certificateChain) }
        do {
            let payload = try jwtClaims(compressed: list.compressed()).jsonBytes()
            return try JWS.sign(payload: payload, header: header, key: key).compactSerialization
        } catch {
            throw .signingFailed("\(error)")
        }
    }

    static func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }
}
