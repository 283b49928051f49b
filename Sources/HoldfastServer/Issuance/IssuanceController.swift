import HoldfastProtocol
import Hummingbird

/// The mDoc issuer's routes (README "API"): `GET /v1/credentials/mobile/iacas` (admin) lists the IACA certificates
/// verifiers should trust.
struct IssuanceController: HoldfastController {
    static let iacas: RouteTemplate = "/v1/credentials/mobile/iacas"

    let certificates: IssuerCertificateStore
    let clock: any HoldfastClock

    var routes: [Route] {
        [
            .admin(.get, Self.iacas) { _, _ in
                let current = await certificates.current(now: clock.now())
                return try JSONResponse.make(IssuerCertificateAdmin.iacas(current))
            },
        ]
    }
}
