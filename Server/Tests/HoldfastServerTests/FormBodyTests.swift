@testable import HoldfastServer
import OpenID4VCI
import Testing

/// RFC 6749 Appendix B: the form bodies of the token endpoint and the OpenID4VP response endpoint.
@Suite struct FormBodyTests {
    @Test func pairsArePercentAndPlusDecodedAndRepeatsKept() throws {
        let form = try FormBody.parse("grant_type=urn%3Aietf%3Aparams&tx_code=12+34&a=1&a=2&empty=&bare&&%C3%A9=%7E")
        #expect(form == ["grant_type": ["urn:ietf:params"], "tx_code": ["12 34"], "a": ["1", "2"], "empty": [""], "bare": [""],
                         "é": ["~"]])
    }

    @Test func aBadPercentEncodingIsAnInvalidRequest() {
        do {
            _ = try FormBody.parse("code=%ZZ")
            Issue.record("a bad percent-encoding was read")
        } catch let error as OAuthError {
            #expect(error.error == .invalidRequest && error.status == .badRequest)
        } catch {
            Issue.record("\(error)")
        }
    }
}
