/// The OpenID4VCI 1.0 identifiers the issuer writes and the wallet reads, declared once for both sides.
public enum OpenID4VCIIdentifiers {
    /// OpenID4VCI 1.0 §4.1.1 / §6.1: the pre-authorized code grant type (in an offer's `grants`, and a token
    /// request's `grant_type`).
    public static let preAuthorizedCodeGrant = "urn:ietf:params:oauth:grant-type:pre-authorized_code"
    /// OpenID4VCI 1.0 §4.1.1: the authorization code grant of an offer's `grants` (RFC 6749 §4.1).
    public static let authorizationCodeGrant = "authorization_code"
    /// OpenID4VCI 1.0 Appendix F.1: the `typ` of a `jwt` key proof.
    public static let keyProofType = "openid4vci-proof+jwt"
    /// OpenID4VCI 1.0 §8.2 / Appendix F.1: the proof type whose proofs are JWTs (`proofs.jwt`).
    public static let jwtProofType = "jwt"
    /// OpenID4VCI 1.0 Appendix A.2: the credential format of an ISO/IEC 18013-5 mDoc.
    public static let msoMdocFormat = "mso_mdoc"
    /// OpenID4VCI 1.0 §4.1.3: the URI scheme of a Credential Offer a wallet is invoked with.
    public static let credentialOfferScheme = "openid-credential-offer"
}
