import Foundation
import JOSE

/// Registration protocol step 4 (docs/server-api.md "Registration wire format"): a platform's attestation of the instance key, decoded from or encoded
/// to the `attestation` and `keyId` members of a request.
///
/// Wire format:
/// - **App Attest**: `attestation` is a JSON string, the base64url (no padding) of the CBOR attestation object that
///   `DCAppAttestService.attestKey(_:clientDataHash:)` returned for `clientDataHash = BindingNonce.bytes`; `keyId`
///   is the standard base64 (with padding) of the 32-byte App Attest key identifier.
/// - **Android Key Attestation**: `attestation` is a JSON array of strings, each the standard base64 of one DER
///   X.509 certificate, leaf first, from a key generated with `attestationChallenge = BindingNonce.bytes`;
///   `keyId` is absent.
public enum PlatformAttestationPayload: Sendable, Hashable {
    case appAttest(attestationObject: [UInt8], keyId: [UInt8])
    case androidKeyAttestation(certificateChain: [[UInt8]])

    /// The longest certificate chain accepted.
    public static let maximumChainLength = 10
    /// The largest attestation object or certificate accepted, in bytes.
    public static let maximumItemSize = 64 * 1024

    /// The members to put in a request.
    public var wire: (attestation: AttestationValue, keyId: String?) {
        switch self {
        case .appAttest(let object, let keyId):
            (.string(Base64URL.encode(object)), Data(keyId).base64EncodedString())
        case .androidKeyAttestation(let chain):
            (.array(chain.map { Data($0).base64EncodedString() }), nil)
        }
    }

    /// The attestation type the server records for this payload.
    public var appAttestationType: AppAttestationType {
        switch self {
        case .appAttest: .appAttestation
        case .androidKeyAttestation: .keyAttestation
        }
    }

    /// Decodes the `attestation` and `keyId` members of a request; throws `invalidAttestation` when they do not fit
    /// either shape.
    public init(attestation: AttestationValue, keyId: String?) throws(ProtocolError) {
        switch attestation {
        case .string(let text):
            guard text.utf8.count <= Self.maximumItemSize * 2, let object = Base64URL.decode(text), !object.isEmpty,
                  object.count <= Self.maximumItemSize else {
                throw .invalidAttestation("an App Attest attestation must be non-empty unpadded base64url")
            }
            guard let keyId, keyId.utf8.count <= 256, let keyBytes = Data(base64Encoded: keyId), !keyBytes.isEmpty else {
                throw .invalidAttestation("an App Attest attestation needs keyId, standard base64")
            }
            self = .appAttest(attestationObject: object, keyId: Array(keyBytes))
        case .array(let items):
            guard keyId == nil else { throw .invalidAttestation("keyId is only used with App Attest") }
            guard !items.isEmpty, items.count <= Self.maximumChainLength else {
                throw .invalidAttestation("an Android chain has 1 to \(Self.maximumChainLength) certificates")
            }
            var chain: [[UInt8]] = []
            for (index, item) in items.enumerated() {
                guard item.utf8.count <= Self.maximumItemSize * 2, let der = Data(base64Encoded: item), !der.isEmpty,
                      der.count <= Self.maximumItemSize else {
                    throw .invalidAttestation("certificate \(index) is not standard base64 DER")
                }
                chain.append(Array(der))
            }
            self = .androidKeyAttestation(certificateChain: chain)
        }
    }
}
