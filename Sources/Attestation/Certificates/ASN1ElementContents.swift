import SwiftASN1

/// One element read in place by `DERReader` or `KeyDescriptionReader`: what both decode the same way, whatever the
/// encoding rules that found it.
protocol ASN1ElementContents {
    var identifier: ASN1Identifier { get }
    var isConstructed: Bool { get }
    /// The contents octets (X.690 §8.1.1), in place in the received bytes.
    var contents: BorrowedBytes { get }
}

extension ASN1ElementContents {
    /// The contents octets of a primitive encoding.
    func primitive(_ field: @autoclosure () -> String) throws(AttestationError) -> BorrowedBytes {
        guard !isConstructed else { throw .invalidFormat("\(field()) must be primitive") }
        return contents
    }

    /// The contents octets of a primitive encoding that must carry `expected`. The constructed form of a string
    /// type (X.690 §8.7.3, BER only) is refused.
    func primitive(_ expected: ASN1Identifier, _ field: @autoclosure () -> String) throws(AttestationError) -> BorrowedBytes {
        guard identifier == expected else { throw .invalidFormat("\(field()) has tag \(identifier), expected \(expected)") }
        return try primitive(field())
    }

    /// A BOOLEAN of one octet; any non-zero octet is true (X.690 §8.2.2; DER's 0xFF of §11.1 is not required:
    /// real devices encode `deviceLocked` as 0x01).
    func boolean(_ field: @autoclosure () -> String) throws(AttestationError) -> Bool {
        let bytes = try primitive(.boolean, field())
        guard bytes.count == 1, let octet = bytes.first else { throw .invalidFormat("\(field()) is not a one-byte BOOLEAN") }
        return octet != 0
    }

    /// The contents of a primitive OCTET STRING (X.690 §8.7), copied.
    func octetString(_ field: @autoclosure () -> String) throws(AttestationError) -> [UInt8] {
        Array(try primitive(.octetString, field()))
    }
}
