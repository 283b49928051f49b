import Foundation

/// The tethering endpoints of issue 5, as paths (each id percent-encoded as one path segment) and as route
/// patterns with `:name` parameters (Hummingbird's syntax) for the server.
public enum TetheringRoutes {
    /// `/v1/holder/applications` — admin: create (POST), list (GET `?limit=&cursor=`).
    public static let applications = "/v1/holder/applications"

    /// `/v1/holder/applications/{applicationId}` — admin: get, put, delete.
    public static func application(_ applicationId: String) -> String {
        applications + "/" + segment(applicationId)
    }

    /// `POST /v1/holder/applications/{applicationId}/challenges` → `ChallengeResponse`.
    public static func challenges(applicationId: String) -> String {
        application(applicationId) + "/challenges"
    }

    /// `POST …/instances` (register, `InstanceRegistrationRequest`), `GET …/instances?limit=&cursor=` (admin list).
    public static func instances(applicationId: String) -> String {
        application(applicationId) + "/instances"
    }

    /// `DELETE /v1/holder/applications/{applicationId}/instances/{instanceId}` — admin: revoke.
    public static func instance(applicationId: String, instanceId: String) -> String {
        instances(applicationId: applicationId) + "/" + segment(instanceId)
    }

    /// `/v1/holder/instances/{instanceId}`: the prefix of the instance's own (DPoP) calls.
    public static func holderInstance(_ instanceId: String) -> String {
        "/v1/holder/instances/" + segment(instanceId)
    }

    /// `POST /v1/holder/instances/{instanceId}/license` — renew (`LicenseRenewalRequest`).
    public static func license(instanceId: String) -> String {
        holderInstance(instanceId) + "/license"
    }

    /// `POST /v1/holder/instances/{instanceId}/keys/rotate` — `KeyRotationRequest`.
    public static func rotateKey(instanceId: String) -> String {
        holderInstance(instanceId) + "/keys/rotate"
    }

    /// `POST /v1/holder/instances/{instanceId}/wallet-attestations` — `WalletAttestationRequest`.
    public static func walletAttestations(instanceId: String) -> String {
        holderInstance(instanceId) + "/wallet-attestations"
    }

    /// Route patterns for the server's router.
    public enum Pattern {
        public static let applications = "/v1/holder/applications"
        public static let application = "/v1/holder/applications/:applicationId"
        public static let challenges = "/v1/holder/applications/:applicationId/challenges"
        public static let instances = "/v1/holder/applications/:applicationId/instances"
        public static let instance = "/v1/holder/applications/:applicationId/instances/:instanceId"
        public static let license = "/v1/holder/instances/:instanceId/license"
        public static let rotateKey = "/v1/holder/instances/:instanceId/keys/rotate"
        public static let walletAttestations = "/v1/holder/instances/:instanceId/wallet-attestations"
    }

    /// Query parameter names of the paginated lists.
    public enum Query {
        public static let limit = "limit"
        public static let cursor = "cursor"
    }

    /// `id` as one path segment: RFC 3986 §2.3 unreserved characters (ASCII letters, digits, `-._~`) kept, every
    /// other UTF-8 byte percent-encoded in upper case (§2.1). Byte by byte: this runs for every instance call.
    public static func segment(_ id: String) -> String {
        func isUnreserved(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
            default: false
            }
        }
        guard !id.utf8.allSatisfy(isUnreserved) else { return id }
        let hex = Array("0123456789ABCDEF".utf8)
        var encoded: [UInt8] = []
        encoded.reserveCapacity(id.utf8.count * 3)
        for byte in id.utf8 {
            if isUnreserved(byte) {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }
}
