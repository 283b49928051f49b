import Foundation
import HoldfastAdmin
import HoldfastProtocol
import Testing

/// The admin API's value sets and result codes (docs/server-api.md "Verifier", "SCA wallet"): each known value round-trips with
/// its documented spelling, and a value a newer tenant writes decodes, is not known, and is written back unchanged.
@Suite struct AdminWireValueSetTests {
    private static let date = Date(timeIntervalSince1970: 1_795_424_733)

    /// Encodes `value`, decodes it back, and returns the JSON written.
    static func roundTrip<T: Codable & Equatable>(_ value: T) throws -> String {
        let data = try HoldfastJSON.encode(value)
        #expect(try HoldfastJSON.decode(T.self, from: data) == value)
        return String(decoding: data, as: UTF8.self)
    }

    static func request(_ presentationProtocol: PresentationProtocol, _ mode: PresentationMode) -> PresentationSessionRequest {
        PresentationSessionRequest(protocol: presentationProtocol, mode: mode, query: .init(docType: "org.iso.18013.5.1.mDL"))
    }

    @Test func presentationModeValues() throws {
        #expect(PresentationMode.all.map(\.rawValue) == ["cross-device", "same-device"])
        for mode in PresentationMode.all {
            #expect(mode.isKnown)
            #expect(try Self.roundTrip(Self.request(.openID4VP, mode)).contains(#""mode":"\#(mode.rawValue)""#))
        }
    }

    @Test func anUnknownProtocolAndModeAreKept() throws {
        let json = #"{"mode":"proximity","protocol":"openid4vp-2.0","query":{"docType":"org.iso.18013.5.1.mDL"}}"#
        let request = try HoldfastJSON.decode(PresentationSessionRequest.self, from: Data(json.utf8))
        #expect(request.mode.rawValue == "proximity" && !request.mode.isKnown)
        #expect(request.protocol.rawValue == "openid4vp-2.0" && !request.protocol.isKnown)
        #expect(try Self.roundTrip(request) == json)
    }

    @Test func presentationStatusValues() throws {
        #expect(PresentationStatus.all.map(\.rawValue) == ["pending", "verified", "failed", "declined", "expired"])
        for status in PresentationStatus.all {
            #expect(status.isKnown)
            #expect(try Self.roundTrip(PresentationResult(status: status)) == #"{"status":"\#(status.rawValue)"}"#)
        }
    }

