import ArgumentParser
import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import HoldfastServer
import JOSE
import NIOHTTP1

/// `holdfast bench registration` — the tethering load benchmark (docs/operations.md "Benchmarks"): registrations (challenge + register with
/// an assertion) and license renewals (DPoP-signed) per second over HTTP, with p50 / p99 latency, next to the raw
/// ECDSA P-256 verify rate of the same machine measured in the same run.
///
/// It always measures a tenant started in this process on a free loopback port, with the configuration of the
/// environment (so `HOLDFAST_DATABASE_URL` / `HOLDFAST_REDIS_URL` put it on PostgreSQL / Redis), its access log on,
/// and a temporary data folder; `--tenant URL --admin-key KEY` first measures a server that is already running
/// (started as docs/operations.md "Benchmarks" says), so one run reports both. The clients run in this process, one keep-alive
/// connection each: on a 2-core machine they share the cores with an in-process tenant.
struct RegistrationBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "registration",
        abstract: "Registrations and license renewals per second over HTTP, p50/p99, against raw ECDSA P-256 verifies/s."
    )

    @Option(help: "Seconds to measure each side.")
    var seconds: Double = 3

    @Option(help: "Concurrent clients, each on its own keep-alive connection.")
    var concurrency: Int = 8

    @Option(help: "Base URL of a running tenant to measure before the in-process one (its public URL: DPoP proofs are made for it).")
    var tenant: String?

    @Option(help: "An admin API key of --tenant (to create the benchmark's holder application).")
    var adminKey: String?

    func validate() throws {
        guard seconds > 0, seconds <= 600 else { throw ValidationError("--seconds must be in (0, 600]") }
        guard (1...256).contains(concurrency) else { throw ValidationError("--concurrency must be 1…256") }
        if tenant != nil, adminKey == nil { throw ValidationError("--tenant needs --admin-key") }
        if tenant == nil, adminKey != nil { throw ValidationError("--admin-key goes with --tenant") }
    }

    func run() async throws {
        if let benchBuildWarning { print(benchBuildWarning) }
        let digest = SHA256.hash(data: Array("holdfast registration bench".utf8))
        let key = P256.Signing.PrivateKey()
        let signature = try key.signature(for: digest), publicKey = key.publicKey
        let raw = try measureRate(seconds: seconds) {
            guard publicKey.isValidSignature(signature, for: digest) else { throw CommandFailure(.failure, "P-256 verify failed") }
        }
        print(String(format: "raw ECDSA P-256 verify (precomputed digest, one core): %.0f ops/s", raw.perSecond))

        let run = CommandRun.system()
        if let tenant, let adminKey {
            let target = try BenchTarget(baseURL: tenant, adminKey: adminKey, run: run)
            print("— against the tenant at \(tenant) (already running) —")
            try await measure(target, baseline: raw)
        }
        try await measureInProcess(baseline: raw, run: run)
    }

    /// The same load against a tenant started in this process (`InProcessBenchTenant`).
    private func measureInProcess(baseline: Rate, run: CommandRun) async throws {
        try await InProcessBenchTenant.run(run) { _, target in
            try await measure(target, baseline: baseline)
        }
    }

    /// What one run measured: the application it made, and both loads.
    struct Outcome {
        let applicationId: String
        let registration: LoadResult
        let renewal: LoadResult
        /// Registrations made in all, warm-up included (each left one instance on the tenant).
        var instancesRegistered: Int { registration.clients.reduce(0) { $0 + $1.deviceCount } }
    }

    @discardableResult
    func measure(_ target: BenchTarget, baseline: Rate) async throws -> Outcome {
        let applicationId = try await target.createApplication()
        print("concurrency: \(concurrency) clients, \(seconds) s per side; application \(applicationId) (assertion allowed)")

        let registration = try await runLoad(target, seconds: seconds) { client in
            try await client.register(applicationId: applicationId)
        }
        report("registration (challenge + register, assertion)", registration, baseline: baseline)

        let renewal = try await runLoad(target, seconds: seconds, prepare: registration.clients) { client in
            try await client.renewNext()
        }
        report("license renewal (DPoP)", renewal, baseline: baseline)
        for client in renewal.clients { await client.close() }
        return Outcome(applicationId: applicationId, registration: registration, renewal: renewal)
    }

    /// Runs `operation` on `concurrency` clients until `seconds` have passed (after a short warm-up of each client)
    /// and returns the operations, their latencies, and the clients (with what they registered).
    private func runLoad(_ target: BenchTarget, seconds: Double, prepare: [BenchClient]? = nil,
                         _ operation: @escaping @Sendable (BenchClient) async throws -> Void) async throws -> LoadResult {
        var clients = prepare ?? []
        if clients.isEmpty {
            // Each connection is opened just before it is used: the server closes one that stays silent longer
            // than its header timeout (docs/operations.md "Configuration").
            for _ in 0..<concurrency {
                let client = try await BenchClient.connect(target)
                for _ in 0..<5 { try await operation(client) }
                clients.append(client)
            }
        } else {
            for client in clients {
                for _ in 0..<5 { try await operation(client) }
            }
        }
        let (rate, latencies) = try await runTimedLoad(clients, seconds: seconds, operation)
        return LoadResult(rate: rate, latencies: latencies, clients: clients)
    }

    private func report(_ name: String, _ result: LoadResult, baseline: Rate) {
        print("")
        printComparison(name: name, ours: result.rate, baselineName: "raw ECDSA P-256 verify", baseline: baseline.perSecond)
        print(String(format: "latency: p50 %.2f ms, p99 %.2f ms, max %.2f ms",
                     result.percentile(0.50), result.percentile(0.99), result.percentile(1.0)))
    }
}

