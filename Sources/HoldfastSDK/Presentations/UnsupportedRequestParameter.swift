import HoldfastProtocol
import JOSE

/// The request parameters a wallet must honour or refuse, which this SDK does not honour (docs/sdk.md "Holder:
/// presentation"). OpenID4VP 1.0 §5.1 has the wallet ignore parameters it does not recognise, with one exception:
/// a wallet that does not support `transaction_data` MUST reject a request carrying it (§5.1, §8.4), since showing
/// such a request as a plain presentation would have the person consent to something else than what the verifier
/// binds to the answer (a payment, a signature). The query itself stands in for the same consent: a query this
/// wallet cannot read is refused too, rather than answered from the parameters it can.
///
/// Not refused, because the wallet may leave them out: `verifier_info` (and the earlier drafts' `verifier_attestations`,
/// §5.1: at the wallet's discretion; this SDK does not use them), `request_uri_method` (§5.1: a wallet without
/// `post` uses GET), and members of other specifications it does not recognise.
enum UnsupportedRequestParameter: String, CaseIterable {
    /// OpenID4VP 1.0 §5.1, §8.4: transaction data the person is asked to authorise with the presentation.
    case transactionData = "transaction_data"
    /// OpenID4VP 1.0 §5.5: a DCQL query named by an OAuth scope agreed out of band, which this wallet knows none of.
    case scope
    /// DIF Presentation Exchange 2.0 §5 (ISO/IEC TS 18013-7:2024 B.3.1): the presentation definition by reference,
    /// which this wallet does not fetch.
    case presentationDefinitionUri = "presentation_definition_uri"

    /// Refuses the request when it carries one of these parameters (`REQUEST_UNSUPPORTED`, naming it).
    static func refuse(_ members: [String: JSONValue]) throws(HoldfastError) {
        for parameter in allCases {
            guard let value = members[parameter.rawValue], value != .null else { continue }
            switch parameter {
            case .transactionData:
                let types = transactionDataTypes(value)
                let named = types.isEmpty ? "" : " (type \(types.joined(separator: ", ")))"
                throw HoldfastError(.requestUnsupported, "the request carries transaction_data\(named), which this wallet does not support: "
                                    + "it cannot show or bind the transaction (OpenID4VP 1.0 §5.1)")
            case .scope:
                throw HoldfastError(.requestUnsupported, "the request carries scope, a query by scope this wallet does not support (OpenID4VP 1.0 §5.5)")
            case .presentationDefinitionUri:
                throw HoldfastError(.requestUnsupported, "the request carries presentation_definition_uri, which this wallet does not fetch")
            }
        }
    }

    /// The `type` of each entry of `transaction_data` (OpenID4VP 1.0 §5.1: base64url-encoded JSON objects) that can
    /// be read, for the message.
    static func transactionDataTypes(_ value: JSONValue) -> [String] {
        (value.arrayValue ?? []).compactMap { entry in
            entry.stringValue.flatMap { Base64URL.decode($0) }.flatMap { try? JSONValue(json: $0) }?.objectValue?["type"]?.stringValue
        }
    }
}
