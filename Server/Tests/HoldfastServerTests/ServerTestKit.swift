import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JOSE
import Testing

/// Drives the tethering API in tests: applications, challenges, registration with an assertion or with
/// attestations from `TestAttestationAuthority`, and DPoP-signed instance calls.
struct ServerTestKit: Sendable {
    static let publicURL = "https://tenant.holdfast.test"

    let client: any TestClientProtocol
    let adminKey: String
    let authority: TestAttestationAuthority
    let configuration: HoldfastConfiguration
    /// The server's clock: a device's proofs are made at its time, so that a manual clock that stands still while a
    /// loaded machine runs the test does not put them out of the server's window.
    var clock: any HoldfastClock = SystemClock()

    /// A server on `backend` whose attestation roots are the test authority's, public URL `publicURL`.
    static func run(_ backend: StorageBackend, authority given: TestAttestationAuthority? = nil,
                    clock: any HoldfastClock = SystemClock(), testing: TestingSetup = .router,
                    random: any RandomSource = SystemRandomSource(),
                    configure: @escaping @Sendable (inout HoldfastConfiguration) -> Void = { _ in },
                    _ body: @escaping @Sendable (ServerTestKit) async throws -> Void) async throws {
        let authority = try given ?? TestAttestationAuthority()
        let roots = try authority.roots
        try await backend.withConfiguration { base in
            var configuration = base
            configuration.publicURL = publicURL
            configuration.tethering.appAttestTrustedRoots = roots
            configuration.tethering.androidTrustedRoots = roots
            configure(&configuration)
            let (application, startup) = try await HoldfastApplication.build(
                configuration: configuration, options: .init(logger: StorageBackend.quietLogger, clock: clock, random: random))
            let final = configuration
            try await application.test(testing) { client in
                let key = try #require(startup.bootstrapAdminKey)
                try await body(ServerTestKit(client: client, adminKey: key, authority: authority, configuration: final, clock: clock))
            }
        }
    }

    // MARK: applications

    static func iosApplication(name: String = "Wallet iOS \(UUID().uuidString.prefix(8))", required: Bool = false,
                               extra: String = "") -> String {
        #"{"type":"ios","name":"\#(name)","clientId":"wallet-ios","bundleId":"com.example.wallet","teamId":"ABCDE12345","appAttest":{"required":\#(required),"environment":"development"}\#(extra)}"#
    }

    static let signingDigest = [UInt8](repeating: 0xAB, count: 32)

    static func androidApplication(name: String = "Wallet Android \(UUID().uuidString.prefix(8))", required: Bool = true,
                                   extra: String = "") -> String {
        let thumbprint = signingDigest.map { String(format: "%02x", $0) }.joined()
        return #"{"type":"android","name":"\#(name)","clientId":"wallet-android","packageName":"com.example.wallet","packageSigningCertificateThumbprints":["\#(thumbprint)"],"keyAttestation":{"required":\#(required)}\#(extra)}"#
    }

    /// An admin call to a route of the contract (`template` filled in with `parameters`, `query` appended as written).
    func admin(_ route: RouteTemplate, _ parameters: [String: String], query: String = "", _ method: HTTPRequest.Method,
               _ body: String? = nil) async throws -> TestResponse {
        try await client.execute(uri: route.path(parameters) + query, method: method,
                                 headers: body == nil ? .bearer(adminKey) : .json(bearer: adminKey), body: body.map(jsonBody))
    }

    func admin(_ route: RouteTemplate, query: String = "", _ method: HTTPRequest.Method, _ body: String? = nil) async throws -> TestResponse {
        try await admin(route, [:], query: query, method, body)
    }

    func createApplication(_ json: String) async throws -> HolderApplication {
        let response = try await admin(TetheringRoutes.Template.applications, .post, json)
        try #require(response.status == .created, "create application: \(response.status) \(response.text)")
        return try HoldfastJSON.decode(HolderApplication.self, from: Data(response.body.readableBytesView))
    }

    // MARK: registration

    func challenge(_ applicationId: String) async throws -> String {
        let response = try await client.execute(uri: TetheringRoutes.Template.challenges.path(["applicationId": applicationId]), method: .post)
        try #require(response.status == .created, "challenge: \(response.status) \(response.text)")
        return try HoldfastJSON.decode(ChallengeResponse.self, from: Data(response.body.readableBytesView)).challenge
    }

