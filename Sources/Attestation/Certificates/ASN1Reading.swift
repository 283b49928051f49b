import SwiftASN1

/// Small, bounded readers over swift-asn1 nodes (X.690). They never trap: every malformed shape becomes
/// `AttestationError.invalidFormat` naming the field.
enum ASN1Reading {
    /// The child nodes of a constructed node (SEQUENCE, SET, explicit tag).
    static func children(_ node: ASN1Node, _ field: @autoclosure () -> String) throws(AttestationError) -> [ASN1Node] {
        guard case .constructed(let collection) = node.content else {
            throw .invalidFormat("\(field()) must be constructed")
        }
        var nodes: [ASN1Node] = []
        for child in collection {
            nodes.append(child)
            if nodes.count > 4096 { throw .invalidFormat("\(field()) has too many elements") }
        }
        return nodes
    }

    /// The children of a node that must carry `identifier`.
    static func children(_ node: ASN1Node, _ identifier: ASN1Identifier, _ field: @autoclosure () -> String) throws(AttestationError) -> [ASN1Node] {
        guard node.identifier == identifier else { throw .invalidFormat("\(field()) has tag \(node.identifier), expected \(identifier)") }
        return try children(node, field())
    }

    /// The content bytes of a primitive node.
    static func primitive(_ node: ASN1Node, _ field: @autoclosure () -> String) throws(AttestationError) -> ArraySlice<UInt8> {
        guard case .primitive(let bytes) = node.content else { throw .invalidFormat("\(field()) must be primitive") }
        return bytes
    }

    static func primitive(_ node: ASN1Node, _ identifier: ASN1Identifier, _ field: @autoclosure () -> String) throws(AttestationError) -> ArraySlice<UInt8> {
        guard node.identifier == identifier else { throw .invalidFormat("\(field()) has tag \(node.identifier), expected \(identifier)") }
        return try primitive(node, field())
    }

    /// An INTEGER or ENUMERATED that fits in 64 bits (two's complement, X.690 §8.3).
    static func integer(_ node: ASN1Node, _ field: @autoclosure () -> String) throws(AttestationError) -> Int64 {
        let bytes = try primitive(node, field())
        guard !bytes.isEmpty else { throw .invalidFormat("\(field()) is an empty integer") }
        var significant = bytes
        // A positive value may carry one leading 0x00 beyond 8 bytes (e.g. 2^63 … 2^64-1 is out of range anyway).
        while significant.count > 1, significant.first == 0, (significant[significant.startIndex + 1] & 0x80) == 0 {
            significant = significant.dropFirst()
        }
        guard significant.count <= 8 else { throw .invalidFormat("\(field()) does not fit in 64 bits") }
        var value: Int64 = (significant.first ?? 0) & 0x80 != 0 ? -1 : 0
        for byte in significant { value = (value << 8) | Int64(byte) }
        return value
    }

    /// A BOOLEAN; any non-zero content is true (X.690 §8.2.2 BER), because real devices encode `deviceLocked` as 0x01.
    static func boolean(_ node: ASN1Node, _ field: @autoclosure () -> String) throws(AttestationError) -> Bool {
        let bytes = try primitive(node, .boolean, field())
        guard bytes.count == 1, let byte = bytes.first else { throw .invalidFormat("\(field()) is not a one-byte BOOLEAN") }
        return byte != 0
    }

    static func octetString(_ node: ASN1Node, _ field: @autoclosure () -> String) throws(AttestationError) -> [UInt8] {
        Array(try primitive(node, .octetString, field()))
    }

    static func objectIdentifier(_ node: ASN1Node, _ field: @autoclosure () -> String) throws(AttestationError) -> ASN1ObjectIdentifier {
        do { return try ASN1ObjectIdentifier(derEncoded: node) } catch { throw .invalidFormat("\(field()) is not an OBJECT IDENTIFIER") }
    }

    /// The bits of a BIT STRING whose unused-bit count is 0 (keys and signatures).
    static func bitStringBytes(_ node: ASN1Node, _ field: @autoclosure () -> String) throws(AttestationError) -> [UInt8] {
        let bytes = try primitive(node, .bitString, field())
        guard let unused = bytes.first, unused == 0 else { throw .invalidFormat("\(field()) is not a whole-byte BIT STRING") }
        return Array(bytes.dropFirst())
    }

    /// Parses DER, mapping swift-asn1's errors to ours.
    static func parseDER(_ bytes: ArraySlice<UInt8>, _ field: @autoclosure () -> String) throws(AttestationError) -> ASN1Node {
        do { return try DER.parse(bytes) } catch { throw .invalidFormat("\(field()) is not valid DER") }
    }

    /// Parses BER (a superset of DER), for structures devices are known to encode loosely.
    static func parseBER(_ bytes: ArraySlice<UInt8>, _ field: @autoclosure () -> String) throws(AttestationError) -> ASN1Node {
        do { return try BER.parse(bytes) } catch { throw .invalidFormat("\(field()) is not valid BER") }
    }

    static func contextTag(_ number: UInt) -> ASN1Identifier {
        ASN1Identifier(tagWithNumber: number, tagClass: .contextSpecific)
    }
}
