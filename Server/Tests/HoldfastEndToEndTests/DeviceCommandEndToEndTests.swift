import Foundation
import HoldfastProtocol
import HoldfastSDK
@testable import holdfast
import Testing

/// `holdfast device` (docs/command-line.md "The `holdfast` command"): the simulated device against the in-process tenant, one JSON report
/// per call, state kept in its folder between calls (each call builds a fresh SDK, as separate processes would).
@Suite struct DeviceCommandEndToEndTests {
    @Test(arguments: EndToEndBackend.available)
    func deviceCommandRunsTheWholeLifecycleFromItsStateFolder(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            let state = tenant.scratch.appendingPathComponent("cli-device")
            let options = try DeviceOptions.parse(["--state", state.path, "--tenant", tenant.baseURL, "--application", applicationId])
            let session = DeviceSession(options: options)

            let status0 = await session.perform(.status)
            #expect(status0.ok && status0.registered == false)
            let registered = await session.perform(.register)
            #expect(registered.ok && registered.result == "registered")
            let instanceId = try #require(registered.instanceId)
            #expect(registered.appAttestationType == "none")
            let again = await session.perform(.register)
            #expect(again.result == "alreadyRegistered" && again.instanceId == instanceId)
            let renewed = await session.perform(.renew)
            #expect(renewed.ok && renewed.licenseExpiresAt != nil)
            let rotated = await session.perform(.rotate)
            #expect(rotated.ok && rotated.instanceId == instanceId && rotated.keyRotatedAt != nil)
            let attestation = await session.perform(.walletAttestation, audience: "https://issuer.example.com")
            #expect(attestation.ok && attestation.walletAttestation != nil && attestation.walletAttestationPoP != nil)
            let status = await session.perform(.status)
            #expect(status.registered == true && status.instanceId == instanceId)

            try await tenant.admin.deleteInstance(applicationId: applicationId, instanceId: instanceId)
            let refused = await session.perform(.renew)
            #expect(!refused.ok)
            #expect(refused.error?.code == "INSTANCE_REVOKED")
            #expect(refused.error?.httpStatus == 403)
            #expect(refused.json().contains(#""code":"INSTANCE_REVOKED""#))
        }
    }

    @Test(arguments: EndToEndBackend.available)
    func deviceCommandReportsTheSDKCodeOnFailure(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let state = tenant.scratch.appendingPathComponent("cli-device")
            let options = try DeviceOptions.parse(["--state", state.path, "--tenant", tenant.baseURL, "--application", "missing"])
            let unknown = await DeviceSession(options: options).perform(.register)
            #expect(unknown.error?.code == HoldfastErrorCode.applicationNotFound.rawValue)
            let notRegistered = await DeviceSession(options: options).perform(.renew)
            #expect(notRegistered.error?.code == HoldfastErrorCode.notRegistered.rawValue)
        }
    }

    /// `status` reads the stored registration: no network, so no `--tenant` (docs/command-line.md "The `holdfast` command").
    @Test(arguments: EndToEndBackend.available)
    func statusNeedsNoTenant(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            let state = tenant.scratch.appendingPathComponent("cli-device")
            let online = try DeviceOptions.parse(["--state", state.path, "--tenant", tenant.baseURL, "--application", applicationId])
            let registered = await DeviceSession(options: online).perform(.register)
            let offline = try DeviceOptions.parse(["--state", state.path, "--application", applicationId])
            let status = await DeviceSession(options: offline).perform(.status)
            #expect(status.ok && status.registered == true && status.instanceId == registered.instanceId)
        }
    }

    @Test func everySubcommandButStatusNeedsATenant() throws {
        #expect(throws: (any Error).self) { try DeviceCommand.parseAsRoot(DeviceArguments.normalized(["--state", "/tmp/x", "register", "--application", "a"])) }
        #expect(throws: (any Error).self) { try DeviceCommand.parseAsRoot(DeviceArguments.normalized(["--state", "/tmp/x", "renew", "--application", "a"])) }
        let status = try DeviceCommand.parseAsRoot(DeviceArguments.normalized(["--state", "/tmp/x", "status", "--application", "a"]))
        #expect(status is DeviceCommand.Status)
    }

    @Test func anApplicationThatRequiresAttestationGetsAHint() {
        let line = DeviceCommand.failureLine(.register, code: HoldfastErrorCode.attestationRequired.rawValue,
                                             message: "this application requires platform attestation")
        #expect(line.contains(#""appAttest": {"required": false}"#) && line.contains(#""keyAttestation": {"required": false}"#))
        #expect(!DeviceCommand.failureLine(.register, code: "NETWORK_ERROR", message: "down").contains("assertion"))
    }

    @Test func deviceCommandParsesSharedOptionsBeforeTheSubcommand() throws {
        let command = try DeviceCommand.parseAsRoot(DeviceArguments.normalized(["--state", "/tmp/x", "register", "--tenant", "http://127.0.0.1:1",
                                                                                 "--application", "app"]))
        let register = try #require(command as? DeviceCommand.Register)
        #expect(register.options.stateDirectory == "/tmp/x")
        #expect(register.options.applicationId == "app")
    }
}
