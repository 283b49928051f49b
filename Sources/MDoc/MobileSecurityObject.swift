import CBOR
import COSE
import Foundation

/// The Mobile Security Object (ISO/IEC 18013-5 §9.1.2.4), the payload the issuer signs in `issuerAuth` as
/// `MobileSecurityObjectBytes = #6.24(bstr .cbor MobileSecurityObject)`.
public struct MobileSecurityObject: Sendable, Hashable {
    /// §9.1.2.4: "1.0".
    public static let currentVersion = "1.0"

    public struct ValidityInfo: Sendable, Hashable {
        public var signed: Date
        public var validFrom: Date
        public var validUntil: Date
        public var expectedUpdate: Date?

        public init(signed: Date, validFrom: Date, validUntil: Date, expectedUpdate: Date? = nil) {
            self.signed = signed
            self.validFrom = validFrom
            self.validUntil = validUntil
            self.expectedUpdate = expectedUpdate
        }
    }

    /// The MSO `status` (ISO/IEC 18013-5 second edition §12.3.6.3; draft-ietf-oauth-status-list §6.3:
    /// `status: {status_list: {idx, uri}}`): where a credential's status is published. The one status reference
    /// type: the issuer writes it, the SDK (`HoldfastSDK.StatusReference`) and the verifier read it.
    ///
    /// Its `Codable` form, `{"index": …, "uri": …}`, is how the SDK stores it: keep it, so that what is stored
    /// still decodes.
    public struct StatusReference: Sendable, Hashable, Codable {
        /// The credential's index in the list (`idx`).
        public var index: UInt64
        /// The status list token's URI (`uri`, also the token's `sub`).
        public var uri: String

        public init(index: UInt64, uri: String) {
            self.index = index
            self.uri = uri
        }
    }

    public var version: String
    public var digestAlgorithm: DigestAlgorithm
    /// namespace → digestID → digest.
    public var valueDigests: [String: [UInt64: [UInt8]]]
    public var deviceKey: COSEKey
    public var docType: String
    public var validityInfo: ValidityInfo
    public var status: StatusReference?

    public init(digestAlgorithm: DigestAlgorithm, valueDigests: [String: [UInt64: [UInt8]]], deviceKey: COSEKey,
                docType: String, validityInfo: ValidityInfo, status: StatusReference? = nil) {
        self.version = Self.currentVersion
        self.digestAlgorithm = digestAlgorithm
        self.valueDigests = valueDigests
        self.deviceKey = deviceKey
        self.docType = docType
        self.validityInfo = validityInfo
        self.status = status
    }

