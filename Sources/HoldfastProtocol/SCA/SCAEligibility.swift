import Foundation

/// The tenant's device eligibility rules for SCA wallets (docs/server-api.md "SCA wallet (back end)"), `GET`/`PUT /v1/sca/eligibility`:
/// device models that may not hold a wallet, and the app versions below which a holder application's wallets stop
/// working — at once, or from a sunset date announced ahead (`appSunsetScheduled`).
public struct SCAEligibilityRules: Codable, Sendable, Hashable {
    /// Device model identifiers (`iPhone10,3`, `SM-G960F` …), compared exactly.
    public var blockedDeviceModels: [String]
    public var minimumAppVersions: [SCAMinimumAppVersion]

    public init(blockedDeviceModels: [String] = [], minimumAppVersions: [SCAMinimumAppVersion] = []) {
        self.blockedDeviceModels = blockedDeviceModels
        self.minimumAppVersions = minimumAppVersions
    }

    /// The rule that makes `appVersion` of `applicationId` ineligible at `now`, if any: a minimum above the version
    /// whose sunset (when it has one) has passed.
    public func unsupportedVersion(applicationId: String, appVersion: String?, at now: Date) -> SCAMinimumAppVersion? {
        rules(for: applicationId, below: appVersion).first { $0.sunsetAt.map { $0 <= now } ?? true }
    }

    /// The earliest sunset still to come for `appVersion` of `applicationId`, if any.
    public func scheduledSunset(applicationId: String, appVersion: String?, at now: Date) -> SCAMinimumAppVersion? {
        rules(for: applicationId, below: appVersion).filter { $0.sunsetAt.map { $0 > now } ?? false }
            .min { ($0.sunsetAt ?? now) < ($1.sunsetAt ?? now) }
    }

    private func rules(for applicationId: String, below appVersion: String?) -> [SCAMinimumAppVersion] {
        let version = AppVersion(appVersion ?? "")
        return minimumAppVersions.filter { rule in
            (rule.applicationId == nil || rule.applicationId == applicationId) && version < AppVersion(rule.version)
        }
    }
}

/// Versions of a holder application below `version` are unsupported — from `sunsetAt` when given, otherwise now.
/// Without `applicationId` the rule applies to every holder application.
public struct SCAMinimumAppVersion: Codable, Sendable, Hashable {
    public var applicationId: String?
    public var version: String
    public var sunsetAt: Date?

    public init(applicationId: String? = nil, version: String, sunsetAt: Date? = nil) {
        self.applicationId = applicationId
        self.version = version
        self.sunsetAt = sunsetAt
    }
}

/// An app version as dotted numbers (`2.10.1`), compared number by number, missing numbers being 0 (`2.1` equals
/// `2.1.0`). Whatever follows the leading numbers (`-beta`, `+build`) is ignored; a version without a leading
/// number compares below every version that has one.
public struct AppVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let components: [Int]
    public let description: String

    public init(_ text: String) {
        description = text
        var components: [Int] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            let digits = part.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 9, let number = Int(digits) else { break }
            components.append(number)
            if digits.count != part.count { break }
        }
        self.components = components
    }

    /// Dotted whole numbers only (`1`, `2.3`, `10.0.4`), at most four: what the tenant accepts in its rules.
    public static func isWellFormed(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return (1...4).contains(parts.count) && parts.allSatisfy { part in
            (1...9).contains(part.count) && part.allSatisfy { $0.isASCII && $0.isNumber }
        }
    }

    public static func < (lhs: AppVersion, rhs: AppVersion) -> Bool {
        if lhs.components.isEmpty || rhs.components.isEmpty { return lhs.components.isEmpty && !rhs.components.isEmpty }
        for index in 0..<max(lhs.components.count, rhs.components.count) {
            let left = index < lhs.components.count ? lhs.components[index] : 0
            let right = index < rhs.components.count ? rhs.components[index] : 0
            if left != right { return left < right }
        }
        return false
    }

    public static func == (lhs: AppVersion, rhs: AppVersion) -> Bool { !(lhs < rhs) && !(rhs < lhs) }

    public func hash(into hasher: inout Hasher) {
        var trimmed = components
        while trimmed.last == 0 { trimmed.removeLast() }
        hasher.combine(trimmed)
        hasher.combine(components.isEmpty)
    }
}

/// `POST /v1/sca/eligibility/checks` (docs/server-api.md "SCA wallet (back end)"): what a device says of itself before it is provisioned.
public struct SCAEligibilityCheckRequest: Codable, Sendable, Hashable {
    public struct Integrity: Codable, Sendable, Hashable {
        /// Whether the platform's integrity signals say the device is compromised (jailbroken, rooted, hooked).
        public var compromised: Bool
        /// The signals seen, for the record (`jailbreak`, `root`, `debugger` …).
        public var signals: [String]?

        public init(compromised: Bool, signals: [String]? = nil) {
            self.compromised = compromised
            self.signals = signals
        }
    }

    public var applicationId: String
    public var device: SCAActivationRequest.Device
    public var integrity: Integrity

    public init(applicationId: String, device: SCAActivationRequest.Device, integrity: Integrity) {
        self.applicationId = applicationId
        self.device = device
        self.integrity = integrity
    }
}

/// The tenant's verdict: eligible (with an app sunset to announce, if one is scheduled for this version), or not,
/// with the reason and the reference under which the denial is recorded.
public struct SCAEligibilityCheckResponse: Codable, Sendable, Hashable {
    public var eligible: Bool
    /// Why, when not eligible.
    public var reason: SCAIneligibilityReason?
    public var denialReference: String?
    public var appSunset: SCAMinimumAppVersion?

    public init(eligible: Bool, reason: SCAIneligibilityReason? = nil, denialReference: String? = nil, appSunset: SCAMinimumAppVersion? = nil) {
        self.eligible = eligible
        self.reason = reason
        self.denialReference = denialReference
        self.appSunset = appSunset
    }
}

/// Why a device is not eligible (`SCAEligibilityCheckResponse.reason`, the `deviceEligibilityLost` event's
/// `reason`, docs/server-api.md "SCA wallet (back end)"). String-backed so that a reason a newer tenant gives still decodes on an older device.
public struct SCAIneligibilityReason: WireValueSet {
    /// The values this version names (openapi.json lists the same): switch over `known` to decide on one.
    public enum Known: String, CaseIterable, Sendable {
        case deviceIntegrity = "DEVICE_INTEGRITY", deviceModelBlocked = "DEVICE_MODEL_BLOCKED", appVersionUnsupported = "APP_VERSION_UNSUPPORTED"
    }

    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// The device reports a compromised integrity (a rooted or jailbroken device …).
    public static let deviceIntegrity = Self(.deviceIntegrity)
    /// The device model is on the tenant's block list.
    public static let deviceModelBlocked = Self(.deviceModelBlocked)
    /// The app version is below a minimum whose sunset has passed.
    public static let appVersionUnsupported = Self(.appVersionUnsupported)
}
