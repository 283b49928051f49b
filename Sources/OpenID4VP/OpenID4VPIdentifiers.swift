/// The OpenID4VP 1.0 (and ISO/IEC TS 18013-7:2024 Annex B) identifiers the verifier writes and the wallet reads,
/// declared once for both sides.
public enum OpenID4VPIdentifiers {
    /// RFC 9101 §10.8, OpenID4VP 1.0 §5: the `typ` of a signed request object.
    public static let requestObjectType = "oauth-authz-req+jwt"
    /// RFC 9101 §10.8: the media type of a request object fetched from `request_uri`.
    public static let requestObjectMediaType = "application/oauth-authz-req+jwt"
    /// OpenID4VP 1.0 §5.8: the `aud` of a request object for a wallet found by static discovery.
    public static let selfIssuedAudience = "https://self-issued.me/v2"
    /// OpenID4VP 1.0 §5.1: the `response_type` that asks for a `vp_token`.
    public static let vpTokenResponseType = "vp_token"
    /// OpenID4VP 1.0 §8.3: the `response_mode` of a response encrypted to the verifier and posted to `response_uri`.
    public static let directPostJWTResponseMode = "direct_post.jwt"
    /// OpenID4VP 1.0 Appendix B.2: the credential format of an ISO/IEC 18013-5 mdoc.
    public static let msoMdocFormat = "mso_mdoc"
    /// OpenID4VP 1.0 §8.5 (RFC 6749 §4.1.2.1): the `error` of a wallet whose user declined.
    public static let accessDenied = "access_denied"
    /// OpenID4VP 1.0 §8.2: the parameter the verifier adds to a same-device `redirect_uri`.
    public static let responseCode = "response_code"
}
