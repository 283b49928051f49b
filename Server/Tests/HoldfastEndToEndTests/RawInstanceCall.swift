import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import HoldfastSDK
import JOSE

/// An instance call made by hand (RFC 9449: `Authorization: DPoP <token>` and a `DPoP` proof), for the checks the
/// SDK would never make itself: a retired key, a replayed proof.
enum RawInstanceCall {
    static func request(tenant: EndToEndTenant, method: String = "POST", route: RouteTemplate, _ parameters: [String: String],
                        licenseToken: String, key: P256.Signing.PrivateKey, body: Data? = Data("{}".utf8)) throws -> TransportRequest {
        let url = try tenant.admin.url(route, parameters)
        let proof = try DPoPProof.create(method: method, uri: url.absoluteString, key: JWSSigningKey(key),
                                         issuedAt: Date(), accessToken: licenseToken)
        var headers = [HoldfastHeaders.dpop: proof,
                       HoldfastHeaders.authorization: HoldfastHeaders.authorizationValue(licenseToken: licenseToken)]
        if body != nil { headers[HoldfastHeaders.contentType] = HoldfastHeaders.jsonMediaType }
        return TransportRequest(method: method, url: url, headers: headers, body: body)
    }

    /// The problem code of a refused answer.
    static func code(of response: TransportResponse) -> HoldfastErrorCode? {
        (try? HoldfastJSON.decode(ProblemDetails.self, from: response.body))?.code
    }

    /// The problem code of a refused answer to a request sent through the admin client.
    static func code(of answer: AdminClient.Answer) -> HoldfastErrorCode? {
        answer.problem?.code
    }
}

/// The claims of a license token, read without verifying (the tenant verified it; tests only compare).
func licenseClaims(_ token: String) throws -> LicenseTokenClaims {
    let jws = try JWS(compactSerialization: token)
    guard let claims = LicenseTokenClaims(claims: try JWTClaims(payload: jws.payload)) else {
        throw AdminClient.Failure(status: 0, problem: nil)
    }
    return claims
}
