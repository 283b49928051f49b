import ArgumentParser
import Foundation
import HoldfastSDK

/// What a `holdfast device` command's flags say, whichever of the three groups declares them: where the simulated
/// device keeps its state, and which tenant and holder application it is tethered to. The groups differ only in what
/// they require, so that ArgumentParser refuses a missing flag itself (exit 64, with the usage):
/// `TetheredDeviceOptions` (`--tenant` and `--application`: the commands that talk to the tenant),
/// `RegisteredDeviceOptions` (`--application`: those that read the stored registration) and `DeviceOptions`
/// (neither: the credential commands). They may be written before the subcommand's name too (`DeviceArguments`).
protocol DeviceSettings {
    var stateDirectory: String { get }
    /// `--tenant`, when given.
    var givenTenant: String? { get }
    /// `--application`, when given.
    var givenApplicationId: String? { get }
    var externalReferenceId: String? { get }
    /// `--dev-mode` (debug builds only; always false in a release build).
    var developmentModeRequested: Bool { get }
}

extension DeviceSettings {
    /// What the SDK is configured with.
    var platformConfiguration: PlatformConfiguration {
        // `status` never goes online; a host is still needed to configure the SDK.
        var configuration = PlatformConfiguration(tenantHost: givenTenant ?? "status.invalid", applicationId: givenApplicationId ?? "",
                                                  externalReferenceId: externalReferenceId)
        #if DEBUG
        configuration.developmentIntegrityBypass = developmentModeRequested
        #endif
        return configuration
    }

    /// Both `--tenant` and `--application` were given: the holder can be tethered.
    var namesTenantAndApplication: Bool { givenTenant != nil && givenApplicationId != nil }

    var stateURL: URL { URL(fileURLWithPath: stateDirectory, isDirectory: true) }
}

/// The help of the device flags, one wording for the three groups.
enum DeviceOptionHelp {
    static let state = ArgumentHelp("The device's state folder (keys and registration, AES-GCM sealed).")
    static let tenant = ArgumentHelp("The tenant: a host (https implied) or a base URL such as http://127.0.0.1:8080.")
    static let application = ArgumentHelp("The holder application id.")
    static let externalReferenceId = ArgumentHelp("An id of the app's own, stored with the instance at registration.")
    static let developmentMode = ArgumentHelp(
        "Send X-Holdfast-Dev-Mode: true (debug builds only; the tenant accepts it only for allow-listed non-production applications).")
}

/// The device flags, none required: the commands that work on the stored credentials and trust lists (`offer`,
/// `credentials`, `issuers`, `present`, `verifiers`).
struct DeviceOptions: ParsableArguments, DeviceSettings {
    @Option(name: .customLong("state"), help: DeviceOptionHelp.state)
    var stateDirectory: String

    @Option(name: .customLong("tenant"), help: DeviceOptionHelp.tenant)
    var tenant: String?

    @Option(name: .customLong("application"), help: DeviceOptionHelp.application)
    var applicationId: String?

    @Option(name: .customLong("external-reference-id"), help: DeviceOptionHelp.externalReferenceId)
    var externalReferenceId: String?

    #if DEBUG
    @Flag(name: .customLong("dev-mode"), help: DeviceOptionHelp.developmentMode)
    var developmentMode = false
    var developmentModeRequested: Bool { developmentMode }
    #else
    var developmentModeRequested: Bool { false }
    #endif

    var givenTenant: String? { tenant }
    var givenApplicationId: String? { applicationId }
}

/// The device flags of the commands that talk to the tenant: `--tenant` and `--application` required.
struct TetheredDeviceOptions: ParsableArguments, DeviceSettings {
    @Option(name: .customLong("state"), help: DeviceOptionHelp.state)
    var stateDirectory: String

    @Option(name: .customLong("tenant"), help: DeviceOptionHelp.tenant)
    var tenant: String

    @Option(name: .customLong("application"), help: DeviceOptionHelp.application)
    var applicationId: String

    @Option(name: .customLong("external-reference-id"), help: DeviceOptionHelp.externalReferenceId)
    var externalReferenceId: String?

    #if DEBUG
    @Flag(name: .customLong("dev-mode"), help: DeviceOptionHelp.developmentMode)
    var developmentMode = false
    var developmentModeRequested: Bool { developmentMode }
    #else
    var developmentModeRequested: Bool { false }
    #endif

    var givenTenant: String? { tenant }
    var givenApplicationId: String? { applicationId }
}

/// The device flags of the commands that read the stored registration without the network (`status`, `sca status`,
/// `sca logout`): `--application` required, `--tenant` not needed.
struct RegisteredDeviceOptions: ParsableArguments, DeviceSettings {
    @Option(name: .customLong("state"), help: DeviceOptionHelp.state)
    var stateDirectory: String

    @Option(name: .customLong("tenant"), help: DeviceOptionHelp.tenant)
    var tenant: String?

    @Option(name: .customLong("application"), help: DeviceOptionHelp.application)
    var applicationId: String

    @Option(name: .customLong("external-reference-id"), help: DeviceOptionHelp.externalReferenceId)
    var externalReferenceId: String?

    #if DEBUG
    @Flag(name: .customLong("dev-mode"), help: DeviceOptionHelp.developmentMode)
    var developmentMode = false
    var developmentModeRequested: Bool { developmentMode }
    #else
    var developmentModeRequested: Bool { false }
    #endif

    var givenTenant: String? { tenant }
    var givenApplicationId: String? { applicationId }
}
