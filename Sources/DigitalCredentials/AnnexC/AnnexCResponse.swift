import JOSE

/// ISO/IEC TS 18013-7 (second edition) Annex C — the `data` of an `org-iso-mdoc` response:
/// `{"response": base64url(EncryptedResponse)}` (base64url without padding of the CBOR).
public struct AnnexCResponse: Sendable, Hashable {
    public let encryptedResponse: EncryptedResponse

    public init(encryptedResponse: EncryptedResponse) {
        self.encryptedResponse = encryptedResponse
    }

    /// Reads the `data` member of an `org-iso-mdoc` response.
    public init(data: [String: JSONValue]) throws(DigitalCredentialsError) {
        let text = try DigitalCredentialsJSON.string(data, "response", in: "the org-iso-mdoc data")
        guard let bytes = Base64URL.decode(text) else {
            throw .encryptedResponseMalformed("response is not base64url without padding")
        }
        encryptedResponse = try EncryptedResponse(decoding: bytes)
    }

    /// Reads an `org-iso-mdoc` response.
    public init(_ response: DigitalCredentialResponse) throws(DigitalCredentialsError) {
        guard response.protocol == .orgIsoMdoc else { throw .protocolMismatch(expected: .orgIsoMdoc, found: response.protocol) }
        try self.init(data: response.data)
    }

    /// The `data` member.
    public var data: [String: JSONValue] { ["response": .string(Base64URL.encode(encryptedResponse.encoded()))] }

    /// The `{protocol: "org-iso-mdoc", data}` response the wallet hands back to the platform.
    public var response: DigitalCredentialResponse { DigitalCredentialResponse(protocol: .orgIsoMdoc, data: data) }
}
