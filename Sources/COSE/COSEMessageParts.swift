import CBOR

/// The four members of a single-signer or single-MAC COSE message — RFC 9052 §4.2 COSE_Sign1 and §6.2 COSE_Mac0:
/// `[protected: bstr .cbor header_map / bstr .size 0, unprotected: header_map, payload: bstr / nil, bstr]`, its CBOR
/// tag optional — read once for both, with the header buckets disjoint (§3).
struct COSEMessageParts {
    let protectedBytes: [UInt8]
    let protected: COSEHeaderMap
    let unprotected: COSEHeaderMap
    let payload: [UInt8]?
    /// The signature (COSE_Sign1) or the tag (COSE_Mac0).
    let last: [UInt8]

    /// Reads `item`, tagged `tag` or untagged; `name` names the structure in errors.
    init(item: CBOR.Decoded, tag expected: UInt64, name: String) throws(COSEError) {
        var array = item
        if item.majorType == 6 {
            let (tag, content) = try Self.mapErrors { () throws(CBORError) in try item.tag() }
            guard tag == expected else { throw .unexpectedTag(tag) }
            array = content
        }
        let elements = try Self.mapErrors { () throws(CBORError) in try array.array() }
        guard elements.count == 4 else {
            throw .malformedStructure("\(name) has \(elements.count) elements, expected 4", offset: array.offset)
        }
        protectedBytes = Array(try Self.mapErrors { () throws(CBORError) in try elements[0].bytes() })
        guard elements[1].majorType == 5 else {
            throw .malformedStructure("unprotected header is \(elements[1].kindDescription), not a map", offset: elements[1].offset)
        }
        unprotected = COSEHeaderMap(try Self.mapErrors { () throws(CBORError) in try elements[1].value.map() })
        payload = elements[2].isNull ? nil : Array(try Self.mapErrors { () throws(CBORError) in try elements[2].bytes() })
        last = Array(try Self.mapErrors { () throws(CBORError) in try elements[3].bytes() })
        protected = try Self.protectedHeader(protectedBytes, offset: elements[0].offset)
        try Self.checkDisjoint(protected, unprotected)
    }

    /// RFC 9052 §3: the protected header is a bstr holding an encoded map, or empty.
    static func protectedHeader(_ bytes: [UInt8], offset: Int?) throws(COSEError) -> COSEHeaderMap {
        guard !bytes.isEmpty else { return COSEHeaderMap() }
        do {
            return COSEHeaderMap(try CBOR.decode(bytes).value.map())
        } catch {
            throw .malformedStructure("protected header is not an encoded map: \(error)", offset: offset)
        }
    }

    /// RFC 9052 §3: a label is in one bucket at most.
    static func checkDisjoint(_ protected: COSEHeaderMap, _ unprotected: COSEHeaderMap) throws(COSEError) {
        for pair in protected.pairs where unprotected[pair.key] != nil {
            throw .duplicateHeaderLabel(pair.key.diagnosticNotation)
        }
    }

    static func mapErrors<T>(_ body: () throws(CBORError) -> T) throws(COSEError) -> T {
        do { return try body() } catch { throw error.asCOSEError }
    }
}