struct LoadResult {
    let rate: Rate
    let latencies: [Duration]
    let clients: [BenchClient]

    /// The `fraction` percentile in milliseconds (nearest rank).
    func percentile(_ fraction: Double) -> Double {
        guard !latencies.isEmpty else { return .nan }
        let rank = min(latencies.count - 1, max(0, Int((fraction * Double(latencies.count)).rounded(.up)) - 1))
        return latencies[rank].inMilliseconds
    }
}

/// Where the load goes.
struct BenchTarget: Sendable {
    let baseURL: String
    let host: String
    let port: Int
    let adminKey: String
    /// The run's clock (proof times) and random source (names).
    let run: CommandRun

    init(baseURL: String, adminKey: String, run: CommandRun) throws {
        guard let url = URL(string: baseURL), url.scheme == "http", let host = url.host else {
            throw ValidationError("--tenant must be an http:// URL (the benchmark speaks plain HTTP/1.1)")
        }
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.host = host
        self.port = url.port ?? 80
        self.adminKey = adminKey
        self.run = run
    }

    /// A holder application that lets devices register with an assertion.
    func createApplication() async throws -> String {
        let suffix = run.random.identifier().prefix(8)
        let application = HolderApplication(
            name: "Holdfast bench \(suffix)", clientId: "holdfast-bench-\(suffix)", maxTimeOfflineInSecs: 604_800,
            platform: .ios(.init(bundleId: "com.example.bench", teamId: "ABCDE12345",
                                 appAttest: .init(required: false, environment: .production))))
        let admin = AdminClient(baseURL: "http://\(host):\(port)", adminKey: adminKey)
        do {
            guard let id = try await admin.createApplication(application).id else {
                throw CommandFailure(.failure, "creating the application: no id in the answer")
            }
            return id
        } catch let failure as AdminClient.Failure {
            throw CommandFailure(.failure, "creating the application: \(failure)")
        }
    }
}

