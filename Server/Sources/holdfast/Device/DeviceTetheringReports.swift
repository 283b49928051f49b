import Foundation
import HoldfastProtocol
import HoldfastSDK

/// The one JSON object each tethering command of `holdfast device` prints (docs/command-line.md "The `holdfast`
/// command"): `{command, ok, applicationId, …}` with the command's own members, then what the device now holds
/// (`Registration`); a failure is `{command, ok: false, applicationId, error}`. Keys are sorted (`HoldfastJSON`), absent
/// members omitted.
extension DeviceReport {
    /// What the stored registration says, never the license token: `registered`, and when it is, the instance's facts.
    struct Registration: Encodable, Sendable, Equatable {
        /// The members a registered device adds.
        struct Stored: Encodable, Sendable, Equatable {
            var instanceId, status, appAttestationType, platform: String
            var registeredAt: Date
            var keyRotatedAt, licenseExpiresAt: Date?
            var clockOffsetMs: Int64
        }

        var stored: Stored?

        init(_ state: TetheringState?) {
            stored = state.map {
                Stored(instanceId: $0.instanceId, status: $0.status.rawValue, appAttestationType: $0.appAttestationType.rawValue,
                       platform: $0.platform, registeredAt: $0.registeredAt, keyRotatedAt: $0.keyRotatedAt,
                       licenseExpiresAt: $0.licenseExpiresAt, clockOffsetMs: $0.clockOffsetMs)
            }
        }

        private enum CodingKeys: String, CodingKey { case registered }

        /// `registered` beside the stored members, in the report's own object.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(stored != nil, forKey: .registered)
            try stored?.encode(to: encoder)
        }
    }

    /// The members every tethering report starts with.
    struct Header: Encodable, Sendable, Equatable {
        var command: String
        var ok: Bool
        var applicationId: String
    }

    /// `register`: how the registration ended (`registered`, `pending`, `alreadyRegistered`).
    struct Register: Encodable, Sendable, Equatable {
        enum Result: String, Encodable, Sendable {
            case registered, pending, alreadyRegistered
        }

        var header: Header
        var result: Result
        var registration: Registration

        private enum CodingKeys: String, CodingKey { case result }

        func encode(to encoder: any Encoder) throws {
            try header.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(result, forKey: .result)
            try registration.encode(to: encoder)
        }
    }

    /// `status`, `renew` and `rotate`: the registration alone.
    struct State: Encodable, Sendable, Equatable {
        var header: Header
        var registration: Registration

        func encode(to encoder: any Encoder) throws {
            try header.encode(to: encoder)
            try registration.encode(to: encoder)
        }
    }

    /// `wallet-attestation`: the attestation, and for an `--audience` its PoP.
    struct WalletAttestation: Encodable, Sendable, Equatable {
        var header: Header
        var walletAttestation: String
        var walletAttestationExpiresAt: Date
        /// The issuer the PoP is addressed to, and the PoP.
        var audience, walletAttestationPoP: String?
        var registration: Registration

        private enum CodingKeys: String, CodingKey {
            case walletAttestation, walletAttestationExpiresAt, audience, walletAttestationPoP
        }

        func encode(to encoder: any Encoder) throws {
            try header.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(walletAttestation, forKey: .walletAttestation)
            try container.encode(walletAttestationExpiresAt, forKey: .walletAttestationExpiresAt)
            try container.encodeIfPresent(audience, forKey: .audience)
            try container.encodeIfPresent(walletAttestationPoP, forKey: .walletAttestationPoP)
            try registration.encode(to: encoder)
        }
    }

    /// A failed tethering command: `{command, ok: false, applicationId, error}`.
    struct TetheringFailure: Encodable, Sendable, Equatable {
        var command: String
        var ok = false
        var applicationId: String
        var error: Failure
    }

    /// What one tethering command ended with: its report, or its failure.
    enum Outcome: Sendable, Equatable {
        case register(Register)
        case state(State)
        case walletAttestation(WalletAttestation)
        case failure(TetheringFailure)

        var ok: Bool { error == nil }

        var error: Failure? {
            if case .failure(let failure) = self { failure.error } else { nil }
        }

        /// The JSON text: sorted keys, RFC 3339 dates (`HoldfastJSON`), one line.
        func json() -> String {
            let data: Data?
            switch self {
            case .register(let report): data = try? HoldfastJSON.encode(report)
            case .state(let report): data = try? HoldfastJSON.encode(report)
            case .walletAttestation(let report): data = try? HoldfastJSON.encode(report)
            case .failure(let report): data = try? HoldfastJSON.encode(report)
            }
            guard let data, let text = String(data: data, encoding: .utf8) else {
                return #"{"ok":false,"error":{"code":"INTERNAL_ERROR","message":"the report could not be encoded"}}"#
            }
            return text
        }
    }
}
