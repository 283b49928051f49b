import Crypto

/// The MSO's `digestAlgorithm` (ISO/IEC 18013-5 §9.1.2.5): the names as the standard spells them.
public enum DigestAlgorithm: String, Sendable, Hashable, CaseIterable {
    case sha256 = "SHA-256"
    case sha384 = "SHA-384"
    case sha512 = "SHA-512"

    public func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let data = Array(bytes)
        switch self {
        case .sha256: return Array(SHA256.hash(data: data))
        case .sha384: return Array(SHA384.hash(data: data))
        case .sha512: return Array(SHA512.hash(data: data))
        }
    }
}
