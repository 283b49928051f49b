import HoldfastProtocol
import Testing

/// Every value set of the device-facing wire offers its exhaustive `Known` enum: `all` is `Known`'s cases in order,
/// each static member is its case, and a value this version does not name has none.
@Suite struct WireValueSetKnownTests {
    static func check<T: WireValueSet>(_ type: T.Type, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(T.all.map(\.known) == T.Known.allCases.map { Optional($0) }, sourceLocation: sourceLocation)
        #expect(T.all.map(\.rawValue) == T.Known.allCases.map(\.rawValue), sourceLocation: sourceLocation)
        #expect(Set(T.all).count == T.all.count, sourceLocation: sourceLocation)
        #expect(T(rawValue: "NOT A VALUE OF \(T.self)").known == nil, sourceLocation: sourceLocation)
    }

    @Test func everyValueSetHasItsKnownCases() {
        Self.check(SCAAccessProtection.self)
        Self.check(SCAWalletState.self)
        Self.check(SCAPinAttemptOutcome.self)
        Self.check(SCALockReason.self)
        Self.check(SCAEventType.self)
        Self.check(SCAIneligibilityReason.self)
        Self.check(PresentationProtocol.self)
        Self.check(PresentationStatus.self)
        Self.check(PresentationFailureCode.self)
        Self.check(PresentedCredentialStatus.self)
        Self.check(ClientAttestationRequirement.self)
    }

    @Test func theStaticMembersAreTheirCases() {
        #expect(SCAWalletState.locked.known == .locked && SCALockReason.pinAttempts.known == .pinAttempts)
        #expect(SCALockReason.backEnd.map(\.known) == [.lostDevice, .stolenDevice, .fraudSuspicion, .other])
        #expect(PresentationProtocol.iso18013_7.known == .iso18013_7 && PresentationFailureCode.malformed.rawValue == "MALFORMED")
        #expect(SCAAccessProtection.none.known == SCAAccessProtection.Known.none)
    }

    /// Which factors a protection allows; a protection this version does not name allows none.
    @Test func accessProtectionAllowsItsFactors() {
        let allowed = SCAAccessProtection.all.map { [$0.allowsPIN, $0.allowsBiometry] }
        #expect(allowed == [[true, false], [false, true], [true, true], [false, false]])
        let newer = SCAAccessProtection(rawValue: "faceAndPin")
        #expect(!newer.allowsPIN && !newer.allowsBiometry)
    }

    /// Only `optional` waives client attestation; a requirement this version does not name is kept as `required`.
    @Test func onlyOptionalWaivesClientAttestation() {
        #expect(ClientAttestationRequirement.all.map(\.waivesAttestation) == [false, true])
        #expect(!ClientAttestationRequirement(rawValue: "recommended").waivesAttestation)
    }
}
