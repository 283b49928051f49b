/// The OpenID4VCI 1.0 identifiers the issuer writes and the wallet reads, declared once for both sides.
public enum OpenID4VCIIdentifiers {
    /// OpenID4VCI 1.0 §4.1.1 / §6.1: the pre-authorized code grant type (in an offer's `grants`, and a token
    /// request's `grant_type`).
    public static let preAuthorizedCodeGrant = "urn:ietf:params:oauth:grant-type:pre-authorized_code"
    /// OpenID4VCI 1.0 Appendix F.1: the `typ` of a `jwt` key proof.
    public static let keyProofType = "openid4vci-proof+jwt"
}