    @Test func anUnknownPresentationStatusIsKept() throws {
        let result = try HoldfastJSON.decode(PresentationResult.self, from: Data(#"{"status":"withdrawn"}"#.utf8))
        #expect(result.status.rawValue == "withdrawn" && !result.status.isKnown)
        #expect(try Self.roundTrip(result) == #"{"status":"withdrawn"}"#)
    }

    @Test func presentationFailureCodesRoundTrip() throws {
        #expect(Set(PresentationFailureCode.all).count == PresentationFailureCode.all.count)
        for code in PresentationFailureCode.all {
            #expect(code.isKnown)
            let result = PresentationResult(status: .failed, failures: [.init(code: code, reason: "r")])
            #expect(try Self.roundTrip(result).contains(#""code":"\#(code.rawValue)""#))
        }
        #expect(PresentationFailureCode.statusRevoked.rawValue == "STATUS_REVOKED")
    }

    @Test func anUnknownPresentationFailureCodeIsKept() throws {
        let json = #"{"failures":[{"code":"QUANTUM_DECOHERENCE","reason":"r"}],"status":"failed"}"#
        let result = try HoldfastJSON.decode(PresentationResult.self, from: Data(json.utf8))
        let code = try #require(result.failures?.first?.code)
        #expect(code.rawValue == "QUANTUM_DECOHERENCE" && !code.isKnown)
        #expect(try Self.roundTrip(result) == json)
    }

    @Test func presentedCredentialStatusValues() throws {
        #expect(PresentedCredentialStatus.all.map(\.rawValue) == ["valid", "notRevocable"])
        for status in PresentedCredentialStatus.all {
            #expect(status.isKnown)
            let credential = PresentationResult.Credential(credentialQueryId: "mdl", docType: "org.iso.18013.5.1.mDL",
                                                           claims: ["org.iso.18013.5.1": ["family_name": .string("Doe")]],
                                                           issuer: .init(subject: "CN=DS,C=ZZ", iaca: "CN=IACA,C=ZZ"), status: status)
            #expect(try Self.roundTrip(PresentationResult.verified([credential])).contains(#""status":"\#(status.rawValue)""#))
        }
        let newer = try HoldfastJSON.decode(PresentedCredentialStatus.self, from: Data(#""withdrawn""#.utf8))
        #expect(newer.rawValue == "withdrawn" && !newer.isKnown)
    }

    /// `claims` (by docType) only when no docType was presented twice; `credentials` always, one entry per document.
    @Test func aVerifiedResultMergesNoTwoDocumentsOfOneDocType() throws {
        func credential(_ id: String, _ docType: String, _ element: String) -> PresentationResult.Credential {
            .init(credentialQueryId: id, docType: docType, claims: ["ns": [element: .bool(true)]],
                  issuer: .init(subject: "CN=DS", iaca: "CN=IACA"), status: .valid)
        }
        let distinct = PresentationResult.verified([credential("a", "mdl", "x"), credential("b", "pid", "y")])
        #expect(distinct.status == .verified && distinct.credentials?.count == 2)
        #expect(distinct.claims == ["mdl": ["ns": ["x": .bool(true)]], "pid": ["ns": ["y": .bool(true)]]])
        let twice = PresentationResult.verified([credential("a", "mdl", "x"), credential("a", "mdl", "y")])
        #expect(twice.status == .verified && twice.claims == nil)
        #expect(twice.credentials?.map(\.claims) == [["ns": ["x": .bool(true)]], ["ns": ["y": .bool(true)]]])
        #expect(try !Self.roundTrip(twice).contains(#""claims":{"mdl""#))
    }

    @Test func issuedCredentialStatusValues() throws {
        #expect(IssuedCredentialStatus.all.map(\.rawValue) == ["valid", "suspended", "revoked"])
        #expect(Set(IssuedCredentialStatus.all).count == IssuedCredentialStatus.all.count)
        for status in IssuedCredentialStatus.all {
            #expect(status.isKnown)
            #expect(try Self.roundTrip(CredentialStatusChange(status: status)) == #"{"status":"\#(status.rawValue)"}"#)
            let credential = IssuedCredential(id: "c", configurationId: "mdl", docType: "org.iso.18013.5.1.mDL", instanceId: nil,
                                              status: status, statusList: nil, issuedAt: Self.date, validUntil: Self.date)
            #expect(try Self.roundTrip(credential).contains(#""status":"\#(status.rawValue)""#))
        }
    }

    @Test func anUnknownIssuedCredentialStatusIsKept() throws {
        let change = try HoldfastJSON.decode(CredentialStatusChange.self, from: Data(#"{"status":"expired"}"#.utf8))
        #expect(change.status.rawValue == "expired" && !change.status.isKnown)
        #expect(try Self.roundTrip(change) == #"{"status":"expired"}"#)
    }

    @Test func scaWalletStateAndAccessProtection() throws {
        let wallet = SCAWallet(id: "w", applicationId: "a", userId: "u", state: .locked, accessProtection: .biometric, maxPinAttempts: 3,
                               pinAttemptsLeft: 0, publicKeyJwk: nil, lockReason: "PIN_ATTEMPTS", createdAt: Self.date, activatedAt: nil,
                               device: nil)
        let json = try Self.roundTrip(wallet)
        #expect(json.contains(#""state":"locked""#) && json.contains(#""accessProtection":"biometric""#))
        #expect(try Self.roundTrip(SCAWalletSettings(accessProtection: SCAAccessProtection.none)) == #"{"accessProtection":"none"}"#)
    }

    @Test func anUnknownWalletStateAndAccessProtectionAreKept() throws {
        let json = #"{"accessProtection":"faceAndPin","applicationId":"a","createdAt":"2026-11-23T09:05:33Z","id":"w","maxPinAttempts":3,"pinAttemptsLeft":3,"state":"frozen","userId":"u"}"#
        let wallet = try HoldfastJSON.decode(SCAWallet.self, from: Data(json.utf8))
        #expect(wallet.state.rawValue == "frozen" && !wallet.state.isKnown)
        #expect(wallet.accessProtection.rawValue == "faceAndPin" && !wallet.accessProtection.isKnown)
        #expect(try Self.roundTrip(wallet) == json)
        let settings = try HoldfastJSON.decode(SCAWalletSettings.self, from: Data(#"{"accessProtection":"faceAndPin"}"#.utf8))
        #expect(settings.accessProtection?.rawValue == "faceAndPin")
        #expect(try Self.roundTrip(settings) == #"{"accessProtection":"faceAndPin"}"#)
    }

    @Test func scaProofFailureCodesRoundTrip() throws {
        #expect(Set(SCAProofFailureCode.all).count == SCAProofFailureCode.all.count)
        for code in SCAProofFailureCode.all {
            #expect(code.isKnown)
            #expect(try Self.roundTrip(SCAProofVerification(valid: false, code: code, reason: "r")).contains(#""code":"\#(code.rawValue)""#))
        }
        #expect(SCAProofFailureCode.replayed.rawValue == "PROOF_REPLAYED")
    }

    @Test func anUnknownSCAProofFailureCodeIsKept() throws {
        let json = #"{"code":"PROOF_QUARANTINED","reason":"r","valid":false}"#
        let verification = try HoldfastJSON.decode(SCAProofVerification.self, from: Data(json.utf8))
        #expect(verification.code?.rawValue == "PROOF_QUARANTINED" && verification.code?.isKnown == false)
        #expect(try Self.roundTrip(verification) == json)
    }
}

/// The admin API's value sets offer their exhaustive `Known` enum: `all` is its cases in order, and a value this
/// version does not name has none.
@Suite struct AdminWireValueSetKnownTests {
    @Test func everyValueSetHasItsKnownCases() {
        #expect(SCAProofFailureCode.all.compactMap(\.known) == SCAProofFailureCode.Known.allCases)
        #expect(WalletNotificationEvent.all.compactMap(\.known) == WalletNotificationEvent.Known.allCases)
        #expect(IssuedCredentialStatus.all.compactMap(\.known) == IssuedCredentialStatus.Known.allCases)
        #expect(PresentationMode.all.compactMap(\.known) == PresentationMode.Known.allCases)
        #expect(SCAProofFailureCode.malformed.known == .malformed && SCAProofFailureCode.malformed.rawValue == "PROOF_MALFORMED")
        #expect(SCAProofFailureCode(rawValue: "PROOF_LOST").known == nil && IssuedCredentialStatus(rawValue: "frozen").known == nil)
        #expect(WalletNotificationEvent(rawValue: "credential_lost").known == nil && PresentationMode(rawValue: "proximity").known == nil)
    }

    /// `mode` may be left out for `dc-api` only (it reads as `cross-device`), also for a protocol this version does not name.
    @Test func modeIsRequiredExceptForTheDCAPI() throws {
        let dcAPI = try HoldfastJSON.decode(PresentationSessionRequest.self, from: Data(#"{"protocol":"dc-api","query":{"docType":"d"}}"#.utf8))
        #expect(dcAPI.mode == .crossDevice)
        for name in ["openid4vp-1.0", "18013-7-2024", "openid4vp-2.0"] {
            #expect(throws: (any Error).self) {
                try HoldfastJSON.decode(PresentationSessionRequest.self, from: Data(#"{"protocol":"\#(name)","query":{"docType":"d"}}"#.utf8))
            }
        }
    }
}
