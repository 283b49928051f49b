import CBOR
import COSE
import X509

/// `DeviceRequest = {version, docRequests}` (ISO/IEC 18013-5 §8.3.2.1.2.1), with
/// `DocRequest = {itemsRequest: ItemsRequestBytes, ? readerAuth: COSE_Sign1}`.
///
/// Written as version "1.0"; read for any "1.x" (members a later edition adds, such as `deviceRequestInfo`, are left
/// aside). Each document request keeps its `ItemsRequestBytes` and its `readerAuth` as received, so that reader
/// authentication is verified over the bytes the reader signed and the request is written back unchanged.
public struct DeviceRequest: Sendable, Hashable {
    /// §8.3.2.1.2.1: "1.0".
    public static let currentVersion = "1.0"

    public struct DocRequest: Sendable, Hashable {
        /// `ItemsRequestBytes` (`#6.24(bstr .cbor ItemsRequest)`) as received or written.
        public let itemsRequestBytes: [UInt8]
        public let itemsRequest: ItemsRequest
        /// `readerAuth` (§9.1.4), when the reader authenticated itself.
        public let readerAuth: COSESign1?
        /// The encoding of `readerAuth` as received or written.
        let readerAuthBytes: [UInt8]?

        /// A request without reader authentication.
        public init(itemsRequest: ItemsRequest) {
            self.itemsRequest = itemsRequest
            itemsRequestBytes = itemsRequest.taggedBytes()
            readerAuth = nil
            readerAuthBytes = nil
        }

        /// A request with reader authentication (§9.1.4): an ES256 (or the signer's) COSE_Sign1 with a detached
        /// payload, `ReaderAuthenticationBytes` over `sessionTranscript`, the reader's certificate chain (DER, leaf
        /// first) in the unprotected header as `x5chain` (label 33).
        public init(itemsRequest: ItemsRequest, sessionTranscript: SessionTranscript, signer: some COSESigner,
                    certificateChain: [[UInt8]]) throws(MDocError) {
            guard !certificateChain.isEmpty else { throw .readerCertificateMissing }
            let itemsRequestBytes = itemsRequest.taggedBytes()
            let payload = ReaderAuthentication.taggedBytes(sessionTranscript: sessionTranscript, itemsRequestBytes: itemsRequestBytes)
            let signature: COSESign1
            do {
                signature = try COSESign1.sign(payload: payload, unprotected: COSEHeaderMap(x5chain: certificateChain),
                                               detached: true, signer: signer)
            } catch {
                throw .signingFailed("\(error)")
            }
            self.itemsRequest = itemsRequest
            self.itemsRequestBytes = itemsRequestBytes
            readerAuth = signature
            readerAuthBytes = signature.encoded(tagged: false)
        }

        init(item: CBOR.Decoded) throws(MDocError) {
            let tagged = try MDocCBOR.field(item, "itemsRequest", in: "DocRequest")
            let embedded = try MDocCBOR.embedded(tagged, "itemsRequest")
            itemsRequestBytes = Array(tagged.rawBytes)
            itemsRequest = try ItemsRequest(item: embedded)
            if let auth = try MDocCBOR.optionalField(item, "readerAuth", in: "DocRequest") {
                do { readerAuth = try COSESign1(item: auth) } catch { throw .malformed("readerAuth: \(error)") }
                readerAuthBytes = Array(auth.rawBytes)
            } else {
                readerAuth = nil
                readerAuthBytes = nil
            }
        }

        /// Verifies `readerAuth` over `ReaderAuthenticationBytes` with the key of the first certificate of its
        /// `x5chain` (§9.1.4) and returns that chain (DER, leaf first). Whether the chain reaches a trusted reader CA
        /// is the caller's policy; throws ``MDocError/readerAuthenticationMissing`` when there is no `readerAuth`.
        @discardableResult
        public func verifyReaderAuthentication(sessionTranscript: SessionTranscript) throws(MDocError) -> [[UInt8]] {
            guard let readerAuth else { throw .readerAuthenticationMissing }
            let chain: [[UInt8]]
            do { chain = try readerAuth.x5chain() } catch { throw .readerCertificateMalformed("x5chain: \(error)") }
            guard let leaf = chain.first else { throw .readerCertificateMissing }
            let key: COSEVerificationKey
            do {
                key = try IssuerTrust.verificationKey(of: try Certificate(derEncoded: leaf))
            } catch {
                throw .readerCertificateMalformed("the reader certificate is not DER X.509 with an EC key: \(error)")
            }
            let payload = ReaderAuthentication.taggedBytes(sessionTranscript: sessionTranscript, itemsRequestBytes: itemsRequestBytes)
            do {
                try readerAuth.verify(using: key, detachedPayload: payload)
            } catch {
                throw .readerSignatureInvalid
            }
            return chain
        }

        func encoded() -> [UInt8] {
            var bytes = CBOR.head(major: 5, argument: readerAuthBytes == nil ? 1 : 2)
            bytes += CBOR.text("itemsRequest").encoded() + itemsRequestBytes
            if let readerAuthBytes { bytes += CBOR.text("readerAuth").encoded() + readerAuthBytes }
            return bytes
        }
    }

    public let version: String
    public let docRequests: [DocRequest]

    public init(docRequests: [DocRequest]) {
        version = Self.currentVersion
        self.docRequests = docRequests
    }

    public init(decoding bytes: [UInt8]) throws(MDocError) {
        let item = try MDocCBOR.decode(bytes, "DeviceRequest")
        version = try MDocCBOR.text(try MDocCBOR.field(item, "version", in: "DeviceRequest"), "DeviceRequest version")
        guard version.hasPrefix("1.") else { throw .unsupportedVersion(version) }
        var docRequests: [DocRequest] = []
        for docRequest in try MDocCBOR.array(try MDocCBOR.field(item, "docRequests", in: "DeviceRequest"), "docRequests") {
            docRequests.append(try DocRequest(item: docRequest))
        }
        guard !docRequests.isEmpty else { throw .malformed("DeviceRequest has no docRequests") }
        self.docRequests = docRequests
    }

    /// `{version, docRequests}`, each document request with its kept bytes.
    public func encoded() -> [UInt8] {
        var bytes = CBOR.head(major: 5, argument: 2)
        bytes += CBOR.text("version").encoded() + CBOR.text(version).encoded()
        bytes += CBOR.text("docRequests").encoded() + CBOR.head(major: 4, argument: UInt64(docRequests.count))
        for docRequest in docRequests { bytes += docRequest.encoded() }
        return bytes
    }
}
