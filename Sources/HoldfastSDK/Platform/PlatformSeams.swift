import Foundation
import HoldfastProtocol

/// Every seam the holder uses (DESIGN.md §3), in one value so that an app, the `holdfast device` command and tests
/// each assemble their own.
public struct PlatformSeams: Sendable {
    public var secureStorage: any SecureStorage
    public var secureArea: any SecureArea
    public var platformAttestation: any PlatformAttestation
    public var transport: any HTTPTransport
    public var clock: any HoldfastClock
    public var sleeper: any Sleeper
    public var deviceInfo: DeviceInfo
    public var userVerification: any UserVerification
    /// Jailbreak / root signals for the SCA wallet's eligibility check (none unless the app plugs a detector in).
    public var deviceIntegrity: any DeviceIntegrity
    /// When tethering's automatic work runs (docs/sdk.md "Holder: automatic tethering"): a timer by default.
    public var tetheringScheduler: any TetheringScheduler
    /// Opens the redirect URI a verifier answers (`sendResponse(credentialIds:autoRedirect:)`): the app's URL opener
    /// on Apple platforms, one that records on Linux.
    public var urlOpener: any URLOpener
    /// A number in `0 ... 1` for backoff jitter (injectable so that tests see fixed delays).
    public var jitter: @Sendable () -> Double

    public init(secureStorage: any SecureStorage, secureArea: any SecureArea,
                platformAttestation: any PlatformAttestation = UnavailablePlatformAttestation(),
                transport: any HTTPTransport = URLSessionTransport(), clock: any HoldfastClock = SystemClock(),
                sleeper: any Sleeper = TaskSleeper(), deviceInfo: DeviceInfo = .current,
                jitter: @escaping @Sendable () -> Double = { Double.random(in: 0 ... 1) },
                userVerification: any UserVerification = PlatformSeams.platformUserVerification,
                deviceIntegrity: any DeviceIntegrity = ScriptedDeviceIntegrity(),
                tetheringScheduler: any TetheringScheduler = TimerTetheringScheduler(),
                urlOpener: any URLOpener = PlatformSeams.platformURLOpener) {
        self.secureStorage = secureStorage
        self.secureArea = secureArea
        self.platformAttestation = platformAttestation
        self.transport = transport
        self.clock = clock
        self.sleeper = sleeper
        self.deviceInfo = deviceInfo
        self.jitter = jitter
        self.userVerification = userVerification
        self.deviceIntegrity = deviceIntegrity
        self.tetheringScheduler = tetheringScheduler
        self.urlOpener = urlOpener
    }

    /// The application's URL opener where there is one (iOS, macOS); elsewhere one that records what it is given.
    public static var platformURLOpener: any URLOpener {
        #if canImport(UIKit) && os(iOS) || canImport(AppKit) && os(macOS)
        ApplicationURLOpener()
        #else
        RecordingURLOpener()
        #endif
    }

    /// LocalAuthentication where there is one; elsewhere a script with no answers, whose every prompt is
    /// `unavailable` (a test or a simulated device scripts its own).
    public static var platformUserVerification: any UserVerification {
        #if canImport(LocalAuthentication)
        LocalAuthenticationUserVerification()
        #else
        ScriptedUserVerification()
        #endif
    }

    /// The Linux seams: state (keys included) in an encrypted file under `stateDirectory`, software keys, no
    /// platform attestation (assertion fallback), `URLSession`, the system clock, a timer for automatic tethering,
    /// and a user verification script with no answers (`userVerification` can be replaced by one that has some).
    public static func linux(stateDirectory: URL) -> PlatformSeams {
        let storage = FileSecureStorage(directory: stateDirectory, applicationId: "holdfast-sdk")
        return PlatformSeams(secureStorage: storage, secureArea: SoftwareSecureArea(storage: storage),
                             userVerification: ScriptedUserVerification())
    }
}
