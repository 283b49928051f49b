import ClientAttestation
import Crypto
import Foundation
import HoldfastProtocol
import JOSE
import Testing

/// draft-ietf-oauth-attestation-based-client-auth §4, §5.1: every check of `ClientAttestationVerifier` passes for a
/// good pair and fails for a pair broken in exactly that way.
struct ClientAttestationVerifierTests {
    static let tenant = "https://tenant.example"
    static let issuer = "https://issuer.example"
    let tenantKey = JWSSigningKey(P256.Signing.PrivateKey(), kid: "tenant-1")
    let instanceKey = JWSSigningKey(P256.Signing.PrivateKey())
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    var verifier: ClientAttestationVerifier {
        ClientAttestationVerifier(trustedKeys: JWKSet(keys: [tenantKey.publicJWK]), audience: Self.issuer,
                                  expectedIssuer: Self.tenant, expectedClientId: "client-1")
    }

    func attestation(claims edit: (inout JWTClaims) -> Void = { _ in }, header: JOSEHeader? = nil,
                     key: JWSSigningKey? = nil) throws -> String {
        var claims = WalletAttestationClaims(issuer: Self.tenant, clientId: "client-1", instanceKey: instanceKey.publicJWK,
                                             issuedAt: now.addingTimeInterval(-10), expiresAt: now.addingTimeInterval(3600)).jwtClaims
        edit(&claims)
        return try JWT.sign(claims: claims, header: header ?? WalletAttestationClaims.header(kid: "tenant-1"), key: key ?? tenantKey)
    }

    func pop(claims edit: (inout JWTClaims) -> Void = { _ in }, type: String? = WalletAttestationClaims.popType,
             key: JWSSigningKey? = nil) throws -> String {
        var claims = JWTClaims(aud: [Self.issuer], iat: now.addingTimeInterval(-5), jti: "jti-1",
                               additionalClaims: ["challenge": .string("ch-1")])
        edit(&claims)
        var header = JOSEHeader()
        header.typ = type
        return try JWT.sign(claims: claims, header: header, key: key ?? instanceKey)
    }

