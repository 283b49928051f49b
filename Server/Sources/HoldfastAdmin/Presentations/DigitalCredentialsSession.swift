import Foundation
import HoldfastProtocol
import JOSE

extension PresentationSessionRequest {
    /// The `dcApi` member of a `dc-api` session (docs/server-api.md "Digital Credentials API"): which protocols the page
    /// offers the browser, the origins the page is served from, and whether `org-iso-mdoc` requests carry reader
    /// authentication. Every member may be left out for its default.
    public struct DCAPI: Codable, Sendable, Hashable {
        /// The protocols offered, in the page's order of preference; default
        /// `["openid4vp-v1-signed", "org-iso-mdoc"]`, also `"openid4vp-v1-unsigned"`.
        public var protocols: [String]?
        /// 1 to 5 web origins (`https://host[:port]`; `http://` for a loopback host only on a tenant whose public URL
        /// is http).
        public var origins: [String]?
        /// Reader authentication of `org-iso-mdoc` requests (ISO/IEC 18013-5 §9.1.4); default true.
        public var readerAuth: Bool?

        public static let defaultProtocols = ["openid4vp-v1-signed", "org-iso-mdoc"]

        public init(protocols: [String]? = nil, origins: [String]? = nil, readerAuth: Bool? = nil) {
            self.protocols = protocols
            self.origins = origins
            self.readerAuth = readerAuth
        }
    }
}

/// `201` of `POST /v2/presentations/sessions` with `protocol: "dc-api"` (docs/server-api.md "Digital Credentials API"):
/// `digital` is the member a page passes to `navigator.credentials.get({mediation: "required", digital})`.
public struct DigitalCredentialsSessionCreated: Codable, Sendable, Hashable {
    /// One `{protocol, data}` of `digital.requests` (W3C Digital Credentials `DigitalCredentialGetRequest`).
    public struct Request: Codable, Sendable, Hashable {
        public var `protocol`: String
        public var data: [String: JSONValue]

        public init(protocol: String, data: [String: JSONValue]) {
            self.protocol = `protocol`
            self.data = data
        }
    }

    /// `{requests: [{protocol, data}, …]}`, one request per protocol.
    public struct Digital: Codable, Sendable, Hashable {
        public var requests: [Request]

        public init(requests: [Request]) { self.requests = requests }
    }

    public var sessionId: String
    public var digital: Digital
    public var expiresAt: Date

    public init(sessionId: String, digital: Digital, expiresAt: Date) {
        self.sessionId = sessionId
        self.digital = digital
        self.expiresAt = expiresAt
    }
}

/// `200` of `POST /v2/presentations/sessions/{sessionId}/dc-api-response`: the code that reads the session's result
/// once without a key (`GET …/result?response_code=`).
public struct DigitalCredentialsAnswered: Codable, Sendable, Hashable {
    public var responseCode: String

    public init(responseCode: String) { self.responseCode = responseCode }
}
