import HoldfastProtocol

/// The bank operation `holdfast demo` and `holdfast bench sca` approve with SCA proofs: a beneficiary creation on the
/// bank's own API (not a Holdfast route), declared once with the signing policy that covers it (README "SCA wallet
/// (back end)": a policy names the operation by method and path template).
enum DemoBank {
    static let beneficiariesPath = "/v1/beneficiaries"
    static let beneficiariesURL = "https://api.bank.example" + beneficiariesPath

    /// The policy for a beneficiary creation: every body field signed, with the patterns a proof must use.
    static func beneficiaryPolicy(requiredPatterns: [SCAPattern]) -> [SCAPolicy] {
        [SCAPolicy(method: "POST", pathTemplate: beneficiariesPath, signedFields: .all, requiredPatterns: requiredPatterns)]
    }
}