    func expectFailure(_ expected: ClientAttestationError, attestation: String? = nil, pop: String? = nil,
                       verifier: ClientAttestationVerifier? = nil, challenge: String? = "ch-1") throws {
        let attestation = try attestation ?? self.attestation()
        let pop = try pop ?? self.pop()
        let error = #expect(throws: ClientAttestationError.self) {
            try (verifier ?? self.verifier).verify(attestation: attestation, pop: pop, expectedChallenge: challenge, at: now)
        }
        #expect(error?.code == expected.code)
        switch expected {
        case .attestationMalformed, .popMalformed: break // the reason text is JOSE's
        default: #expect(error == expected)
        }
    }

    @Test func validPairVerifies() throws {
        let verified = try verifier.verify(attestation: attestation(), pop: pop(), expectedChallenge: "ch-1", at: now)
        #expect(verified.clientId == "client-1" && verified.issuer == Self.tenant)
        #expect(verified.instanceKey == instanceKey.publicJWK && verified.popJTI == "jti-1" && verified.challenge == "ch-1")
    }

    @Test func popMadeByTheHelperVerifies() async throws {
        let pop = try await ClientAttestationPoP.create(audience: Self.issuer, signer: instanceKey, issuedAt: now, challenge: "c")
        let verified = try verifier.verify(attestation: attestation(), pop: pop, expectedChallenge: "c", at: now)
        #expect(verified.challenge == "c")
    }

    // MARK: attestation checks

    @Test func attestationMustBeACompactJWS() throws {
        try expectFailure(.attestationMalformed(""), attestation: "not-a-jwt")
    }

    @Test func attestationMustHaveItsType() throws {
        var header = JOSEHeader()
        header.typ = "JWT"
        header.kid = "tenant-1"
        try expectFailure(.attestationWrongType("JWT"), attestation: attestation(header: header))
    }

    @Test func attestationAlgorithmMustBeAllowed() throws {
        let p384 = JWSSigningKey(P384.Signing.PrivateKey(), kid: "tenant-1")
        var verifier = self.verifier
        verifier.trustedKeys = JWKSet(keys: [p384.publicJWK])
        verifier.allowedAlgorithms = [.es256]
        try expectFailure(.attestationAlgorithmNotAllowed("ES384"), attestation: attestation(key: p384), verifier: verifier)
    }

    @Test func attestationKeyMustBeTrusted() throws {
        let stranger = JWSSigningKey(P256.Signing.PrivateKey(), kid: "stranger")
        try expectFailure(.attestationUntrustedKey("stranger"),
                          attestation: attestation(header: WalletAttestationClaims.header(kid: "stranger"), key: stranger))
    }

    @Test func attestationSignatureMustVerify() throws {
        let impostor = JWSSigningKey(P256.Signing.PrivateKey(), kid: "tenant-1")
        try expectFailure(.attestationInvalidSignature, attestation: attestation(key: impostor))
    }

    @Test func attestationRequiresSubExpIatCnf() throws {
        try expectFailure(.attestationMissingClaim("sub"), attestation: attestation(claims: { $0.sub = nil }))
        try expectFailure(.attestationMissingClaim("exp"), attestation: attestation(claims: { $0.exp = nil }))
        try expectFailure(.attestationMissingClaim("iat"), attestation: attestation(claims: { $0.iat = nil }))
        try expectFailure(.attestationMissingClaim("cnf"), attestation: attestation(claims: { $0.cnf = nil }))
        try expectFailure(.attestationMissingClaim("iss"), attestation: attestation(claims: { $0.iss = nil }))
    }

    @Test func attestationMustNotBeExpired() throws {
        try expectFailure(.attestationExpired, attestation: attestation(claims: { $0.exp = now.addingTimeInterval(-31) }))
    }

    @Test func attestationMustNotBeIssuedInTheFuture() throws {
        try expectFailure(.attestationNotYetValid, attestation: attestation(claims: { $0.iat = now.addingTimeInterval(120) }))
        try expectFailure(.attestationNotYetValid, attestation: attestation(claims: { $0.nbf = now.addingTimeInterval(120) }))
    }

    @Test func attestationIssuerMustMatch() throws {
        try expectFailure(.attestationIssuerMismatch, attestation: attestation(claims: { $0.iss = "https://evil.example" }))
    }

    @Test func attestationSubjectMustBeTheClientId() throws {
        try expectFailure(.attestationSubjectMismatch, attestation: attestation(claims: { $0.sub = "client-2" }))
    }

    @Test func attestationConfirmationMustBeAJWK() throws {
        let jkt = try instanceKey.publicJWK.thumbprint()
        try expectFailure(.attestationInvalidConfirmationKey,
                          attestation: attestation(claims: { $0.cnf = JWTConfirmation(jkt: jkt) }))
    }

    // MARK: PoP checks

    @Test func popMustBeACompactJWS() throws {
        try expectFailure(.popMalformed(""), pop: "a.b")
    }

    @Test func popMustHaveItsType() throws {
        try expectFailure(.popWrongType("dpop+jwt"), pop: pop(type: "dpop+jwt"))
        try expectFailure(.popWrongType("JWT"), pop: pop(type: "JWT"))
    }

    @Test func popAlgorithmMustBeAllowed() throws {
        let p384 = JWSSigningKey(P384.Signing.PrivateKey())
        var verifier = self.verifier
        verifier.allowedAlgorithms = [.es256]
        let attestation = try attestation(claims: { $0.cnf = JWTConfirmation(jwk: p384.publicJWK) })
        try expectFailure(.popAlgorithmNotAllowed("ES384"), attestation: attestation, pop: pop(key: p384), verifier: verifier)
    }

    @Test func popMustBeSignedByTheConfirmationKey() throws {
        try expectFailure(.popInvalidSignature, pop: pop(key: JWSSigningKey(P256.Signing.PrivateKey())))
    }

    @Test func popRequiresAudJtiIat() throws {
        try expectFailure(.popMissingClaim("aud"), pop: pop(claims: { $0.aud = nil }))
        try expectFailure(.popMissingClaim("jti"), pop: pop(claims: { $0.jti = nil }))
        try expectFailure(.popMissingClaim("iat"), pop: pop(claims: { $0.iat = nil }))
    }

    @Test func popAudienceMustBeThisVerifierAlone() throws {
        try expectFailure(.popAudienceMismatch, pop: pop(claims: { $0.aud = ["https://other.example"] }))
        try expectFailure(.popAudienceMismatch, pop: pop(claims: { $0.aud = [Self.issuer, "https://other.example"] }))
    }

    @Test func popJTIMustBeWellFormed() throws {
        try expectFailure(.popInvalidJTI, pop: pop(claims: { $0.jti = "" }))
        try expectFailure(.popInvalidJTI, pop: pop(claims: { $0.jti = String(repeating: "j", count: 257) }))
    }

    @Test func popIssuedAtMustBeRecent() throws {
        try expectFailure(.popIssuedAtOutOfWindow, pop: pop(claims: { $0.iat = now.addingTimeInterval(-301) }))
        try expectFailure(.popIssuedAtOutOfWindow, pop: pop(claims: { $0.iat = now.addingTimeInterval(31) }))
    }

    @Test func popMustNotBeExpired() throws {
        try expectFailure(.popExpired, pop: pop(claims: { $0.exp = now.addingTimeInterval(-60) }))
    }

    @Test func popIssuerWhenPresentMustBeTheClientId() throws {
        try expectFailure(.popIssuerMismatch, pop: pop(claims: { $0.iss = "client-2" }))
        _ = try verifier.verify(attestation: attestation(), pop: pop(claims: { $0.iss = "client-1" }),
                                expectedChallenge: "ch-1", at: now)
    }

    @Test func popMustCarryTheExpectedChallenge() throws {
        try expectFailure(.popMissingChallenge, pop: pop(claims: { $0.additionalClaims = [:] }))
        try expectFailure(.popChallengeMismatch, pop: pop(claims: { $0.additionalClaims = ["challenge": .string("ch-2")] }))
    }

    @Test func popChallengeMayComeAsLegacyNonce() throws {
        let verified = try verifier.verify(attestation: attestation(),
                                           pop: pop(claims: { $0.additionalClaims = ["nonce": .string("ch-1")] }),
                                           expectedChallenge: "ch-1", at: now)
        #expect(verified.challenge == "ch-1")
    }

    @Test func errorCodesAreStable() {
        #expect(ClientAttestationError.popAudienceMismatch.code == "CLIENT_ATTESTATION_POP_AUDIENCE_MISMATCH")
        #expect(ClientAttestationError.attestationExpired.code == "CLIENT_ATTESTATION_EXPIRED")
    }
}
