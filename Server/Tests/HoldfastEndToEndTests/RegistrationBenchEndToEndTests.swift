@testable import holdfast
import HoldfastProtocol
import Testing

/// `holdfast bench registration` (docs/operations.md "Benchmarks") is a load generator. Its figures are not asserted here (a
/// test is not a benchmark), but what it counted must be what the tenant saw: every counted registration is an
/// instance of the tenant, and the latencies are one per operation.
@Suite struct RegistrationBenchEndToEndTests {
    @Test(arguments: EndToEndBackend.available)
    func everyCountedRegistrationIsAnInstanceOfTheTenant(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let clients = 3, warmUpPerClient = 5
            let bench = try RegistrationBench.parse(["--seconds", "0.3", "--concurrency", String(clients)])
            let outcome = try await bench.measure(try BenchTarget(baseURL: tenant.baseURL, adminKey: tenant.admin.adminKey, run: .system()),
                                                  baseline: Rate(operations: 1, seconds: 1))
            #expect(outcome.registration.rate.operations > 0)
            #expect(outcome.renewal.rate.operations > 0)
            #expect(outcome.registration.latencies.count == outcome.registration.rate.operations)
            #expect(outcome.renewal.latencies.count == outcome.renewal.rate.operations)
            #expect(outcome.instancesRegistered == outcome.registration.rate.operations + clients * warmUpPerClient)
            let renewals = outcome.renewal.clients.reduce(0) { $0 + $1.renewals }
            #expect(renewals == outcome.renewal.rate.operations + clients * warmUpPerClient)

            let instances = try await tenant.admin.allInstances(applicationId: outcome.applicationId)
            #expect(instances.count == outcome.instancesRegistered)
            #expect(instances.allSatisfy { $0.appAttestationType == AppAttestationType.none })
        }
    }

    @Test func optionsAreValidated() {
        #expect(throws: (any Error).self) { try RegistrationBench.parse(["--concurrency", "0"]) }
        #expect(throws: (any Error).self) { try RegistrationBench.parse(["--tenant", "http://127.0.0.1:8080"]) }
        #expect(throws: (any Error).self) { try RegistrationBench.parse(["--admin-key", "hfk_x"]) }
        #expect(throws: (any Error).self) { try BenchTarget(baseURL: "https://tenant.example", adminKey: "k", run: .system()) }
    }
}
