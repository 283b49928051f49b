import Foundation
import JOSE

/// The payload of an SCA proof (docs/server-api.md "SCA wallet (back end)"): a compact JWS, ES256 by the wallet's key, header `typ`
/// `sca-proof+jwt` and `kid` the wallet id, whose payload is exactly these members.
public struct SCAProofClaims: Codable, Sendable, Hashable {
    public static let type = "sca-proof+jwt"

    /// The operation's HTTP method, upper-case (`SCAPayload.method`).
    public var method: String
    /// The operation's endpoint without query string (`SCAPayload.url`).
    public var url: String
    /// The operation's signed parameters (`SCAPayload.body`); `{}` when none.
    public var body: JSONValue
    /// What the customer was shown and approved.
    public var message: String
    public var pattern: SCAPattern
    /// Data of the app's own to bind into the proof (a transaction reference, an amount); `null` when none.
    public var signatureInputData: JSONValue
    public var walletId: String
    /// Seconds since 1970.
    public var iat: Int64
    /// Unique per proof; a proof is accepted once.
    public var jti: String
    /// The wallet's proof counter: one more on every proof the device signs. The tenant requires it to increase from
    /// one accepted proof to the next; a repeated or lower one means a second copy of the wallet (a clone), and locks
    /// it (`FRAUD_SUSPICION`).
    public var counter: Int64

    public init(method: String, url: String, body: JSONValue, message: String, pattern: SCAPattern, signatureInputData: JSONValue,
                walletId: String, iat: Int64, jti: String, counter: Int64) {
        self.method = method
        self.url = url
        self.body = body
        self.message = message
        self.pattern = pattern
        self.signatureInputData = signatureInputData
        self.walletId = walletId
        self.iat = iat
        self.jti = jti
        self.counter = counter
    }

    enum CodingKeys: String, CodingKey {
        case method, url, body, message, pattern, signatureInputData, walletId, iat, jti, counter
    }

    /// The proof's JOSE header before `alg`: `typ` `sca-proof+jwt`, `kid` the wallet id.
    public var header: JOSEHeader {
        var header = JOSEHeader()
        header.typ = Self.type
        header.kid = walletId
        return header
    }

    /// The member names, exactly: a proof with another member, or without one of these, is malformed.
    public static let memberNames: Set<String> = ["method", "url", "body", "message", "pattern", "signatureInputData", "walletId", "iat", "jti", "counter"]

    /// The claims of a payload already parsed: exactly `memberNames`, each of its type; nil for anything else.
    public init?(members: [String: JSONValue]) {
        guard Set(members.keys) == Self.memberNames, let method = members["method"]?.stringValue, let url = members["url"]?.stringValue, let body = members["body"],
              let message = members["message"]?.stringValue, let pattern = members["pattern"]?.stringValue.flatMap(SCAPattern.init),
              let signatureInputData = members["signatureInputData"], let walletId = members["walletId"]?.stringValue,
              case .integer(let iat)? = members["iat"], let jti = members["jti"]?.stringValue,
              case .integer(let counter)? = members["counter"], counter > 0 else { return nil }
        self.init(method: method, url: url, body: body, message: message, pattern: pattern, signatureInputData: signatureInputData,
                  walletId: walletId, iat: iat, jti: jti, counter: counter)
    }

    // `signatureInputData` and `body` are written even when null, so that the payload always has every member.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(method, forKey: .method)
        try container.encode(url, forKey: .url)
        try container.encode(body, forKey: .body)
        try container.encode(message, forKey: .message)
        try container.encode(pattern, forKey: .pattern)
        try container.encode(signatureInputData, forKey: .signatureInputData)
        try container.encode(walletId, forKey: .walletId)
        try container.encode(iat, forKey: .iat)
        try container.encode(jti, forKey: .jti)
        try container.encode(counter, forKey: .counter)
    }
}
