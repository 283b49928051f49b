import CBOR

/// The shape Annex C's two structures share: a two-element array, the type string `"dcapi"`, then a map.
enum AnnexCCBOR {
    static func typedMap(_ bytes: [UInt8], _ what: String,
                         malformed: (String) -> DigitalCredentialsError) throws(DigitalCredentialsError) -> [String: CBOR.Decoded] {
        let item: CBOR.Decoded
        do { item = try CBOR.decode(bytes) } catch { throw malformed("\(what) is not CBOR: \(error)") }
        guard item.majorType == 4, let elements = try? item.array() else {
            throw malformed("\(what) is \(item.kindDescription), not an array")
        }
        guard elements.count == 2 else { throw malformed("\(what) has \(elements.count) elements, expected 2") }
        guard elements[0].majorType == 3, let type = try? elements[0].text() else {
            throw malformed("the type of \(what) is \(elements[0].kindDescription), not a text string")
        }
        guard type == EncryptionInfo.type else { throw .unexpectedType(type) }
        guard elements[1].majorType == 5, let pairs = try? elements[1].map() else {
            throw malformed("the body of \(what) is \(elements[1].kindDescription), not a map")
        }
        var fields: [String: CBOR.Decoded] = [:]
        for (key, value) in pairs {
            // Members this version does not know are left aside; a text key given twice is refused.
            guard key.majorType == 3, let name = try? key.text() else { continue }
            guard fields[name] == nil else { throw malformed("\(what) has \(name) twice") }
            fields[name] = value
        }
        return fields
    }
}
