import ArgumentParser
import Foundation
import HoldfastSDK

/// The flags every `holdfast device` subcommand takes: where the simulated device keeps its state, and which tenant
/// and holder application it is tethered to.
struct DeviceOptions: ParsableArguments {
    @Option(name: .customLong("state"), help: "The device's state folder (keys and registration, AES-GCM sealed).")
    var stateDirectory: String

    @Option(name: .customLong("tenant"),
            help: "The tenant: a host (https implied) or a base URL such as http://127.0.0.1:8080. Not needed by status.")
    var tenant: String?

    @Option(name: .customLong("application"),
            help: "The holder application id (register, status, renew, rotate, wallet-attestation and claim need it).")
    var applicationId: String?

    @Option(name: .customLong("external-reference-id"), help: "An id of the app's own, stored with the instance at registration.")
    var externalReferenceId: String?

    #if DEBUG
    @Flag(name: .customLong("dev-mode"),
          help: "Send X-Holdfast-Dev-Mode: true (debug builds only; the tenant accepts it only for allow-listed non-production applications).")
    var developmentMode = false
    #endif

    /// What the SDK is configured with.
    var platformConfiguration: PlatformConfiguration {
        // `status` never goes online; a host is still needed to configure the SDK.
        var configuration = PlatformConfiguration(tenantHost: tenant ?? "status.invalid", applicationId: applicationId ?? "",
                                                  externalReferenceId: externalReferenceId)
        #if DEBUG
        configuration.developmentIntegrityBypass = developmentMode
        #endif
        return configuration
    }

    var stateURL: URL { URL(fileURLWithPath: stateDirectory, isDirectory: true) }

    /// Every tethering subcommand but `status` talks to the tenant.
    func requireTenant() throws {
        try requireApplication()
        if tenant == nil { throw ValidationError("--tenant is required (only status works without the network)") }
    }

    /// The tethering subcommands work on one holder application.
    func requireApplication() throws {
        if applicationId == nil { throw ValidationError("--application is required") }
    }
}
