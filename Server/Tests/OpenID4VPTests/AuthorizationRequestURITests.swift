import OpenID4VP
import Testing

/// OpenID4VP 1.0 §5.1, §5.10: the authorization request by reference.
@Suite struct AuthorizationRequestURITests {
    @Test func theParametersAreReadFromAnyScheme() throws {
        let uri = try AuthorizationRequestURI(parsing: "openid4vp://?client_id=x509_san_dns%3Av.example&request_uri=https%3A%2F%2Fv.example%2Fr%3Fa%3D1")
        #expect(uri.clientId == "x509_san_dns:v.example" && uri.requestUri == "https://v.example/r?a=1")
        #expect(uri.requestUriMethod == nil && !uri.passesRequestByValue)
        let link = try AuthorizationRequestURI(parsing: "https://wallet.example/authorize?via=web&request_uri=https://v.example/r&request_uri_method=post")
        #expect(link.clientId == nil && link.requestUri == "https://v.example/r" && link.requestUriMethod == "post")
    }

    @Test func aRequestByValueIsNoticed() throws {
        for parameter in ["request", "presentation_definition", "dcql_query"] {
            #expect(try AuthorizationRequestURI(parsing: "mdoc-openid4vp://?client_id=v.example&\(parameter)=x").passesRequestByValue)
        }
    }

    /// RFC 9101 §5.1: `request` carries the request object itself, read and written back as it came.
    @Test func theRequestObjectByValueIsReadAndWritten() throws {
        let parsed = try AuthorizationRequestURI(parsing: "openid4vp://?client_id=x509_hash%3Aabc&request=eyJh.eyJi.c2ln")
        #expect(parsed.request == "eyJh.eyJi.c2ln" && parsed.requestUri == nil && parsed.passesRequestByValue)
        #expect(try AuthorizationRequestURI(parsing: "openid4vp://?client_id=a&dcql_query=x").request == nil)
        let written = AuthorizationRequestURI(clientId: "x509_hash:abc", requestUri: nil, request: "eyJh.eyJi.c2ln")
        #expect(written.queryParameters.map(\.name) == ["client_id", "request"] && written.passesRequestByValue)
    }

    @Test func whatIsNotAURIIsRefused() {
        #expect(throws: OpenID4VPError.self) { try AuthorizationRequestURI(parsing: "http://[::1") }
    }

    @Test func theParametersAreWrittenInOrder() {
        let uri = AuthorizationRequestURI(clientId: "x509_hash:abc", requestUri: "https://v.example/r")
        #expect(uri.queryParameters.map(\.name) == ["client_id", "request_uri"])
        #expect(uri.queryParameters.map(\.value) == ["x509_hash:abc", "https://v.example/r"])
        #expect(AuthorizationRequestURI.Scheme.openID4VP.prefix == "openid4vp://?")
        #expect(AuthorizationRequestURI.Scheme.mdocOpenID4VP.prefix == "mdoc-openid4vp://?")
    }
}
