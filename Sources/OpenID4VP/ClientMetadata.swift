import JOSE

/// OpenID4VP 1.0 §5.1 `client_metadata` (§11.1 the verifier's metadata) as a request object carries it: the key the
/// wallet encrypts its response to and the encryptions and formats the verifier takes. ISO/IEC TS 18013-7:2024
/// Annex B uses the earlier drafts' names (`authorization_encrypted_response_alg` / `_enc`, `vp_formats`).
public struct ClientMetadata: Codable, Sendable, Hashable {
    /// §5.1 `jwks`: the verifier's response encryption key(s).
    public var jwks: JWKSet?
    /// §8.3 (HAIP 1.0): the content encryptions the verifier takes; A128GCM when absent.
    public var encryptedResponseEncValuesSupported: [String]?
    /// §11.1 `vp_formats_supported`.
    public var vpFormatsSupported: VPFormatsSupported?
    /// 18013-7:2024 B.3.2: the key agreement of the encrypted response (`ECDH-ES`).
    public var authorizationEncryptedResponseAlg: String?
    /// 18013-7:2024 B.3.2: the one content encryption of the encrypted response.
    public var authorizationEncryptedResponseEnc: String?
    /// 18013-7:2024 B.3.2 `vp_formats`.
    public var vpFormats: LegacyVPFormats?

    public init(jwks: JWKSet? = nil, encryptedResponseEncValuesSupported: [String]? = nil, vpFormatsSupported: VPFormatsSupported? = nil,
                authorizationEncryptedResponseAlg: String? = nil, authorizationEncryptedResponseEnc: String? = nil,
                vpFormats: LegacyVPFormats? = nil) {
        self.jwks = jwks
        self.encryptedResponseEncValuesSupported = encryptedResponseEncValuesSupported
        self.vpFormatsSupported = vpFormatsSupported
        self.authorizationEncryptedResponseAlg = authorizationEncryptedResponseAlg
        self.authorizationEncryptedResponseEnc = authorizationEncryptedResponseEnc
        self.vpFormats = vpFormats
    }

    enum CodingKeys: String, CodingKey {
        case jwks
        case encryptedResponseEncValuesSupported = "encrypted_response_enc_values_supported"
        case vpFormatsSupported = "vp_formats_supported"
        case authorizationEncryptedResponseAlg = "authorization_encrypted_response_alg"
        case authorizationEncryptedResponseEnc = "authorization_encrypted_response_enc"
        case vpFormats = "vp_formats"
    }

    /// Read leniently (a member of another type is absent; a `jwks` with a key that does not read is absent; the
    /// strings of the encryptions array).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        jwks = container.lenient(JWKSet.self, .jwks)
        encryptedResponseEncValuesSupported = container.lenientStrings(.encryptedResponseEncValuesSupported)
        vpFormatsSupported = container.lenient(VPFormatsSupported.self, .vpFormatsSupported)
        authorizationEncryptedResponseAlg = container.lenient(String.self, .authorizationEncryptedResponseAlg)
        authorizationEncryptedResponseEnc = container.lenient(String.self, .authorizationEncryptedResponseEnc)
        vpFormats = container.lenient(LegacyVPFormats.self, .vpFormats)
    }

    /// The content encryptions the verifier takes, in its order of preference: `encrypted_response_enc_values_supported`
    /// (OpenID4VP 1.0), else the one `authorization_encrypted_response_enc` (18013-7:2024), else A128GCM (§8.3's
    /// default).
    public var offeredContentEncryptions: [String] {
        encryptedResponseEncValuesSupported ?? authorizationEncryptedResponseEnc.map { [$0] } ?? ["A128GCM"]
    }

    /// OpenID4VP 1.0 §11.1, Appendix B.2.5 — `vp_formats_supported` for `mso_mdoc`: the COSE algorithms of the issuer's
    /// and the device's signatures.
    public struct VPFormatsSupported: Codable, Sendable, Hashable {
        public var msoMdoc: MsoMdoc?

        public init(msoMdoc: MsoMdoc?) { self.msoMdoc = msoMdoc }

        enum CodingKeys: String, CodingKey { case msoMdoc = "mso_mdoc" }

        public struct MsoMdoc: Codable, Sendable, Hashable {
            public var issuerauthAlgValues: [Int]?
            public var deviceauthAlgValues: [Int]?

            public init(issuerauthAlgValues: [Int]?, deviceauthAlgValues: [Int]?) {
                self.issuerauthAlgValues = issuerauthAlgValues
                self.deviceauthAlgValues = deviceauthAlgValues
            }

            enum CodingKeys: String, CodingKey {
                case issuerauthAlgValues = "issuerauth_alg_values"
                case deviceauthAlgValues = "deviceauth_alg_values"
            }
        }
    }

    /// ISO/IEC TS 18013-7:2024 B.3.2 (DIF Presentation Exchange 2.0 `format`) — `vp_formats` and an input descriptor's
    /// `format`: `{"mso_mdoc": {"alg": [JOSE names]}}`.
    public struct LegacyVPFormats: Codable, Sendable, Hashable {
        public var msoMdoc: MsoMdoc?

        public init(msoMdoc: MsoMdoc?) { self.msoMdoc = msoMdoc }

        enum CodingKeys: String, CodingKey { case msoMdoc = "mso_mdoc" }

        public struct MsoMdoc: Codable, Sendable, Hashable {
            public var alg: [String]

            public init(alg: [String]) { self.alg = alg }
        }
    }
}