/// One simulated device population on one connection: registers devices as the SDK does (challenge, fresh P-256
/// key, assertion over the binding nonce) and renews their licenses with DPoP proofs, checking every answer.
final class BenchClient: @unchecked Sendable {
    // Used by one task at a time (the load loop awaits each operation before the next).
    private let connection: BenchConnection
    private let target: BenchTarget
    private var devices: [Device] = []
    private var next = 0
    /// Renewals made in all, warm-up included.
    private(set) var renewals = 0

    var deviceCount: Int { devices.count }

    private struct Device {
        let instanceId: String
        let key: JWSSigningKey
        var licenseToken: String
    }

    private init(connection: BenchConnection, target: BenchTarget) {
        self.connection = connection
        self.target = target
    }

    static func connect(_ target: BenchTarget) async throws -> BenchClient {
        BenchClient(connection: try await BenchConnection.connect(host: target.host, port: target.port), target: target)
    }

    func close() async {
        await connection.close()
    }

    private static let jsonHeaders = [(HoldfastHeaders.contentType, HoldfastHeaders.jsonMediaType)]
    private static let device = DeviceDetails(deviceModel: "bench", deviceMake: "Holdfast", osVersion: "1")
    private static let sdk = SDKDetails(sdkVersion: "bench")

    /// Steps 1–5 of the registration protocol, with the assertion path.
    func register(applicationId: String) async throws {
        let answer = try await connection.send(.POST, TetheringRoutes.challenges(applicationId: applicationId))
        guard answer.status == 201 || answer.status == 200 else { throw Self.failure("challenge", answer) }
        let challenge = try HoldfastJSON.decode(ChallengeResponse.self, from: Data(answer.body)).challenge
        let key = P256.Signing.PrivateKey()
        let publicKey = InstancePublicKey(key.publicKey)
        let assertion = try InstanceAssertion.sign(BindingNonce(challenge: challenge, publicKey: publicKey), with: key)
        let request = InstanceRegistrationRequest(challenge: challenge, publicKey: publicKey.encoded, assertion: assertion,
                                                  deviceDetails: Self.device, sdkDetails: Self.sdk)
        let response = try await connection.send(.POST, TetheringRoutes.instances(applicationId: applicationId),
                                                  headers: Self.jsonHeaders, body: Array(try HoldfastJSON.encode(request)))
        guard response.status == 201 else { throw Self.failure("registration", response) }
        let registered = try HoldfastJSON.decode(InstanceRegistrationResponse.self, from: Data(response.body))
        guard registered.status == .registered, let token = registered.licenseToken else {
            throw CommandFailure(.failure, "registration answered \(registered.status) without a license")
        }
        devices.append(Device(instanceId: registered.instanceId, key: JWSSigningKey(key), licenseToken: token))
    }

    /// Renews the license of the next of this client's devices, round robin.
    func renewNext() async throws {
        guard !devices.isEmpty else { throw CommandFailure(.failure, "no registered device to renew") }
        let index = next % devices.count
        next += 1
        let device = devices[index]
        let path = TetheringRoutes.license(instanceId: device.instanceId)
        let proof = try DPoPProof.create(method: "POST", uri: target.baseURL + path, key: device.key, issuedAt: target.run.now(),
                                         accessToken: device.licenseToken)
        let response = try await connection.send(.POST, path, headers: Self.jsonHeaders + [
            (HoldfastHeaders.authorization, HoldfastHeaders.authorizationValue(licenseToken: device.licenseToken)),
            (HoldfastHeaders.dpop, proof),
        ], body: Array("{}".utf8))
        guard response.status == 200 else { throw Self.failure("renewal", response) }
        let renewed = try HoldfastJSON.decode(LicenseRenewalResponse.self, from: Data(response.body))
        guard renewed.instanceId == device.instanceId else { throw CommandFailure(.failure, "renewal answered for another instance") }
        devices[index].licenseToken = renewed.licenseToken
        renewals += 1
    }

    private static func failure(_ step: String, _ response: BenchResponse) -> CommandFailure {
        CommandFailure(.failure, "\(step): HTTP \(response.status) \(String(decoding: response.body.prefix(300), as: UTF8.self))")
    }
}
