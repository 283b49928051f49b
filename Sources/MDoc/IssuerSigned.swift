import CBOR
import COSE

/// `IssuerSigned = {? nameSpaces: IssuerNameSpaces, issuerAuth: COSE_Sign1}` (ISO/IEC 18013-5 §8.3.2.1.2.2): the
/// disclosed items of each namespace and the issuer's signature over the MSO. What OpenID4VCI 1.0 Appendix A.2.4
/// delivers (base64url) as an `mso_mdoc` credential.
public struct IssuerSigned: Sendable, Hashable {
    /// One namespace's disclosed items, in the order received.
    public struct NameSpace: Sendable, Hashable {
        public let name: String
        public let items: [IssuerSignedItem]

        public init(name: String, items: [IssuerSignedItem]) {
            self.name = name
            self.items = items
        }
    }

    public let nameSpaces: [NameSpace]
    public let issuerAuth: COSESign1
    /// The MSO decoded from `issuerAuth`'s payload.
    public let mso: MobileSecurityObject

    public init(nameSpaces: [NameSpace], issuerAuth: COSESign1) throws(MDocError) {
        self.nameSpaces = nameSpaces
        self.issuerAuth = issuerAuth
        self.mso = try Self.mso(of: issuerAuth)
    }

    /// Reads an encoded IssuerSigned.
    public init(decoding bytes: [UInt8]) throws(MDocError) {
        try self.init(item: try MDocCBOR.decode(bytes, "IssuerSigned"))
    }

    public init(item: CBOR.Decoded) throws(MDocError) {
        var spaces: [NameSpace] = []
        if let nameSpacesItem = try MDocCBOR.optionalField(item, "nameSpaces", in: "IssuerSigned") {
            for (key, value) in try MDocCBOR.map(nameSpacesItem, "nameSpaces") {
                let name = try MDocCBOR.text(key, "namespace")
                var items: [IssuerSignedItem] = []
                for element in try MDocCBOR.array(value, "nameSpaces[\(name)]") {
                    items.append(try IssuerSignedItem(item: element))
                }
                spaces.append(NameSpace(name: name, items: items))
            }
        }
        let authItem = try MDocCBOR.field(item, "issuerAuth", in: "IssuerSigned")
        let auth: COSESign1
        do { auth = try COSESign1(item: authItem) } catch { throw .malformed("issuerAuth: \(error)") }
        try self.init(nameSpaces: spaces, issuerAuth: auth)
    }

    private static func mso(of issuerAuth: COSESign1) throws(MDocError) -> MobileSecurityObject {
        guard let payload = issuerAuth.payload else { throw .malformed("issuerAuth has a detached payload") }
        return try MobileSecurityObject(item: try MDocCBOR.decode(payload, "MobileSecurityObjectBytes"))
    }

    /// The items of `nameSpace` (empty when none is disclosed).
    public func items(in nameSpace: String) -> [IssuerSignedItem] {
        nameSpaces.first { $0.name == nameSpace }?.items ?? []
    }

    /// The value of one element, if disclosed.
    public func value(_ elementIdentifier: String, in nameSpace: String) -> CBOR? {
        items(in: nameSpace).first { $0.elementIdentifier == elementIdentifier }?.elementValue
    }

    /// Only the named elements (selective disclosure, §8.3.2.1.2.2): the issuer's item bytes are kept as they are.
    public func disclosing(_ elements: [String: Set<String>]) -> IssuerSigned {
        let kept = nameSpaces.compactMap { space -> NameSpace? in
            guard let wanted = elements[space.name] else { return nil }
            let items = space.items.filter { wanted.contains($0.elementIdentifier) }
            return items.isEmpty ? nil : NameSpace(name: space.name, items: items)
        }
        return IssuerSigned(unchecked: kept, issuerAuth: issuerAuth, mso: mso)
    }

    private init(unchecked nameSpaces: [NameSpace], issuerAuth: COSESign1, mso: MobileSecurityObject) {
        self.nameSpaces = nameSpaces
        self.issuerAuth = issuerAuth
        self.mso = mso
    }

    /// The encoding, every item with its kept bytes and issuerAuth untagged (§8.3.2.1.2.2 uses COSE_Sign1 untagged).
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        let count: UInt64 = nameSpaces.isEmpty ? 1 : 2
        bytes += CBOR.head(major: 5, argument: count)
        if !nameSpaces.isEmpty {
            bytes += CBOR.text("nameSpaces").encoded()
            bytes += CBOR.head(major: 5, argument: UInt64(nameSpaces.count))
            for space in nameSpaces {
                bytes += CBOR.text(space.name).encoded()
                bytes += CBOR.head(major: 4, argument: UInt64(space.items.count))
                for item in space.items { bytes += item.taggedBytes }
            }
        }
        bytes += CBOR.text("issuerAuth").encoded()
        bytes += issuerAuth.cbor(tagged: false).encoded()
        return bytes
    }
}
