import Foundation
import HoldfastProtocol
import Testing

/// The device-facing wire's value sets (docs/server-api.md "SCA wallet (back end)", "Verifier"): each known value has its documented
/// spelling, and a value a newer tenant or client sends decodes, is not known, and is written back unchanged.
@Suite struct WireValueSetTests {
    /// Encodes `value`, decodes it back, and returns the JSON written.
    static func roundTrip<T: Codable & Equatable>(_ value: T) throws -> String {
        let data = try HoldfastJSON.encode(value)
        #expect(try HoldfastJSON.decode(T.self, from: data) == value)
        return String(decoding: data, as: UTF8.self)
    }

    @Test func accessProtectionValues() throws {
        #expect(SCAAccessProtection.all.map(\.rawValue) == ["pin", "biometric", "pinOrBiometric", "none"])
        for protection in SCAAccessProtection.all {
            #expect(protection.isKnown)
            let json = try Self.roundTrip(SCAActivationResponse(walletId: "w", userId: "u", accessProtection: protection, maxPinAttempts: 3))
            #expect(json.contains(#""accessProtection":"\#(protection.rawValue)""#))
        }
    }

    @Test func anUnknownAccessProtectionIsKept() throws {
        let json = #"{"walletId":"w","userId":"u","accessProtection":"faceAndPin","maxPinAttempts":3}"#
        let response = try HoldfastJSON.decode(SCAActivationResponse.self, from: Data(json.utf8))
        #expect(response.accessProtection.rawValue == "faceAndPin" && !response.accessProtection.isKnown)
        #expect(try Self.roundTrip(response).contains(#""accessProtection":"faceAndPin""#))
    }

    @Test func walletStateValues() throws {
        #expect(SCAWalletState.all.map(\.rawValue) == ["pending", "active", "locked", "deleted"])
        for state in SCAWalletState.all {
            #expect(state.isKnown)
            #expect(try Self.roundTrip(SCAPinAttemptResult(outcome: .failure, pinAttemptsLeft: 2, state: state)).contains(#""state":"\#(state.rawValue)""#))
        }
    }

    @Test func anUnknownWalletStateIsKept() throws {
        let result = try HoldfastJSON.decode(SCAPinAttemptResult.self, from: Data(#"{"outcome":"failure","pinAttemptsLeft":1,"state":"frozen"}"#.utf8))
        #expect(result.state.rawValue == "frozen" && !result.state.isKnown)
        #expect(try Self.roundTrip(result).contains(#""state":"frozen""#))
    }

    @Test func pinAttemptOutcomeValues() throws {
        #expect(SCAPinAttemptOutcome.all.map(\.rawValue) == ["success", "failure"])
        for outcome in SCAPinAttemptOutcome.all {
            #expect(outcome.isKnown)
            #expect(try Self.roundTrip(SCAPinAttemptResult(outcome: outcome, pinAttemptsLeft: 3, state: .active))
                .contains(#""outcome":"\#(outcome.rawValue)""#))
        }
    }

    @Test func anUnknownPinAttemptOutcomeIsKept() throws {
        let report = try HoldfastJSON.decode(SCAPinAttemptResult.self, from: Data(#"{"outcome":"skipped","pinAttemptsLeft":3,"state":"active"}"#.utf8))
        #expect(report.outcome.rawValue == "skipped" && !report.outcome.isKnown)
        #expect(try Self.roundTrip(report).contains(#""outcome":"skipped""#))
    }

    @Test func presentationProtocolValues() throws {
        #expect(PresentationProtocol.all.map(\.rawValue) == ["openid4vp-1.0", "18013-7-2024", "dc-api"])
        for value in PresentationProtocol.all {
            #expect(value.isKnown)
            #expect(try Self.roundTrip([value]) == #"["\#(value.rawValue)"]"#)
        }
    }

    @Test func anUnknownPresentationProtocolIsKept() throws {
        let decoded = try HoldfastJSON.decode([PresentationProtocol].self, from: Data(#"["openid4vp-2.0"]"#.utf8))
        #expect(decoded.map(\.rawValue) == ["openid4vp-2.0"] && decoded.allSatisfy { !$0.isKnown })
        #expect(try Self.roundTrip(decoded) == #"["openid4vp-2.0"]"#)
    }

    @Test func ineligibilityReasonValues() throws {
        #expect(SCAIneligibilityReason.all.map(\.rawValue) == ["DEVICE_INTEGRITY", "DEVICE_MODEL_BLOCKED", "APP_VERSION_UNSUPPORTED"])
        for reason in SCAIneligibilityReason.all {
            #expect(reason.isKnown)
            let json = try Self.roundTrip(SCAEligibilityCheckResponse(eligible: false, reason: reason, denialReference: "DEN-1"))
            #expect(json.contains(#""reason":"\#(reason.rawValue)""#))
        }
    }

    @Test func anUnknownIneligibilityReasonIsKept() throws {
        let json = #"{"denialReference":"DEN-1","eligible":false,"reason":"REGION_BLOCKED"}"#
        let response = try HoldfastJSON.decode(SCAEligibilityCheckResponse.self, from: Data(json.utf8))
        #expect(response.reason?.rawValue == "REGION_BLOCKED" && response.reason?.isKnown == false)
        #expect(try Self.roundTrip(response) == json)
    }

    @Test func lockReasonValues() throws {
        #expect(SCALockReason.backEnd.map(\.rawValue) == ["LOST_DEVICE", "STOLEN_DEVICE", "FRAUD_SUSPICION", "OTHER"])
        #expect(SCALockReason.all == SCALockReason.backEnd + [.pinAttempts] && SCALockReason.pinAttempts.rawValue == "PIN_ATTEMPTS")
        for reason in SCALockReason.all {
            #expect(reason.isKnown)
            #expect(try HoldfastJSON.decode(SCALockReason.self, from: Data(try HoldfastJSON.encode(reason))) == reason)
        }
        let unknown = try HoldfastJSON.decode(SCALockReason.self, from: Data(#""REGULATOR_ORDER""#.utf8))
        #expect(unknown.rawValue == "REGULATOR_ORDER" && !unknown.isKnown)
        #expect(String(decoding: try HoldfastJSON.encode(unknown), as: UTF8.self) == #""REGULATOR_ORDER""#)
    }

    @Test func eachSetListsAValueOnce() {
        #expect(Set(SCALockReason.all).count == SCALockReason.all.count)
        #expect(Set(SCAAccessProtection.all).count == SCAAccessProtection.all.count)
        #expect(Set(SCAWalletState.all).count == SCAWalletState.all.count)
        #expect(Set(SCAPinAttemptOutcome.all).count == SCAPinAttemptOutcome.all.count)
        #expect(Set(PresentationProtocol.all).count == PresentationProtocol.all.count)
        #expect(Set(SCAIneligibilityReason.all).count == SCAIneligibilityReason.all.count)
    }
}