    /// Reads MobileSecurityObjectBytes (tag 24) or a bare MSO map.
    public init(item: CBOR.Decoded) throws(MDocError) {
        let mso = item.majorType == 6 ? try MDocCBOR.embedded(item, "MobileSecurityObjectBytes") : item
        let what = "MobileSecurityObject"
        version = try MDocCBOR.text(try MDocCBOR.field(mso, "version", in: what), "version")
        guard version == Self.currentVersion else { throw .unsupportedVersion(version) }
        let algorithmName = try MDocCBOR.text(try MDocCBOR.field(mso, "digestAlgorithm", in: what), "digestAlgorithm")
        guard let algorithm = DigestAlgorithm(rawValue: algorithmName) else { throw .unsupportedDigestAlgorithm(algorithmName) }
        digestAlgorithm = algorithm
        var digests: [String: [UInt64: [UInt8]]] = [:]
        for (nameSpaceKey, idMap) in try MDocCBOR.map(try MDocCBOR.field(mso, "valueDigests", in: what), "valueDigests") {
            let nameSpace = try MDocCBOR.text(nameSpaceKey, "valueDigests namespace")
            let pairs = try MDocCBOR.map(idMap, "valueDigests[\(nameSpace)]")
            var entries: [UInt64: [UInt8]] = Dictionary(minimumCapacity: pairs.count)
            for (idKey, digest) in pairs {
                let id = try MDocCBOR.unsigned(idKey, "digestID in valueDigests[\(nameSpace)]")
                entries[id] = try MDocCBOR.bytes(digest, "digest \(id) in valueDigests[\(nameSpace)]")
            }
            digests[nameSpace] = entries
        }
        valueDigests = digests
        let deviceKeyInfo = try MDocCBOR.field(mso, "deviceKeyInfo", in: what)
        let keyItem = try MDocCBOR.field(deviceKeyInfo, "deviceKey", in: "deviceKeyInfo")
        do { deviceKey = try COSEKey(item: keyItem) } catch { throw .deviceKeyUnsupported("\(error)") }
        docType = try MDocCBOR.text(try MDocCBOR.field(mso, "docType", in: what), "docType")
        let validity = try MDocCBOR.field(mso, "validityInfo", in: what)
        validityInfo = ValidityInfo(
            signed: try MDocCBOR.tdate(try MDocCBOR.field(validity, "signed", in: "validityInfo"), "validityInfo.signed"),
            validFrom: try MDocCBOR.tdate(try MDocCBOR.field(validity, "validFrom", in: "validityInfo"), "validityInfo.validFrom"),
            validUntil: try MDocCBOR.tdate(try MDocCBOR.field(validity, "validUntil", in: "validityInfo"), "validityInfo.validUntil"),
            expectedUpdate: try MDocCBOR.optionalField(validity, "expectedUpdate", in: "validityInfo").map {
                (item) throws(MDocError) in try MDocCBOR.tdate(item, "validityInfo.expectedUpdate")
            })
        if let statusItem = try MDocCBOR.optionalField(mso, "status", in: what) {
            let list = try MDocCBOR.field(statusItem, "status_list", in: "status")
            status = StatusReference(
                index: try MDocCBOR.unsigned(try MDocCBOR.field(list, "idx", in: "status_list"), "status_list.idx"),
                uri: try MDocCBOR.text(try MDocCBOR.field(list, "uri", in: "status_list"), "status_list.uri"))
        } else {
            status = nil
        }
    }

    /// The MSO as CBOR (§9.1.2.4), namespaces and digestIDs in ascending order.
    public var cbor: CBOR {
        var pairs: [CBOR.Pair] = [
            CBOR.Pair("version", .text(version)),
            CBOR.Pair("digestAlgorithm", .text(digestAlgorithm.rawValue)),
            CBOR.Pair("valueDigests", .map(valueDigests.keys.sorted().map { nameSpace in
                CBOR.Pair(.text(nameSpace), .map(valueDigests[nameSpace]!.keys.sorted().map { id in
                    CBOR.Pair(.unsigned(id), .bytes(valueDigests[nameSpace]![id]!))
                }))
            })),
            CBOR.Pair("deviceKeyInfo", .map([CBOR.Pair("deviceKey", deviceKey.publicKey.cbor)])),
            CBOR.Pair("docType", .text(docType)),
        ]
        var validity: [CBOR.Pair] = [
            CBOR.Pair("signed", MDocDate.tdate(validityInfo.signed)),
            CBOR.Pair("validFrom", MDocDate.tdate(validityInfo.validFrom)),
            CBOR.Pair("validUntil", MDocDate.tdate(validityInfo.validUntil)),
        ]
        if let expectedUpdate = validityInfo.expectedUpdate {
            validity.append(CBOR.Pair("expectedUpdate", MDocDate.tdate(expectedUpdate)))
        }
        pairs.append(CBOR.Pair("validityInfo", .map(validity)))
        if let status {
            pairs.append(CBOR.Pair("status", .map([CBOR.Pair("status_list", .map([
                CBOR.Pair("idx", .unsigned(status.index)), CBOR.Pair("uri", .text(status.uri)),
            ]))])))
        }
        return .map(pairs)
    }

    /// `MobileSecurityObjectBytes`, the issuerAuth payload.
    public var taggedBytes: [UInt8] { CBOR.embeddedEncoding(of: cbor.encoded()) }
}
