import Foundation
import HoldfastProtocol
@testable import HoldfastSDK
import Testing

/// One contract (DESIGN.md §3): every code the server writes (`HoldfastErrorCode.serverCodes`; the server's
/// `ErrorCodeContractTests` holds it to that set) reaches the app as that code, known to this SDK, with the
/// tenant's problem details attached.
struct ServerCodeMappingTests {
    @Test(arguments: HoldfastErrorCode.serverCodes.sorted { $0.rawValue < $1.rawValue })
    func theSDKMapsEveryServerCode(_ code: HoldfastErrorCode) throws {
        let problem = ProblemDetails(status: 400, code: code, title: "t", detail: "d", requestId: "r-1")
        let response = TransportResponse(status: 400, headers: ["Content-Type": ProblemDetails.mediaType],
                                         body: try HoldfastJSON.encode(problem))
        let error = TenantClient.error(from: response)
        #expect(error.code == code)
        #expect(error.code.isKnown)
        #expect(error.problem == problem)
        #expect(error.message == "d")
    }
}
