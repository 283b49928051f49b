import ArgumentParser
import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import HoldfastServer
import JOSE
import NIOHTTP1

/// `holdfast bench sca` — SCA proof verification (docs/operations.md "Benchmarks"): proofs verified per second through
/// `POST /v1/sca/proofs/verify`, with p50 / p99 latency, against a tenant started in this process (the
/// environment's configuration: SQLite unless `HOLDFAST_DATABASE_URL` says otherwise; access log on, to a file),
/// next to the raw ES256 verify rate (SHA-256 of the signing input + ECDSA P-256, one core) of the same run.
///
/// The bank's back end is simulated by clients on keep-alive connections with an API key of scope `sca`; every
/// proof is fresh (one `jti` each, signed before the clock starts, by wallets activated through the API) and every
/// answer must be `valid: true`.
struct SCABench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sca",
        abstract: "SCA proofs verified per second over HTTP, p50/p99, against raw ES256 verifies/s."
    )

    @Option(help: "Seconds to measure.")
    var seconds: Double = 3

    @Option(help: "Concurrent clients (the bank's back end), each on its own keep-alive connection with its own wallet.")
    var concurrency: Int = 8

    /// The operation every proof approves, and its signing policy.
    static let url = DemoBankRoutes.beneficiariesURL
    static let body: JSONValue = .object(["name": .string("Alex Martin"), "iban": .string("FR7630001007941234567890185"),
                                          "accessTag": .string("bench")])
    static let policies = DemoBankRoutes.beneficiaryPolicy(requiredPatterns: [])
    /// Proofs signed ahead per client: more than a client verifies in `seconds` at several times the target rate.
    var proofsPerClient: Int { max(200, Int(seconds * 12_000) / concurrency) }

    func validate() throws {
        guard seconds > 0, seconds <= 120 else { throw ValidationError("--seconds must be in (0, 120]") }
        guard (1...64).contains(concurrency) else { throw ValidationError("--concurrency must be 1…64") }
    }

    func run() async throws {
        if let benchBuildWarning { print(benchBuildWarning) }
        let run = CommandRun.system()
        let key = P256.Signing.PrivateKey()
        let sample = try Self.proof(walletId: "00000000-0000-4000-8000-000000000000", key: JWSSigningKey(key), jti: "sample", counter: 1,
                                    issuedAt: run.now())
        let parts = sample.split(separator: ".")
        let signingInput = Array("\(parts[0]).\(parts[1])".utf8)
        guard let rawSignature = Base64URL.decode(String(parts[2])) else { throw CommandFailure(.failure, "the sample proof has no signature") }
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: rawSignature)
        let publicKey = key.publicKey
        let raw = try measureRate(seconds: seconds) {
            guard publicKey.isValidSignature(signature, for: SHA256.hash(data: signingInput)) else { throw CommandFailure(.failure, "ES256 verify failed") }
        }
        print(String(format: "raw ES256 verify (SHA-256 of the proof's signing input + ECDSA P-256, one core): %.0f ops/s", raw.perSecond))

        try await InProcessBenchTenant.run(run) { _, target in
            try await measure(target, baseline: raw)
        }
    }

    private func measure(_ target: BenchTarget, baseline: Rate) async throws {
        let admin = AdminClient(baseURL: target.baseURL, adminKey: target.adminKey)
        let applicationId = try await target.createApplication()
        _ = try await admin.replaceSCAPolicies(Self.policies)
        let scaKey = try await admin.createAdminKey(AdminKeyCreateRequest(name: "bank back end (bench)", scope: .sca)).key

        print("concurrency: \(concurrency) clients (each its own wallet), \(seconds) s; key scope sca; \(proofsPerClient) proofs signed ahead per client")
        var clients: [Client] = []
        for index in 0..<concurrency {
            let (walletId, key) = try await activateWallet(admin: admin, target: target, applicationId: applicationId, user: "bench-\(index)")
            var proofs: [[UInt8]] = []
            proofs.reserveCapacity(proofsPerClient)
            for index in 0..<proofsPerClient {
                // Verified in the order signed, so that each counter is above the last accepted one.
                let proof = try Self.proof(walletId: walletId, key: key, jti: target.run.random.identifier(), counter: Int64(index + 1),
                                           issuedAt: target.run.now())
                proofs.append(Array(try HoldfastJSON.encode(SCAProofVerifyRequest(proof: proof, method: "POST", url: Self.url, body: Self.body))))
            }
            clients.append(Client(connection: try await BenchConnection.connect(host: target.host, port: target.port), key: scaKey, requests: proofs))
        }
        for client in clients {
            for _ in 0..<5 { try await client.verifyNext() }
        }
        let (rate, latencies) = try await runTimedLoad(clients, seconds: seconds, more: { $0.hasMore }) { try await $0.verifyNext() }
        for client in clients { await client.close() }
        if clients.contains(where: { !$0.hasMore }) { print("note: a client used every proof it had before the time was up") }
        let result = LoadResult(rate: rate, latencies: latencies, clients: [])
        print("")
        printComparison(name: "SCA proofs verified (POST \(SCARoutes.Template.verifyProof))", ours: result.rate, baselineName: "raw ES256 verify",
                        baseline: baseline.perSecond)
        print(String(format: "latency: p50 %.2f ms, p99 %.2f ms, max %.2f ms", result.percentile(0.50), result.percentile(0.99), result.percentile(1.0)))
        print(String(format: "target: ≥ 2000 proofs/s (%@), p99 < 25 ms (%@)", result.rate.perSecond >= 2_000 ? "met" : "NOT met",
                     result.percentile(0.99) < 25 ? "met" : "NOT met"))
    }

    /// A wallet made through the admin API and activated as a device does (challenge, assertion over the binding
    /// nonce, one-time code).
    private func activateWallet(admin: AdminClient, target: BenchTarget, applicationId: String,
                                user: String) async throws -> (String, JWSSigningKey) {
        let wallet = try await admin.createSCAWallet(SCAWalletCreateRequest(applicationId: applicationId, userId: user))
        let challengeAnswer = try await admin.send("POST", TetheringRoutes.Template.challenges, ["applicationId": applicationId], authenticated: false)
        let challenge = try HoldfastJSON.decode(ChallengeResponse.self, from: challengeAnswer.body).challenge
        let key = P256.Signing.PrivateKey()
        let publicKey = InstancePublicKey(key.publicKey)
        let assertion = try InstanceAssertion.sign(BindingNonce(challenge: challenge, publicKey: publicKey), with: key)
        let request = SCAActivationRequest(activationCode: wallet.activationCode, challenge: challenge, publicKey: publicKey.encoded,
                                           assertion: assertion, device: .init(model: "bench", appVersion: "1.0.0"))
        let activated = try await admin.send("POST", SCARoutes.Template.activations, body: try HoldfastJSON.encode(request), authenticated: false)
        guard activated.status == 201 else { throw CommandFailure(.failure, "activating a wallet: HTTP \(activated.status)") }
        return (wallet.walletId, JWSSigningKey(key))
    }

    /// A possession (`none`) proof, signed with the wallet key: the PIN and biometry keys sign only on a device.
    static func proof(walletId: String, key: JWSSigningKey, jti: String, counter: Int64, issuedAt: Date) throws -> String {
        let payload = try SCAPayload(method: "POST", url: url, body: body, policy: nil)
        let claims = SCAProofClaims(method: payload.method, url: payload.url, body: payload.body, message: "Add Alex Martin as a beneficiary", pattern: .none,
                                    signatureInputData: .null, walletId: walletId, iat: Int64(issuedAt.timeIntervalSince1970), jti: jti,
                                    counter: counter)
        return try JWS.sign(payload: try JSONEncoder().encode(claims), header: claims.header, key: key).compactSerialization
    }

    /// The bank's back end on one connection, with the requests it will send.
    final class Client: @unchecked Sendable {
        // Used by one task at a time (the load loop awaits each verification before the next).
        private let connection: BenchConnection
        private let headers: [(String, String)]
        private let requests: [[UInt8]]
        private var next = 0

        init(connection: BenchConnection, key: String, requests: [[UInt8]]) {
            self.connection = connection
            self.headers = [(HoldfastHeaders.contentType, HoldfastHeaders.jsonMediaType), ("Authorization", "Bearer \(key)")]
            self.requests = requests
        }

        var hasMore: Bool { next < requests.count }

        func verifyNext() async throws {
            guard hasMore else { throw CommandFailure(.failure, "out of proofs") }
            let body = requests[next]
            next += 1
            let answer = try await connection.send(.POST, SCARoutes.Template.verifyProof.template, headers: headers, body: body)
            guard answer.status == 200 else { throw CommandFailure(.failure, "verify: HTTP \(answer.status) \(String(decoding: answer.body.prefix(200), as: UTF8.self))") }
            let verdict = try HoldfastJSON.decode(SCAProofVerification.self, from: Data(answer.body))
            guard verdict.valid else { throw CommandFailure(.failure, "a fresh proof was refused: \(verdict.code ?? "-") \(verdict.reason ?? "")") }
        }

        func close() async { await connection.close() }
    }
}
