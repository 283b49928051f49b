import CBOR
import COSE
import Crypto
import Foundation
import JOSE
import X509

/// A Status List Token as received, decoded but not yet trusted: its content, its format, the signer's certificate
/// chain from `x5chain` / `x5c`, and what its signature covers. ``StatusListTokenVerifier`` decides trust.
public struct SignedStatusListToken: Sendable {
    public let format: StatusListToken.Format
    public let token: StatusListToken
    /// DER certificates, leaf first (empty when the token carries none).
    public let certificateChain: [[UInt8]]
    private let signed: Signed

    private enum Signed: Sendable {
        case cwt(COSESign1)
        case jwt(JWS)
    }

    /// Reads either encoding: a JWT is ASCII text starting with a base64url JSON header (`ey`), anything else is read
    /// as a CWT.
    public init(decoding bytes: [UInt8], maximumListBytes: Int = StatusList.defaultMaximumBytes) throws(StatusListError) {
        if bytes.count > 2, bytes[0] == UInt8(ascii: "e"), bytes[1] == UInt8(ascii: "y") {
            try self.init(jwt: String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines),
                          maximumListBytes: maximumListBytes)
        } else {
            try self.init(cwt: bytes, maximumListBytes: maximumListBytes)
        }
    }

    /// A CWT (§5.2): COSE_Sign1, tagged or not, protected `typ` (16) `application/statuslist+cwt`.
    public init(cwt bytes: [UInt8], maximumListBytes: Int = StatusList.defaultMaximumBytes) throws(StatusListError) {
        let sign1: COSESign1
        do { sign1 = try COSESign1(decoding: bytes) } catch { throw .malformedToken("not a COSE_Sign1: \(error)") }
        let typ = sign1.protected[Int64(16)]
        guard case .text(let type)? = typ, type == StatusListToken.cwtType else {
            throw .wrongType(typ.map { $0.diagnosticNotation })
        }
        guard let payload = sign1.payload else { throw .malformedToken("the CWT payload is detached") }
        let claims: CBOR.Decoded
        do { claims = try CBOR.decode(payload) } catch { throw .malformedToken("the CWT claims are not CBOR: \(error)") }
        guard claims.majorType == 5 else { throw .malformedToken("the CWT claims are not a map") }
        func claim(_ key: Int64) -> CBOR.Decoded? { claims[CBOR.int(key)] }
        func integer(_ key: Int64, _ name: String) throws(StatusListError) -> Int64? {
            guard let item = claim(key) else { return nil }
            do { return try item.int64() } catch { throw .malformedToken("\(name) is \(item.kindDescription), not an integer") }
        }
        guard let subjectItem = claim(StatusListToken.CWTClaim.subject) else { throw .missingClaim("sub") }
        let subject: String
        do { subject = try subjectItem.text() } catch { throw .malformedToken("sub is not a text string") }
        guard let issuedAt = try integer(StatusListToken.CWTClaim.issuedAt, "iat") else { throw .missingClaim("iat") }
        let expiresAt = try integer(StatusListToken.CWTClaim.expiration, "exp")
        let ttl = try integer(StatusListToken.CWTClaim.timeToLive, "ttl")
        if let ttl, ttl < 0 { throw .malformedToken("ttl is negative") }
        guard let listItem = claim(StatusListToken.CWTClaim.statusList) else { throw .missingClaim("status_list") }
        guard listItem.majorType == 5, let bitsItem = listItem["bits"], let lstItem = listItem["lst"] else {
            throw .malformedToken("status_list is not {bits, lst}")
        }
        let bits: Int
        let compressed: [UInt8]
        do {
            bits = try bitsItem.int()
            compressed = Array(try lstItem.bytes())
        } catch {
            throw .malformedToken("status_list: bits must be an integer and lst a byte string")
        }
        let issuer = try? claim(StatusListToken.CWTClaim.issuer)?.text()
        let chain: [[UInt8]]
        do { chain = try sign1.x5chain() } catch { throw .malformedToken("x5chain: \(error)") }
        format = .cwt
        token = StatusListToken(subject: subject, issuedAt: Date(timeIntervalSince1970: Double(issuedAt)),
                                expiresAt: expiresAt.map { Date(timeIntervalSince1970: Double($0)) },
                                timeToLive: ttl.map { UInt64($0) }, issuer: issuer,
                                list: try StatusList(bits: bits, compressed: compressed, maximumBytes: maximumListBytes))
        certificateChain = chain
        signed = .cwt(sign1)
    }

    /// The largest token read for a list of at most `maximumListBytes`: a compressed list is at most the inflate bound;
    /// the compact form adds a third for base64 and the header. The wallet reads no more of a status list's answer.
    public static func maximumTokenBytes(maximumListBytes: Int) -> Int {
        max(JOSELimits.maximumCompactLength, maximumListBytes * 2)
    }

    /// A JWT (§5.1): `typ: statuslist+jwt`.
    public init(jwt text: String, maximumListBytes: Int = StatusList.defaultMaximumBytes) throws(StatusListError) {
        let jws: JWS
        let limit = Self.maximumTokenBytes(maximumListBytes: maximumListBytes)
        do { jws = try JWS(compactSerialization: text, maximumLength: limit) } catch {
            throw .malformedToken("not a compact JWS: \(error)")
        }
        guard jws.header.typ == StatusListToken.jwtType else { throw .wrongType(jws.header.typ) }
        let claims: [String: JSONValue]
        do {
            guard let object = try JSONValue(json: jws.payload).objectValue else { throw StatusListError.malformedToken("payload") }
            claims = object
        } catch {
            throw .malformedToken("the JWT payload is not a JSON object")
        }
        func integer(_ name: String) throws(StatusListError) -> Int64? {
            guard let value = claims[name] else { return nil }
            guard case .integer(let number) = value else { throw .malformedToken("\(name) is not an integer") }
            return number
        }
        guard let subjectValue = claims["sub"] else { throw .missingClaim("sub") }
        guard let subject = subjectValue.stringValue else { throw .malformedToken("sub is not a string") }
        guard let issuedAt = try integer("iat") else { throw .missingClaim("iat") }
        let expiresAt = try integer("exp")
        let ttl = try integer("ttl")
        if let ttl, ttl < 0 { throw .malformedToken("ttl is negative") }
        guard let listValue = claims["status_list"] else { throw .missingClaim("status_list") }
        guard let list = listValue.objectValue, case .integer(let bits)? = list["bits"], let lst = list["lst"]?.stringValue,
              let compressed = Base64URL.decode(lst) else {
            throw .malformedToken("status_list is not {bits, lst (base64url)}")
        }
        let chain: [[UInt8]]
        do { chain = try jws.header.x5c() ?? [] } catch { throw .malformedToken("x5c: \(error)") }
        format = .jwt
        token = StatusListToken(subject: subject, issuedAt: Date(timeIntervalSince1970: Double(issuedAt)),
                                expiresAt: expiresAt.map { Date(timeIntervalSince1970: Double($0)) },
                                timeToLive: ttl.map { UInt64($0) }, issuer: claims["iss"]?.stringValue,
                                list: try StatusList(bits: Int(clamping: bits), compressed: compressed, maximumBytes: maximumListBytes))
        certificateChain = chain
        signed = .jwt(jws)
    }

    /// Verifies the signature with `key` (ES256 / ES384, as the key's curve says).
    public func verifySignature(with key: Certificate.PublicKey) throws(StatusListError) {
        switch signed {
        case .cwt(let sign1):
            let verificationKey: COSEVerificationKey
            if let p256 = P256.Signing.PublicKey(key) {
                verificationKey = .p256(p256)
            } else if let p384 = P384.Signing.PublicKey(key) {
                verificationKey = .p384(p384)
            } else {
                throw .signerUntrusted("the signer key is not P-256 or P-384")
            }
            do { try sign1.verify(using: verificationKey) } catch { throw .signatureInvalid }
        case .jwt(let jws):
            let verificationKey: JWSVerificationKey
            if let p256 = P256.Signing.PublicKey(key) {
                verificationKey = .p256(p256)
            } else if let p384 = P384.Signing.PublicKey(key) {
                verificationKey = .p384(p384)
            } else {
                throw .signerUntrusted("the signer key is not P-256 or P-384")
            }
            do { try jws.verify(with: verificationKey) } catch { throw .signatureInvalid }
        }
    }
}
