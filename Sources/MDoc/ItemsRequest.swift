import CBOR

/// `ItemsRequest = {docType, nameSpaces, ? requestInfo}` (ISO/IEC 18013-5 §8.3.2.1.2.1), with
/// `NameSpaces = {+ NameSpace => DataElements}` and `DataElements = {+ DataElementIdentifier => IntentToRetain}`.
///
/// Namespaces and elements keep the order they were given or received in: the structure is signed (ReaderAuthentication
/// embeds `ItemsRequestBytes`, §9.1.4) and 18013-5 does not ask for a deterministic encoding (Annex D's example is not
/// sorted), so a reader writes what it means to sign and a holder keeps what it received.
public struct ItemsRequest: Sendable, Hashable {
    /// One requested data element and whether the reader intends to retain it (§8.3.2.1.2.1 `IntentToRetain`).
    public struct DataElement: Sendable, Hashable {
        public var identifier: String
        public var intentToRetain: Bool

        public init(_ identifier: String, intentToRetain: Bool = false) {
            self.identifier = identifier
            self.intentToRetain = intentToRetain
        }
    }

    /// The elements requested in one namespace.
    public struct NameSpace: Sendable, Hashable {
        public var name: String
        public var elements: [DataElement]

        public init(_ name: String, elements: [DataElement]) {
            self.name = name
            self.elements = elements
        }
    }

    public var docType: String
    public var nameSpaces: [NameSpace]
    /// `requestInfo` (`{* tstr => any}`), kept as CBOR.
    public var requestInfo: CBOR?

    public init(docType: String, nameSpaces: [NameSpace], requestInfo: CBOR? = nil) {
        self.docType = docType
        self.nameSpaces = nameSpaces
        self.requestInfo = requestInfo
    }

    public init(decoding bytes: [UInt8]) throws(MDocError) {
        try self.init(item: try MDocCBOR.decode(bytes, "ItemsRequest"))
    }

    init(item: CBOR.Decoded) throws(MDocError) {
        docType = try MDocCBOR.text(try MDocCBOR.field(item, "docType", in: "ItemsRequest"), "ItemsRequest docType")
        var nameSpaces: [NameSpace] = []
        let map = try MDocCBOR.map(try MDocCBOR.field(item, "nameSpaces", in: "ItemsRequest"), "ItemsRequest nameSpaces")
        for (key, value) in map {
            let name = try MDocCBOR.text(key, "a NameSpace of ItemsRequest")
            guard !nameSpaces.contains(where: { $0.name == name }) else { throw .malformed("ItemsRequest names \(name) twice") }
            var elements: [DataElement] = []
            for (elementKey, intent) in try MDocCBOR.map(value, "DataElements of \(name)") {
                let identifier = try MDocCBOR.text(elementKey, "a DataElementIdentifier of \(name)")
                guard !elements.contains(where: { $0.identifier == identifier }) else {
                    throw .malformed("ItemsRequest asks for \(name)/\(identifier) twice")
                }
                guard case .bool(let retain) = intent.value else {
                    throw .malformed("IntentToRetain of \(name)/\(identifier) is \(intent.kindDescription), not a bool")
                }
                elements.append(DataElement(identifier, intentToRetain: retain))
            }
            guard !elements.isEmpty else { throw .malformed("ItemsRequest asks for no element of \(name)") }
            nameSpaces.append(NameSpace(name, elements: elements))
        }
        guard !nameSpaces.isEmpty else { throw .malformed("ItemsRequest has no namespace") }
        self.nameSpaces = nameSpaces
        requestInfo = try MDocCBOR.optionalField(item, "requestInfo", in: "ItemsRequest")?.value
    }

    /// The structure, namespaces and elements in their order.
    public var cbor: CBOR {
        var pairs: [CBOR.Pair] = [
            .init("docType", .text(docType)),
            .init("nameSpaces", .map(nameSpaces.map { nameSpace in
                CBOR.Pair(.text(nameSpace.name), .map(nameSpace.elements.map { CBOR.Pair(.text($0.identifier), .bool($0.intentToRetain)) }))
            })),
        ]
        if let requestInfo { pairs.append(.init("requestInfo", requestInfo)) }
        return .map(pairs)
    }

    public func encoded() -> [UInt8] { cbor.encoded() }

    /// `ItemsRequestBytes = #6.24(bstr .cbor ItemsRequest)`.
    public func taggedBytes() -> [UInt8] { CBOR.embeddedEncoding(of: encoded()) }
}
