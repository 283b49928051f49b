import Attestation
import Foundation

extension AttestArgument {
    /// A certificate chain, leaf first, as `--chain` takes it.
    enum Chain: Equatable {
        /// PEM text or concatenated DER, split by `CertificateChainDecoder`.
        case encoded([UInt8])
        /// One DER certificate per element.
        case derList([[UInt8]])

        /// The parsed certificates. Malformed certificates are the attestation's fault, not the argument's, so they
        /// fail with the verifier's own codes (`INVALID_FORMAT`, `CHAIN_TOO_LONG`).
        func certificates(maximumLength: Int = CertificateChainDecoder.defaultMaximumLength) throws(AttestationError) -> [AttestationCertificate] {
            switch self {
            case .encoded(let bytes): try CertificateChainDecoder.decode(bytes, maximumLength: maximumLength)
            case .derList(let ders): try CertificateChainDecoder.decode(derList: ders, maximumLength: maximumLength)
            }
        }
    }

    /// `--chain`: `@file` with PEM blocks or concatenated binary DER, or text (in the file or in the argument) that
    /// is PEM, a JSON array of base64 DER certificates, or base64 DER certificates separated by commas or whitespace.
    static func chain(_ argument: String, option: String = "chain") throws(Invalid) -> Chain {
        guard argument.hasPrefix("@") else { return try chainText(argument, option: option) }
        let data = try file(argument, option: option)
        guard let text = String(data: data, encoding: .utf8) else { return .encoded([UInt8](data)) }
        return try chainText(text, option: option)
    }

    private static func chainText(_ text: String, option: String) throws(Invalid) -> Chain {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("[") {
            guard let items = (try? JSONSerialization.jsonObject(with: Data(trimmed.utf8))) as? [String] else {
                throw Invalid("--\(option): a JSON chain must be an array of base64 strings")
            }
            return .derList(try items.map { item throws(Invalid) in try certificateText(item, option: option) })
        }
        if trimmed.contains("-----BEGIN") { return .encoded(Array(trimmed.utf8)) }
        let items = trimmed.split { $0 == "," || $0.isWhitespace }.map(String.init)
        guard !items.isEmpty else { throw Invalid("--\(option) is empty") }
        return .derList(try items.map { item throws(Invalid) in try certificateText(item, option: option) })
    }

    /// One certificate of a list: base64 DER, or a PEM block.
    private static func certificateText(_ item: String, option: String) throws(Invalid) -> [UInt8] {
        if item.contains("-----BEGIN") {
            guard let der = pemBody(item, label: "CERTIFICATE") else { throw Invalid("--\(option): a PEM item holds no CERTIFICATE block") }
            return der
        }
        guard let der = ByteInput.base64Either(item) else { throw Invalid("--\(option): a list item is not base64") }
        return der
    }
}
