import ArgumentParser
import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import HoldfastServer
import JOSE
import NIOHTTP1
import OpenID4VCI

/// `holdfast bench issuance` (docs/operations.md "Benchmarks"): mDocs issued per second over HTTP — the admin's offer, the
/// wallet's token request (client attestation, its PoP and DPoP), a `c_nonce` and the credential request with its
/// key proof (OpenID4VCI 1.0) — against a tenant in this process on SQLite, with p50 / p99 of the whole flow, next
/// to the raw ECDSA P-256 verify rate measured in the same run. Target: ≥ 400 credentials/s on 2 cores, p99 < 50 ms.
struct IssuanceBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "issuance", abstract: "Offer → token → credential per second over HTTP, p50/p99, against raw P-256 verifies/s.")

    @Option(help: "Seconds to measure.") var seconds: Double = 3
    @Option(help: "Concurrent wallets, each on its own keep-alive connection.") var concurrency: Int = 8

    func validate() throws {
        guard seconds > 0, seconds <= 600 else { throw ValidationError("--seconds must be in (0, 600]") }
        guard (1...256).contains(concurrency) else { throw ValidationError("--concurrency must be 1…256") }
    }

    func run() async throws {
        if let benchBuildWarning { print(benchBuildWarning) }
        let digest = SHA256.hash(data: Array("holdfast issuance bench".utf8))
        let key = P256.Signing.PrivateKey()
        let signature = try key.signature(for: digest), publicKey = key.publicKey
        let raw = try measureRate(seconds: seconds) {
            guard publicKey.isValidSignature(signature, for: digest) else { throw CommandFailure(.failure, "P-256 verify failed") }
        }
        print(String(format: "raw ECDSA P-256 verify (precomputed digest, one core): %.0f ops/s", raw.perSecond))

        let (seconds, concurrency) = (self.seconds, self.concurrency)
        try await InProcessBenchTenant.run(CommandRun.system()) { _, target in
            let adminKey = target.adminKey
            let applicationId = try await target.createApplication()
            let setup = try await BenchConnection.connect(host: target.host, port: target.port)
            let created = try await setup.send(.POST, CredentialAdminRoutes.Template.configurations.template,
                                               headers: IssuanceWallet.adminHeaders(adminKey), body: Array(IssuanceWallet.configuration.utf8))
            guard created.status == 201 else { throw CommandFailure(.failure, "configuration: HTTP \(created.status)") }
            await setup.close()

            var wallets: [IssuanceWallet] = []
            for _ in 0..<concurrency {
                let wallet = try await IssuanceWallet.make(target, applicationId: applicationId)
                for _ in 0..<5 { try await wallet.claim() }
                wallets.append(wallet)
            }
            let (rate, latencies) = try await runTimedLoad(wallets, seconds: seconds) { try await $0.claim() }
            let result = LoadResult(rate: rate, latencies: latencies, clients: [])
            for wallet in wallets { await wallet.close() }
            print("concurrency: \(concurrency) wallets, \(seconds) s; each credential: offer, token, nonce, credential")
            printComparison(name: "credentials issued (offer → token → credential)", ours: result.rate,
                            baselineName: "raw ECDSA P-256 verify", baseline: raw.perSecond)
            print(String(format: "latency of the whole flow: p50 %.2f ms, p99 %.2f ms, max %.2f ms",
                         result.percentile(0.50), result.percentile(0.99), result.percentile(1.0)))
            print("target: ≥ 400 credentials/s, p99 < 50 ms")
        }
    }
}

