import Foundation
import MDoc
import StatusList

/// Where a credential's status is published: the `status.status_list {idx, uri}` of its MSO (ISO/IEC 18013-5
/// second edition §12.3.6.3; draft-ietf-oauth-status-list §6.3), read from the MSO as it is.
public typealias StatusReference = MobileSecurityObject.StatusReference

/// What the holder knows of a credential's status (docs/sdk.md "Holder: status").
///
/// Only a status list token that verified says *revoked* or *suspended*: a token that cannot be fetched, does not
/// verify, has passed its `exp` or does not cover the index makes the status ``unknown(_:)``, never revoked
/// (draft-ietf-oauth-status-list §13.2, and what wallets are expected to show).
public enum CredentialStatus: Sendable, Hashable, CustomStringConvertible {
    case valid
    /// The list says INVALID (0x01): the issuer revoked the credential; it will not become valid again.
    case revoked
    /// The list says SUSPENDED (0x02): it may become valid again.
    case suspended
    /// A value the draft leaves to applications or reserves (0x03, 0x0B–0x0F and the rest).
    case other(UInt8)
    case unknown(StatusUnknownReason)

    init(_ status: TokenStatus) {
        switch status {
        case .valid: self = .valid
        case .invalid: self = .revoked
        case .suspended: self = .suspended
        case .other(let value): self = .other(value)
        }
    }

    public var description: String {
        switch self {
        case .valid: "valid"
        case .revoked: "revoked"
        case .suspended: "suspended"
        case .other(let value): "status value \(value)"
        case .unknown(let reason): "unknown (\(reason.rawValue))"
        }
    }
}

/// Why a status is unknown.
public enum StatusUnknownReason: String, Sendable, Hashable, Codable {
    /// No verified token of the list has been seen, and none could be fetched now.
    case noToken
    /// The only verified token has passed its `exp`, and no newer one could be fetched.
    case tokenExpired
    /// The verified token's list is shorter than the credential's index.
    case indexOutOfRange
}
