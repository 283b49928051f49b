import Plumbing

extension CredentialOffer.TransactionCode {
    /// §4.1.1 `tx_code.input_mode`: the characters the transaction code is made of, `numeric` when absent. Open: an
    /// offer with a mode this version does not name still decodes (the wallet shows a text input for it), and an
    /// issuer refuses such a mode where it validates its input, not where it decodes it.
    public struct InputMode: OpenValueSet {
        public enum Known: String, CaseIterable, Sendable {
            /// Digits only.
            case numeric
            /// Any characters.
            case text
        }

        public let rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }

        public static let numeric = Self(.numeric)
        public static let text = Self(.text)
    }
}
