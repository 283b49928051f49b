import HoldfastProtocol

/// The bank operation `holdfast demo` and `holdfast bench sca` approve with SCA proofs: a beneficiary creation on the
/// bank's own API (not a Holdfast route, so not in `openapi.json`), declared once as a routes type is, with the signing
/// policy that covers it (docs/server-api.md "SCA wallet (back end)": a policy names the operation by method and path template).
enum DemoBankRoutes {
    /// The bank's origin in the demo.
    static let origin = "https://api.bank.example"

    enum Template {
        /// `POST` — creates a beneficiary.
        static let beneficiaries = RouteTemplate("/v1/beneficiaries")
    }

    /// The beneficiary creation's URL, as the proof signs it.
    static let beneficiariesURL = origin + Template.beneficiaries.template

    /// The policy for a beneficiary creation: every body field signed, with the patterns a proof must use.
    static func beneficiaryPolicy(requiredPatterns: [SCAPattern]) -> [SCAPolicy] {
        [SCAPolicy(method: "POST", pathTemplate: Template.beneficiaries.template, signedFields: .all, requiredPatterns: requiredPatterns)]
    }
}
