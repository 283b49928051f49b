import CBOR
import Crypto
import MDoc

/// ISO/IEC TS 18013-7 (second edition) Annex C — the handover of an mdoc presentation through the Digital
/// Credentials API with protocol `org-iso-mdoc`: `DCAPIHandover = ["dcapi", SHA-256(dcapiInfoBytes)]` with
/// `dcapiInfo = [Base64EncryptionInfo, SerializedOrigin]`: the `encryptionInfo` string exactly as the verifier sent
/// it, and the origin the browser (platform) reports for the calling page, never one taken from the response.
public struct DCAPIHandover: Sendable, Hashable {
    public static let identifier = "dcapi"

    /// The base64url `EncryptionInfo` as sent.
    public var encryptionInfo: String
    /// The web origin (RFC 6454 serialization, as the browser gives it).
    public var origin: String

    public init(encryptionInfo: String, origin: String) {
        self.encryptionInfo = encryptionInfo
        self.origin = origin
    }

    /// `dcapiInfo` encoded (RFC 8949 §4.2.1 deterministic; an array of two text strings has one encoding).
    public var infoBytes: [UInt8] {
        CBOR.array([.text(encryptionInfo), .text(origin)]).encoded(deterministic: true)
    }

    /// `DCAPIHandover`.
    public var cbor: CBOR {
        .array([.text(Self.identifier), .bytes(Array(SHA256.hash(data: infoBytes)))])
    }
}

extension SessionTranscript {
    /// ISO/IEC TS 18013-7 Annex C: `[null, null, DCAPIHandover]`; the HPKE `info` of the response and what device
    /// authentication (and reader authentication) sign over.
    public static func dcapi(encryptionInfo: String, origin: String) -> SessionTranscript {
        SessionTranscript(handover: DCAPIHandover(encryptionInfo: encryptionInfo, origin: origin).cbor)
    }
}