/// One wallet for `bench issuance`: a registered instance with its wallet attestation, claiming credentials the
/// admin offers it, exactly as an OpenID4VCI wallet does, and checking every answer.
final class IssuanceWallet: @unchecked Sendable {
    // Used by one task at a time (the load loop awaits each claim before the next).
    static let configuration = #"{"id":"bench-mdl","docType":"org.iso.18013.5.1.mDL","display":{"name":"Bench licence"}}"#
    static let offer = Array(#"{"configurationId":"bench-mdl","claims":{"org.iso.18013.5.1":{"family_name":"Doe","given_name":"Jane","birth_date":{"$type":"full-date","value":"1990-02-28"},"age_over_18":true}}}"#.utf8)

    private let connection: BenchConnection
    private let target: BenchTarget
    private let instanceKey: JWSSigningKey
    private let attestation: String

    private init(connection: BenchConnection, target: BenchTarget, instanceKey: JWSSigningKey, attestation: String) {
        self.connection = connection
        self.target = target
        self.instanceKey = instanceKey
        self.attestation = attestation
    }

    static func adminHeaders(_ key: String) -> [(String, String)] {
        [(HoldfastHeaders.authorization, "Bearer \(key)"), (HoldfastHeaders.contentType, HoldfastHeaders.jsonMediaType)]
    }

    /// Registers an instance (assertion) and gets its wallet attestation.
    static func make(_ target: BenchTarget, applicationId: String) async throws -> IssuanceWallet {
        let connection = try await BenchConnection.connect(host: target.host, port: target.port)
        let answer = try await connection.send(.POST, TetheringRoutes.challenges(applicationId: applicationId))
        let challenge = try HoldfastJSON.decode(ChallengeResponse.self, from: Data(answer.body)).challenge
        let key = P256.Signing.PrivateKey()
        let publicKey = InstancePublicKey(key.publicKey)
        let request = InstanceRegistrationRequest(
            challenge: challenge, publicKey: publicKey.encoded,
            assertion: try InstanceAssertion.sign(BindingNonce(challenge: challenge, publicKey: publicKey), with: key),
            deviceDetails: DeviceDetails(deviceModel: "bench", deviceMake: "Holdfast", osVersion: "1"),
            sdkDetails: SDKDetails(sdkVersion: "bench"))
        let registered = try await connection.send(.POST, TetheringRoutes.instances(applicationId: applicationId),
                                                   headers: [(HoldfastHeaders.contentType, HoldfastHeaders.jsonMediaType)],
                                                   body: Array(try HoldfastJSON.encode(request)))
        guard registered.status == 201 else { throw CommandFailure(.failure, "registration: HTTP \(registered.status)") }
        let instance = try HoldfastJSON.decode(InstanceRegistrationResponse.self, from: Data(registered.body))
        guard let license = instance.licenseToken else { throw CommandFailure(.failure, "registration gave no license") }
        let signing = JWSSigningKey(key)
        let path = TetheringRoutes.walletAttestations(instanceId: instance.instanceId)
        let proof = try DPoPProof.create(method: "POST", uri: target.baseURL + path, key: signing, issuedAt: target.run.now(),
                                         accessToken: license)
        let attested = try await connection.send(.POST, path, headers: [
            (HoldfastHeaders.contentType, HoldfastHeaders.jsonMediaType),
            (HoldfastHeaders.authorization, HoldfastHeaders.authorizationValue(licenseToken: license)),
            (HoldfastHeaders.dpop, proof),
        ], body: Array("{}".utf8))
        guard attested.status == 200 || attested.status == 201 else {
            throw CommandFailure(.failure, "wallet attestation: HTTP \(attested.status) \(String(decoding: attested.body.prefix(200), as: UTF8.self))")
        }
        let attestation = try HoldfastJSON.decode(WalletAttestationResponse.self, from: Data(attested.body)).walletAttestation
        return IssuanceWallet(connection: connection, target: target, instanceKey: signing, attestation: attestation)
    }

    func close() async { await connection.close() }

    /// One credential: the admin's offer, then the wallet's token, nonce and credential requests.
    func claim() async throws {
        let offered = try await connection.send(.POST, CredentialAdminRoutes.Template.offers.template, headers: Self.adminHeaders(target.adminKey),
                                                body: Self.offer)
        guard offered.status == 201 else { throw Self.failure("offer", offered) }
        let offerURI = try HoldfastJSON.decode(CredentialOfferCreated.self, from: Data(offered.body)).offerUri
        guard case .value(let offer) = try CredentialOfferURI(offerURI),
              let code = offer.grants?.preAuthorizedCode?.preAuthorizedCode else { throw CommandFailure(.failure, "offer: no pre-authorized code") }

        let dpopKey = JWSSigningKey(P256.Signing.PrivateKey())
        let now = target.run.now()
        let pop = try await ClientAttestationPoP.create(audience: target.baseURL, signer: instanceKey, issuedAt: now)
        let tokenProof = try DPoPProof.create(method: "POST", uri: target.baseURL + IssuanceRoutes.Template.token.template, key: dpopKey, issuedAt: now)
        let tokenAnswer = try await connection.send(.POST, IssuanceRoutes.Template.token.template, headers: [
            (HoldfastHeaders.contentType, "application/x-www-form-urlencoded"),
            (HoldfastHeaders.oauthClientAttestation, attestation), (HoldfastHeaders.oauthClientAttestationPoP, pop), (HoldfastHeaders.dpop, tokenProof),
        ], body: Array(PercentEncoding.formBody(TokenRequest(preAuthorizedCode: code).formParameters).utf8))
        guard tokenAnswer.status == 200 else { throw Self.failure("token", tokenAnswer) }
        let accessToken = try TokenResponse.decode(Data(tokenAnswer.body)).accessToken

        let nonceAnswer = try await connection.send(.POST, IssuanceRoutes.Template.nonce.template)
        guard nonceAnswer.status == 200 else { throw Self.failure("nonce", nonceAnswer) }
        let nonce = try NonceResponse.decode(Data(nonceAnswer.body)).cNonce

        let credentialKey = P256.Signing.PrivateKey()
        let keyProof = try JWT.sign(claims: KeyProof.claims(clientId: nil, credentialIssuer: target.baseURL, issuedAt: now, nonce: nonce),
                                    header: try KeyProof.header(jwk: JWK(publicKey: credentialKey.publicKey)),
                                    key: JWSSigningKey(credentialKey))
        let credentialProof = try DPoPProof.create(method: "POST", uri: target.baseURL + IssuanceRoutes.Template.credential.template, key: dpopKey,
                                                   issuedAt: now, accessToken: accessToken)
        let body = try OpenID4VCIJSON.encode(CredentialRequest(credentialConfigurationId: "bench-mdl", proofs: .init(jwt: [keyProof])))
        let credential = try await connection.send(.POST, IssuanceRoutes.Template.credential.template, headers: [
            (HoldfastHeaders.contentType, HoldfastHeaders.jsonMediaType), (HoldfastHeaders.authorization, "DPoP \(accessToken)"),
            (HoldfastHeaders.dpop, credentialProof),
        ], body: Array(body))
        guard credential.status == 200, try CredentialResponse.decode(Data(credential.body)).credentials?.count == 1 else {
            throw Self.failure("credential", credential)
        }
    }

    private static func failure(_ step: String, _ response: BenchResponse) -> CommandFailure {
        CommandFailure(.failure, "\(step): HTTP \(response.status) \(String(decoding: response.body.prefix(300), as: UTF8.self))")
    }
}
