import COSE
import JOSE
import MDoc

/// ISO/IEC TS 18013-7 (second edition) Annex C — the `data` of an `org-iso-mdoc` request:
/// `{"deviceRequest": base64url(DeviceRequest), "encryptionInfo": base64url(EncryptionInfo)}`, both base64url without
/// padding of CBOR. The DeviceRequest is ISO/IEC 18013-5 §8.3.2.1.2.1's, one DocRequest per docType, each with an
/// optional `readerAuth` (§9.1.4) over the Annex C SessionTranscript. Both strings are kept as received.
public struct AnnexCRequest: Sendable, Hashable {
    public let deviceRequest: DeviceRequest
    /// The `deviceRequest` member as received or sent.
    public let deviceRequestBase64URL: String
    public let encryptionInfo: EncryptionInfo

    /// Reads the `data` member of an `org-iso-mdoc` request.
    public init(data: [String: JSONValue]) throws(DigitalCredentialsError) {
        let deviceRequestText = try DigitalCredentialsJSON.string(data, "deviceRequest", in: "the org-iso-mdoc data")
        let encryptionInfoText = try DigitalCredentialsJSON.string(data, "encryptionInfo", in: "the org-iso-mdoc data")
        guard let deviceRequestBytes = Base64URL.decode(deviceRequestText) else {
            throw .deviceRequestMalformed(.malformed("deviceRequest is not base64url without padding"))
        }
        do { deviceRequest = try DeviceRequest(decoding: deviceRequestBytes) } catch { throw .deviceRequestMalformed(error) }
        deviceRequestBase64URL = deviceRequestText
        encryptionInfo = try EncryptionInfo(base64URL: encryptionInfoText)
    }

    /// Reads an `org-iso-mdoc` request.
    public init(_ request: DigitalCredentialRequest) throws(DigitalCredentialsError) {
        guard request.protocol == .orgIsoMdoc else { throw .protocolMismatch(expected: .orgIsoMdoc, found: request.protocol) }
        try self.init(data: request.data)
    }

    /// The request for `itemsRequests` (one per docType) without reader authentication.
    public init(itemsRequests: [ItemsRequest], encryptionInfo: EncryptionInfo) {
        self.init(deviceRequest: DeviceRequest(docRequests: itemsRequests.map { DeviceRequest.DocRequest(itemsRequest: $0) }),
                  encryptionInfo: encryptionInfo)
    }

    /// The request for `itemsRequests` with reader authentication: each DocRequest's `readerAuth` signed by
    /// `readerSigner` over the Annex C SessionTranscript for `origin` (§9.1.4; ReaderAuthentication embeds the
    /// transcript, so the signature names the page's origin), `certificateChain` (DER, leaf first) as `x5chain`.
    public init(itemsRequests: [ItemsRequest], encryptionInfo: EncryptionInfo, origin: String,
                readerSigner: some COSESigner, certificateChain: [[UInt8]]) throws(DigitalCredentialsError) {
        let transcript = SessionTranscript.dcapi(encryptionInfo: encryptionInfo.base64URL, origin: origin)
        var docRequests: [DeviceRequest.DocRequest] = []
        for itemsRequest in itemsRequests {
            do {
                docRequests.append(try DeviceRequest.DocRequest(itemsRequest: itemsRequest, sessionTranscript: transcript,
                                                                signer: readerSigner, certificateChain: certificateChain))
            } catch {
                throw .readerAuthenticationFailed(error)
            }
        }
        self.init(deviceRequest: DeviceRequest(docRequests: docRequests), encryptionInfo: encryptionInfo)
    }

    public init(deviceRequest: DeviceRequest, encryptionInfo: EncryptionInfo) {
        self.deviceRequest = deviceRequest
        deviceRequestBase64URL = Base64URL.encode(deviceRequest.encoded())
        self.encryptionInfo = encryptionInfo
    }

    /// The Annex C SessionTranscript of this request for the page at `origin`.
    public func sessionTranscript(origin: String) -> SessionTranscript {
        .dcapi(encryptionInfo: encryptionInfo.base64URL, origin: origin)
    }

    /// Verifies the `readerAuth` of every DocRequest that has one over the transcript for `origin` and returns
    /// their certificate chains (DER, leaf first), one per authenticated DocRequest; whether a chain reaches a
    /// trusted reader CA is the caller's policy.
    public func verifyReaderAuthentication(origin: String) throws(DigitalCredentialsError) -> [[[UInt8]]] {
        let transcript = sessionTranscript(origin: origin)
        var chains: [[[UInt8]]] = []
        for docRequest in deviceRequest.docRequests where docRequest.readerAuth != nil {
            do {
                chains.append(try docRequest.verifyReaderAuthentication(sessionTranscript: transcript))
            } catch {
                throw .readerAuthenticationFailed(error)
            }
        }
        return chains
    }

    /// The `data` member.
    public var data: [String: JSONValue] {
        ["deviceRequest": .string(deviceRequestBase64URL), "encryptionInfo": .string(encryptionInfo.base64URL)]
    }

    /// The `{protocol: "org-iso-mdoc", data}` request.
    public var request: DigitalCredentialRequest { DigitalCredentialRequest(protocol: .orgIsoMdoc, data: data) }
}
