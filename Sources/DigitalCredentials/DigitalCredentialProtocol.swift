/// The exchange protocol of a Digital Credentials API request or response (W3C Digital Credentials §4, the
/// `protocol` member), as registered for browsers: OpenID4VP 1.0 Appendix A's `openid4vp-v1-signed` and
/// `openid4vp-v1-unsigned`, and ISO/IEC TS 18013-7 (second edition) Annex C's `org-iso-mdoc`.
///
/// String-backed rather than an enum: the closed set is what this version speaks, but a page may offer a protocol
/// this version does not know (the registry grows), and a reader must still decode the request, skip that entry
/// and take one it supports (`isKnown`). Codable as the bare string.
public struct DigitalCredentialProtocol: RawRepresentable, Codable, Sendable, Hashable, ExpressibleByStringLiteral,
    CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    /// OpenID4VP 1.0 Appendix A.3.2: a signed request object (`data = {request: <JWS>}`).
    public static let openID4VPSigned: Self = "openid4vp-v1-signed"
    /// OpenID4VP 1.0 Appendix A.3.1: the request parameters in the clear.
    public static let openID4VPUnsigned: Self = "openid4vp-v1-unsigned"
    /// ISO/IEC TS 18013-7 (second edition) Annex C: `data = {deviceRequest, encryptionInfo}`.
    public static let orgIsoMdoc: Self = "org-iso-mdoc"

    /// Every protocol this version speaks.
    public static let all: [Self] = [.openID4VPSigned, .openID4VPUnsigned, .orgIsoMdoc]

    /// True for the protocols this version speaks.
    public var isKnown: Bool { Self.all.contains(self) }

    /// True for the two OpenID4VP 1.0 Appendix A protocols.
    public var isOpenID4VP: Bool { self == .openID4VPSigned || self == .openID4VPUnsigned }

    public var description: String { rawValue }
}