    static func registration(challenge: String, key: P256.Signing.PrivateKey, assertion: Bool = true,
                             attestation: PlatformAttestationPayload? = nil) throws -> InstanceRegistrationRequest {
        let publicKey = InstancePublicKey(key.publicKey)
        let nonce = BindingNonce(challenge: challenge, publicKey: publicKey)
        return InstanceRegistrationRequest(
            challenge: challenge, publicKey: publicKey.encoded, attestation: attestation?.wire.attestation,
            assertion: assertion && attestation == nil ? try InstanceAssertion.sign(nonce, with: key) : nil,
            keyId: attestation?.wire.keyId,
            deviceDetails: DeviceDetails(deviceModel: "iPhone16,1", deviceMake: "Apple", osVersion: "18.1"),
            sdkDetails: SDKDetails(sdkVersion: "0.1.0"), externalReferenceId: "customer-42")
    }

    func register(_ applicationId: String, _ request: InstanceRegistrationRequest, devMode: Bool = false) async throws -> TestResponse {
        var headers = HTTPFields.json(bearer: nil)
        if devMode, let name = HTTPField.Name(HoldfastHeaders.devMode) { headers[name] = "true" }
        let body = String(decoding: try HoldfastJSON.encode(request), as: UTF8.self)
        return try await client.execute(uri: TetheringRoutes.Template.instances.path(["applicationId": applicationId]), method: .post,
                                        headers: headers, body: jsonBody(body))
    }

    /// Registration with a fresh key attested by the test Android authority over the real binding nonce, for the
    /// package and signing digest of `androidApplication()`.
    func registerWithAndroidAttestation(_ applicationId: String) async throws -> TestResponse {
        let challenge = try await challenge(applicationId)
        let key = P256.Signing.PrivateKey()
        let nonce = BindingNonce(challenge: challenge, publicKey: InstancePublicKey(key.publicKey))
        let chain = try authority.androidChain(instanceKey: key.publicKey, challenge: nonce.bytes,
                                               packageName: "com.example.wallet", signingDigest: Self.signingDigest)
        return try await register(applicationId, try Self.registration(
            challenge: challenge, key: key, attestation: .androidKeyAttestation(certificateChain: chain)))
    }

    /// A registered instance with an assertion: its key, id and license.
    struct Device: Sendable {
        var key: P256.Signing.PrivateKey
        var instanceId: String
        var licenseToken: String
        var applicationId: String

        /// The path of one of its instance routes (`TetheringRoutes.Template.license`, …), as a proof's `htu` names it.
        func path(_ route: RouteTemplate) -> String { route.path(["instanceId": instanceId]) }
    }

    func registerDevice(_ applicationId: String) async throws -> Device {
        let key = P256.Signing.PrivateKey()
        let response = try await register(applicationId, try Self.registration(challenge: try await challenge(applicationId), key: key))
        try #require(response.status == .created, "register: \(response.status) \(response.text)")
        let body = try HoldfastJSON.decode(InstanceRegistrationResponse.self, from: Data(response.body.readableBytesView))
        return Device(key: key, instanceId: body.instanceId, licenseToken: try #require(body.licenseToken),
                      applicationId: applicationId)
    }

    // MARK: instance calls

    /// A DPoP-signed call of `device` (license token + proof) to an instance route of the contract (`TetheringRoutes`),
    /// for the device's own id or `instanceId`; `proof` overrides the generated proof.
    func call(_ device: Device, _ route: RouteTemplate, instanceId: String? = nil, body: String = "{}", token: String? = nil,
              key: P256.Signing.PrivateKey? = nil, nonce: String? = nil, proof: String? = nil, devMode: Bool = false,
              issuedAt: Date? = nil) async throws -> TestResponse {
        let path = route.path(["instanceId": instanceId ?? device.instanceId])
        let signingKey = JWSSigningKey(key ?? device.key)
        let licenseToken = token ?? device.licenseToken
        var headers = HTTPFields.json(bearer: nil)
        headers[.authorization] = HoldfastHeaders.authorizationValue(licenseToken: licenseToken)
        let dpop = try proof ?? DPoPProof.create(method: "POST", uri: Self.publicURL + path, key: signingKey,
                                                 issuedAt: issuedAt ?? clock.now(), accessToken: licenseToken, nonce: nonce)
        headers[HTTPField.Name("DPoP")!] = dpop
        if devMode, let name = HTTPField.Name(HoldfastHeaders.devMode) { headers[name] = "true" }
        return try await client.execute(uri: path, method: .post, headers: headers, body: jsonBody(body))
    }
}

extension TestResponse {
    func wire<T: Decodable>(_ type: T.Type) throws -> T {
        try HoldfastJSON.decode(type, from: Data(body.readableBytesView))
    }

    var problemCode: String? { problem?.code?.rawValue }
}
