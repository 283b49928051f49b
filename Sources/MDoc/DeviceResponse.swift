import CBOR

/// `DeviceResponse = {version, ? documents, ? documentErrors, status}` (ISO/IEC 18013-5 §8.3.2.1.2.2).
public struct DeviceResponse: Sendable, Hashable {
    /// §8.3.2.1.2.2: "1.0".
    public static let currentVersion = "1.0"
    /// §8.3.2.1.2.3 status 0: OK.
    public static let statusOK: UInt64 = 0

    public let version: String
    public let documents: [Document]
    /// `documentErrors` kept as CBOR.
    public let documentErrors: CBOR?
    public let status: UInt64

    public init(documents: [Document], documentErrors: CBOR? = nil, status: UInt64 = statusOK) {
        self.version = Self.currentVersion
        self.documents = documents
        self.documentErrors = documentErrors
        self.status = status
    }

    public init(decoding bytes: [UInt8]) throws(MDocError) {
        let item = try MDocCBOR.decode(bytes, "DeviceResponse")
        version = try MDocCBOR.text(try MDocCBOR.field(item, "version", in: "DeviceResponse"), "version")
        guard version.hasPrefix("1.") else { throw .unsupportedVersion(version) }
        var documents: [Document] = []
        if let list = try MDocCBOR.optionalField(item, "documents", in: "DeviceResponse") {
            for document in try MDocCBOR.array(list, "documents") { documents.append(try Document(item: document)) }
        }
        self.documents = documents
        documentErrors = try MDocCBOR.optionalField(item, "documentErrors", in: "DeviceResponse")?.value
        status = try MDocCBOR.unsigned(try MDocCBOR.field(item, "status", in: "DeviceResponse"), "status")
    }

    public func encoded() -> [UInt8] {
        var count: UInt64 = 2
        if !documents.isEmpty { count += 1 }
        if documentErrors != nil { count += 1 }
        var bytes = CBOR.head(major: 5, argument: count)
        bytes += CBOR.text("version").encoded() + CBOR.text(version).encoded()
        if !documents.isEmpty {
            bytes += CBOR.text("documents").encoded() + CBOR.head(major: 4, argument: UInt64(documents.count))
            for document in documents { bytes += document.encoded() }
        }
        if let documentErrors { bytes += CBOR.text("documentErrors").encoded() + documentErrors.encoded() }
        bytes += CBOR.text("status").encoded() + CBOR.unsigned(status).encoded()
        return bytes
    }
}
