import MDoc

/// The SessionTranscript of an online presentation (ISO/IEC 18013-5 §9.1.5.1 with no device engagement and no reader
/// key): `[null, null, Handover]`, the handover being OpenID4VP 1.0's or ISO/IEC TS 18013-7:2024's. `SessionTranscript`
/// stays in `MDoc` (it is 18013-5's structure, which DeviceAuthentication embeds); the handovers are the
/// presentation protocols' and live here.
extension SessionTranscript {
    /// OpenID4VP 1.0 Appendix B.2.6.1: `[null, null, OpenID4VPHandover]`.
    public static func openID4VP(clientId: String, nonce: String, jwkThumbprint: [UInt8]?, responseUri: String) -> SessionTranscript {
        SessionTranscript(handover: OpenID4VPHandover(clientId: clientId, nonce: nonce, jwkThumbprint: jwkThumbprint,
                                                      responseUri: responseUri).cbor)
    }

    /// OpenID4VP 1.0 Appendix B.2.6.2 (the Digital Credentials API, Appendix A): `[null, null, OpenID4VPDCAPIHandover]`.
    public static func openID4VPDCAPI(origin: String, nonce: String, jwkThumbprint: [UInt8]?) -> SessionTranscript {
        SessionTranscript(handover: OpenID4VPDCAPIHandover(origin: origin, nonce: nonce, jwkThumbprint: jwkThumbprint).cbor)
    }

    /// ISO/IEC TS 18013-7:2024 Annex B.4.4: `[null, null, OID4VPHandover]`.
    public static func iso18013_7(clientId: String, responseUri: String, nonce: String, mdocGeneratedNonce: String) -> SessionTranscript {
        SessionTranscript(handover: ISO18013_7Handover(clientId: clientId, responseUri: responseUri, nonce: nonce,
                                                       mdocGeneratedNonce: mdocGeneratedNonce).cbor)
    }
}
