@testable import Attestation
import Foundation
import SwiftASN1
import TestSupport
import Testing

/// `KeyDescriptionReader` — the direct BER reader of the Android KeyDescription extension (X.690 §8; schema on
/// source.android.com "Key and ID attestation") — against the swift-asn1 `BER.parse` tree it replaced.
@Suite struct KeyDescriptionReaderTests {
    // MARK: Every real vector

    @Test func everyAndroidVectorParsesAsTheBERTreeParsedIt() throws {
        var parsed = 0
        for vector in try AndroidVector.all() {
            guard let chain = try? vector.chain(), let value = chain.first?.extension(KeyDescription.extensionOID)?.value else {
                continue
            }
            Self.expectAgreement(value, exact: true, vector.file)
            if case .success = Self.outcome(value) { parsed += 1 }
        }
        // 38 chains; only p256_sha384_intermediate.pem carries a value that is not a KeyDescription (04 04 04 02 05 00).
        #expect(parsed >= 35)
    }

    // MARK: Hostile input

    static let mutatedVectors = [
        "android-keyattestation/testdata/caiman/sdk36/TEE_EC_RKP.pem",                 // KeyMint 400, tags up to 724
        "android-keyattestation/testdata/invalid/malformed_rot_device_locked.pem",    // BOOLEAN 0x01
        "android-keyattestation/testdata/allow_while_on_body.pem",                    // tags this type does not decode
    ]

    static func extensionValue(_ file: String) throws -> [UInt8] {
        let leaf = try AndroidVector.named(file).chain()[0]
        return try #require(leaf.extension(KeyDescription.extensionOID)?.value)
    }

    /// Truncations at every length and single-octet changes at every position. One change cannot nest anything past
    /// the depth bound, so here the two parsers must agree exactly: same value, or both refuse.
    @Test(arguments: KeyDescriptionReaderTests.mutatedVectors)
    func truncationsAndSingleOctetChangesAgreeWithTheBERTree(_ file: String) throws {
        let value = try Self.extensionValue(file)
        #expect(try KeyDescription(extensionValue: value) == ReferenceKeyDescription.parse(value))
        for length in 0..<value.count {
            Self.expectAgreement(Array(value.prefix(length)), exact: true, "prefix \(length)")
        }
        for index in value.indices {
            for mask: UInt8 in [0x01, 0x20, 0x80, 0xFF] {
                var mutated = value
                mutated[index] ^= mask
                Self.expectAgreement(mutated, exact: true, "octet \(index) ^ \(mask)")
            }
        }
    }

    /// Random octets written over, inserted into and cut out of a real value, and wholly random input: never a
    /// crash; whatever the BER tree refused is refused; whatever both accept is the same KeyDescription.
    @Test(arguments: KeyDescriptionReaderTests.mutatedVectors)
    func randomMutationsNeverCrashAndNeverAcceptWhatTheBERTreeRefused(_ file: String) throws {
        let value = try Self.extensionValue(file)
        var random = SplitMix64(seed: UInt64(value.count) &* 0x9E37_79B9)
        for round in 0..<1500 {
            var mutated = value
            for _ in 0..<(1 + round % 6) {
                let index = Int.random(in: 0..<mutated.count, using: &random)
                switch round % 3 {
                case 0: mutated[index] = UInt8.random(in: 0...255, using: &random)
                case 1: mutated.insert(UInt8.random(in: 0...255, using: &random), at: index)
                default: if mutated.count > 1 { mutated.remove(at: index) }
                }
            }
            Self.expectAgreement(mutated, exact: false, "round \(round)")
        }
        for round in 0..<500 {
            var bytes = (0..<Int.random(in: 0...48, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            if round % 2 == 0 { bytes = [0x30, UInt8(bytes.count)] + bytes }
            Self.expectAgreement(bytes, exact: false, "random \(round)")
        }
    }

    // MARK: Specific rules

    @Test func syntheticKeyDescriptionDecodesEveryField() throws {
        let description = try KeyDescription(extensionValue: keyDescription())
        #expect(description.attestationVersion == 300)
        #expect(description.attestationSecurityLevel == .trustedEnvironment)
        #expect(description.keyMintVersion == 300)
        #expect(description.keyMintSecurityLevel == .strongBox)
        #expect(description.attestationChallenge == Array("challenge".utf8))
        #expect(description.uniqueId.isEmpty)
        #expect(description.softwareEnforced.creationDateTime == 1_700_000_000_000)
        let package = AttestationApplicationId.PackageInfo(name: "com.example.app", version: 7)
        #expect(description.attestationApplicationId?.packageInfos == [package])
        #expect(description.attestationApplicationId?.signatureDigests == [[UInt8](repeating: 0xAB, count: 32)])
        #expect(description.softwareEnforced.tags == [701, 709, 600])
        #expect(description.hardwareEnforced.purposes == [2, 3])
        #expect(description.hardwareEnforced.noAuthRequired)
        #expect(description.hardwareEnforced.osPatchLevel == 202_511)
        #expect(description.hardwareEnforced.tags == [1, 503, 704, 706])
        #expect(description.rootOfTrust == RootOfTrust(verifiedBootKey: [UInt8](repeating: 7, count: 32), deviceLocked: true,
                                                        verifiedBootState: .verified,
                                                        verifiedBootHash: [UInt8](repeating: 9, count: 32)))
        #expect(try description == ReferenceKeyDescription.parse(keyDescription()))
    }

    @Test func lengthRunningPastTheEndIsRejected() {
        // The outer SEQUENCE claims one octet more than there is (30 82 hh ll).
        let fields = keyDescriptionFields()
        let outer: [UInt8] = [0x30, 0x82, UInt8((fields.count + 1) >> 8), UInt8((fields.count + 1) & 0xFF)] + fields
        Self.expectRejected(outer, mentioning: "KeyDescription has a length beyond the end")
        // The challenge claims 4096 octets, and 4 GiB, inside a SEQUENCE that ends first.
        Self.expectRejected(keyDescription(challenge: [0x04, 0x82, 0x10, 0x00] + Array("challenge".utf8)),
                            mentioning: "KeyDescription has a length beyond the end")
        Self.expectRejected(keyDescription(challenge: [0x04, 0x84, 0xFF, 0xFF, 0xFF, 0xFF]),
                            mentioning: "KeyDescription has a length beyond the end")
        // verifiedBootHash claims 33 octets where its SEQUENCE holds 32, although more bytes follow the SEQUENCE.
        let overlong = sequence(octetString([1]), boolean(0xFF), enumerated(0), [0x04, 0x21] + [UInt8](repeating: 9, count: 32))
        Self.expectRejected(keyDescription(hardware: [explicit(704, overlong), explicit(706, integer([1]))]),
                            mentioning: "rootOfTrust has a length beyond the end")
    }

    @Test func highTagNumberInNonMinimalFormIsRejected() {
        // [709] is BF 85 45; BF 80 85 45 pads it with a zero septet (X.690 §8.1.2.4.2 c).
        let padded = keyDescription(software: [tlv([0xBF, 0x80, 0x85, 0x45], octetString(applicationId))])
        Self.expectRejected(padded, mentioning: "softwareEnforced has a tag number with a leading zero")
        // [2] in the high-tag-number form: numbers 0…30 have only the one-octet form (X.690 §8.1.2.2).
        let smallNumber = keyDescription(hardware: [tlv([0xBF, 0x02], integer([3]))])
        Self.expectRejected(smallNumber, mentioning: "hardwareEnforced has tag number 2 in the long form")
        // Ten septets overflow 63 bits.
        let huge = keyDescription(hardware: [tlv([0xBF] + [UInt8](repeating: 0xFF, count: 9) + [0x7F], integer([3]))])
        Self.expectRejected(huge, mentioning: "hardwareEnforced has a tag number that is too large")
    }

    @Test func explicitTagHoldingTwoValuesIsRejected() {
        Self.expectRejected(keyDescription(hardware: [explicit(702, integer([0]) + integer([1]))]),
                            mentioning: "hardwareEnforced[702] must hold one value")
        Self.expectRejected(keyDescription(hardware: [explicit(702, [])]), mentioning: "hardwareEnforced[702] must hold one value")
        // A tag this type does not decode follows the same rule: it is skipped only when well formed.
        Self.expectRejected(keyDescription(hardware: [explicit(600, integer([0]) + integer([1]))]),
                            mentioning: "hardwareEnforced[600] must hold one value")
    }

    @Test func explicitTagMustBeConstructedAndContextSpecific() {
        // [702] IMPLICIT INTEGER: 9F 85 3E 01 00.
        Self.expectRejected(keyDescription(hardware: [tlv([0x9F, 0x85, 0x3E], [0x00])]),
                            mentioning: "hardwareEnforced[702] must be constructed")
        Self.expectRejected(keyDescription(hardware: [integer([1])]), mentioning: "hardwareEnforced holds an untagged element")
    }

    @Test func nestingDeeperThanTheBoundIsRejected() throws {
        // KeyDescription (level 1) › softwareEnforced (2) › [600] (3) › `levels` nested SEQUENCEs (4 … 3 + levels).
        func nested(_ levels: Int) -> [UInt8] {
            var value = sequence()
            for _ in 1..<levels { value = sequence(value) }
            return keyDescription(software: [explicit(600, value)])
        }
        let deepest = nested(KeyDescriptionReader.maximumDepth - 3)
        #expect(try KeyDescription(extensionValue: deepest).softwareEnforced.tags == [600])
        // BER.parse allowed 50 levels: here the reader is deliberately stricter.
        Self.expectRejected(nested(KeyDescriptionReader.maximumDepth - 2), mentioning: "nests deeper than 16 levels",
                            referenceAlsoRejects: false)
    }

    @Test func integerOfNineOctetsIsRejected() throws {
        Self.expectRejected(keyDescription(version: integer([0x01] + [UInt8](repeating: 0, count: 8))),
                            mentioning: "attestationVersion does not fit in 64 bits")
        Self.expectRejected(keyDescription(version: integer([0x00, 0x80] + [UInt8](repeating: 0, count: 7))),  // 2^63
                            mentioning: "attestationVersion does not fit in 64 bits")
        Self.expectRejected(keyDescription(version: integer([])), mentioning: "attestationVersion is an empty integer")
        // Redundant leading zero octets were tolerated and still are; negative values are two's complement.
        let padded = keyDescription(version: integer([0x00, 0x00, 0x7F] + [UInt8](repeating: 0xFF, count: 7)))
        #expect(try KeyDescription(extensionValue: padded).attestationVersion == Int64.max)
        #expect(try KeyDescription(extensionValue: keyDescription(version: integer([0xFF, 0x38]))).attestationVersion == -200)
        // INTEGER and ENUMERATED are both read as integers, as before: the tag is not checked.
        #expect(try KeyDescription(extensionValue: keyDescription(version: enumerated(100))).attestationVersion == 100)
    }

    @Test func unknownSecurityLevelAndBootStateAreRejected() {
        Self.expectRejected(keyDescription(keyMintLevel: enumerated(3)), mentioning: "keyMintSecurityLevel 3 is unknown")
        let failedBoot = sequence(octetString([1]), boolean(0), enumerated(4))
        Self.expectRejected(keyDescription(hardware: [explicit(704, failedBoot)]), mentioning: "verifiedBootState 4 is unknown")
    }

    @Test func fieldsOfTheWrongTypeAreRejected() {
        Self.expectRejected(keyDescription(challenge: integer([1])), mentioning: "attestationChallenge has tag")
        Self.expectRejected(keyDescription(hardware: [explicit(1, sequence(integer([2])))]), mentioning: "hardwareEnforced[1] has tag")
        let twoOctetBoolean = sequence(octetString([1]), tlv([0x01], [0xFF, 0xFF]), enumerated(0))
        Self.expectRejected(keyDescription(hardware: [explicit(704, twoOctetBoolean)]), mentioning: "deviceLocked is not a one-byte BOOLEAN")
        // An OCTET STRING in the constructed form (X.690 §8.7.3, BER only) was refused and still is.
        Self.expectRejected(keyDescription(challenge: tlv([0x24], sampleChallenge)), mentioning: "attestationChallenge must be primitive")
        let seven = sequence(integer([0x01, 0x2C]), enumerated(1), integer([0x01, 0x2C]), enumerated(2), sampleChallenge,
                             octetString([]), sequence())
        Self.expectRejected(seven, mentioning: "KeyDescription has 7 fields, expected 8")
        Self.expectRejected(keyDescription(software: [explicit(709, octetString(sequence()))]),
                            mentioning: "attestationApplicationId must have 2 fields")
        Self.expectRejected(keyDescription(software: [explicit(709, octetString(applicationId + [0x05, 0x00]))]),
                            mentioning: "attestationApplicationId has bytes after its end")
    }

    @Test func looseBEREncodingsThatDevicesUseAreAccepted() throws {
        let strict = try KeyDescription(extensionValue: keyDescription())
        // Indefinite lengths (X.690 §8.1.3.6) for the outer SEQUENCE and for an explicit tag.
        let indefinite: [UInt8] = [0x30, 0x80] + keyDescriptionFields() + [0x00, 0x00]
        let indefiniteTag = keyDescription(hardware: Array(hardwareItems.dropLast())
                                               + [[0xBF, 0x85, 0x42, 0x80] + integer([0x03, 0x17, 0x0F]) + [0x00, 0x00]])
        // Long-form lengths that are not minimal (a sender's option in BER, X.690 §8.1.3.3 and §8.1.3.5 Note 2; not in DER, §10.1).
        let longForm = keyDescription(challenge: [0x04, 0x81, 0x09] + Array("challenge".utf8))
        let eightOctets = keyDescription(challenge: [0x04, 0x88, 0, 0, 0, 0, 0, 0, 0, 0x09] + Array("challenge".utf8))
        for bytes in [indefinite, indefiniteTag, longForm, eightOctets] {
            #expect(try KeyDescription(extensionValue: bytes) == strict)
            #expect(try ReferenceKeyDescription.parse(bytes) == strict)
        }
        // Any non-zero BOOLEAN octet is true (X.690 §8.2.2).
        let looseBoolean = sequence(octetString([1]), boolean(0x01), enumerated(0))
        let loose = try KeyDescription(extensionValue: keyDescription(hardware: [explicit(704, looseBoolean)]))
        #expect(loose.rootOfTrust?.deviceLocked == true)
    }

    @Test func malformedBERIsRejectedWhereverItIs() {
        Self.expectRejected(keyDescription(challenge: [0x04, 0x80, 0x01, 0x00, 0x00]), mentioning: "primitive with an indefinite length")
        Self.expectRejected([0x30, 0x80] + keyDescriptionFields(), mentioning: "KeyDescription is truncated")  // no end-of-contents
        Self.expectRejected(keyDescription(challenge: [0x04, 0x89] + [UInt8](repeating: 0, count: 9)), mentioning: "9 length octets")
        Self.expectRejected(keyDescription() + [0x05, 0x00], mentioning: "KeyDescription has bytes after its end")
        Self.expectRejected(keyDescription(challenge: [0x00, 0x01, 0x00]), mentioning: "end-of-contents octets where an element belongs")
        Self.expectRejected([], mentioning: "KeyDescription is empty")
        // Malformed bytes inside a tag that is not decoded, and inside a ninth field that is ignored.
        Self.expectRejected(keyDescription(software: [explicit(600, sequence([0x02, 0x05, 0x01]))]),
                            mentioning: "softwareEnforced[600] has a length beyond the end")
        Self.expectRejected(tlv([0x30], keyDescriptionFields() + sequence([0x04, 0x02])),
                            mentioning: "KeyDescription has a length beyond the end")
        // A well-formed ninth field is ignored, as before.
        #expect(Self.outcome(tlv([0x30], keyDescriptionFields() + integer([9]))) == Self.outcome(keyDescription()))
    }

    @Test func moreThan4096ElementsAreRejected() throws {
        func purposes(_ count: Int) -> [UInt8] {
            keyDescription(hardware: [explicit(1, tlv([0x31], Array(repeating: integer([2]), count: count).flatMap { $0 }))])
        }
        #expect(try KeyDescription(extensionValue: purposes(4096)).hardwareEnforced.purposes.count == 4096)
        Self.expectRejected(purposes(4097), mentioning: "hardwareEnforced[1] has too many elements")
    }

    // MARK: Helpers

    static func outcome(_ bytes: [UInt8]) -> Result<KeyDescription, AttestationError> {
        do throws(AttestationError) {
            return .success(try KeyDescription(extensionValue: bytes))
        } catch {
            return .failure(error)
        }
    }

    /// `exact`: the reader must also accept everything the BER tree accepted (it may only refuse more when nesting
    /// passes its bound or a structure holds more than 4096 elements, which the callers rule out).
    static func expectAgreement(_ bytes: [UInt8], exact: Bool, _ label: @autoclosure () -> String,
                                sourceLocation: SourceLocation = #_sourceLocation) {
        switch (ReferenceKeyDescription.outcome(bytes), outcome(bytes)) {
        case (.failure, .success):
            Issue.record("accepted what the BER tree refused: \(label()) \(hexString(bytes))", sourceLocation: sourceLocation)
        case (.success(let reference), .success(let parsed)):
            if reference != parsed { Issue.record("parsed differently: \(label()) \(hexString(bytes))", sourceLocation: sourceLocation) }
        case (.success, .failure(let error)):
            if exact { Issue.record("refused what the BER tree accepted: \(label()) \(error)", sourceLocation: sourceLocation) }
        case (.failure, .failure):
            break
        }
    }

    static func expectRejected(_ bytes: [UInt8], mentioning detail: String, referenceAlsoRejects: Bool = true,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        switch outcome(bytes) {
        case .success:
            Issue.record("accepted; expected a failure mentioning \"\(detail)\"", sourceLocation: sourceLocation)
        case .failure(let error):
            guard case .invalidFormat(let message) = error, message.contains(detail) else {
                Issue.record("\(error) does not mention \"\(detail)\"", sourceLocation: sourceLocation)
                return
            }
        }
        if case .success = ReferenceKeyDescription.outcome(bytes), referenceAlsoRejects {
            Issue.record("the BER tree accepted it", sourceLocation: sourceLocation)
        }
    }
}

// MARK: - Synthetic KeyDescriptions

// DER (X.690 §8) for KeyDescriptions built field by field (schema on source.android.com), so that each test can put
// one malformed piece in place of a field.

fileprivate func tlv(_ identifier: [UInt8], _ contents: [UInt8]) -> [UInt8] {
    var length: [UInt8] = []
    if contents.count < 0x80 {
        length = [UInt8(contents.count)]
    } else {
        var rest = contents.count
        while rest > 0 { length.insert(UInt8(rest & 0xFF), at: 0); rest >>= 8 }
        length.insert(0x80 | UInt8(length.count), at: 0)
    }
    return identifier + length + contents
}

fileprivate func integer(_ contents: [UInt8]) -> [UInt8] { tlv([0x02], contents) }
fileprivate func enumerated(_ value: UInt8) -> [UInt8] { tlv([0x0A], [value]) }
fileprivate func boolean(_ octet: UInt8) -> [UInt8] { tlv([0x01], [octet]) }
fileprivate func octetString(_ contents: [UInt8]) -> [UInt8] { tlv([0x04], contents) }
fileprivate func sequence(_ parts: [UInt8]...) -> [UInt8] { tlv([0x30], parts.flatMap { $0 }) }
fileprivate func setOf(_ parts: [UInt8]...) -> [UInt8] { tlv([0x31], parts.flatMap { $0 }) }

/// `[number] EXPLICIT`: context-specific, constructed, numbers from 31 up in base 128 (X.690 §8.1.2.4).
fileprivate func explicit(_ number: UInt, _ value: [UInt8]) -> [UInt8] {
    guard number >= 31 else { return tlv([0xA0 | UInt8(number)], value) }
    var septets: [UInt8] = [UInt8(number & 0x7F)]
    var rest = number >> 7
    while rest > 0 { septets.insert(0x80 | UInt8(rest & 0x7F), at: 0); rest >>= 7 }
    return tlv([0xBF] + septets, value)
}

fileprivate let sampleChallenge = octetString(Array("challenge".utf8))

fileprivate let applicationId = sequence(setOf(sequence(octetString(Array("com.example.app".utf8)), integer([7]))),
                                         setOf(octetString([UInt8](repeating: 0xAB, count: 32))))

fileprivate let rootOfTrust = sequence(octetString([UInt8](repeating: 7, count: 32)), boolean(0xFF), enumerated(0),
                                       octetString([UInt8](repeating: 9, count: 32)))

fileprivate let softwareItems: [[UInt8]] = [
    explicit(701, integer([0x01, 0x8B, 0xCF, 0xE5, 0x68, 0x00])),  // 1 700 000 000 000 ms
    explicit(709, octetString(applicationId)),
    explicit(600, sequence(integer([1]))),                          // not decoded: skipped, recorded in `tags`
]

fileprivate let hardwareItems: [[UInt8]] = [
    explicit(1, setOf(integer([2]), integer([3]))),
    explicit(503, [0x05, 0x00]),
    explicit(704, rootOfTrust),
    explicit(706, integer([0x03, 0x17, 0x0F])),                     // 202511
]

/// The eight fields of a KeyDescription, each replaceable.
fileprivate func keyDescriptionFields(version: [UInt8] = integer([0x01, 0x2C]), keyMintLevel: [UInt8] = enumerated(2),
                                      challenge: [UInt8] = sampleChallenge, software: [[UInt8]] = softwareItems,
                                      hardware: [[UInt8]] = hardwareItems) -> [UInt8] {
    let fields: [[UInt8]] = [version, enumerated(1), integer([0x01, 0x2C]), keyMintLevel, challenge, octetString([]),
                             tlv([0x30], software.flatMap { $0 }), tlv([0x30], hardware.flatMap { $0 })]
    return fields.flatMap { $0 }
}

fileprivate func keyDescription(version: [UInt8] = integer([0x01, 0x2C]), keyMintLevel: [UInt8] = enumerated(2),
                                challenge: [UInt8] = sampleChallenge, software: [[UInt8]] = softwareItems,
                                hardware: [[UInt8]] = hardwareItems) -> [UInt8] {
    tlv([0x30], keyDescriptionFields(version: version, keyMintLevel: keyMintLevel, challenge: challenge,
                                     software: software, hardware: hardware))
}


/// The KeyDescription parser as it was before `KeyDescriptionReader`: swift-asn1's `BER.parse` tree, read through
/// `ASN1Reading`. Kept here only as the independent reference the reader is compared with.
enum ReferenceKeyDescription {
    static func outcome(_ bytes: [UInt8]) -> Result<KeyDescription, AttestationError> {
        do {
            return .success(try parse(bytes))
        } catch let error as AttestationError {
            return .failure(error)
        } catch {
            Issue.record("untyped error \(error)")
            return .failure(.invalidFormat("untyped"))
        }
    }

    static func parse(_ bytes: [UInt8]) throws -> KeyDescription {
        let root = try ASN1Reading.parseBER(bytes[...], "KeyDescription")
        let fields = try ASN1Reading.children(root, .sequence, "KeyDescription")
        guard fields.count >= 8 else { throw AttestationError.invalidFormat("KeyDescription has \(fields.count) fields, expected 8") }
        return KeyDescription(
            attestationVersion: try ASN1Reading.integer(fields[0], "attestationVersion"),
            attestationSecurityLevel: try securityLevel(fields[1], "attestationSecurityLevel"),
            keyMintVersion: try ASN1Reading.integer(fields[2], "keyMintVersion"),
            keyMintSecurityLevel: try securityLevel(fields[3], "keyMintSecurityLevel"),
            attestationChallenge: try ASN1Reading.octetString(fields[4], "attestationChallenge"),
            uniqueId: try ASN1Reading.octetString(fields[5], "uniqueId"),
            softwareEnforced: try authorizationList(fields[6], "softwareEnforced"),
            hardwareEnforced: try authorizationList(fields[7], "hardwareEnforced"))
    }

    static func securityLevel(_ node: ASN1Node, _ field: String) throws -> AndroidSecurityLevel {
        let value = try ASN1Reading.integer(node, field)
        guard let level = AndroidSecurityLevel(rawValue: Int(value)) else {
            throw AttestationError.invalidFormat("\(field) \(value) is unknown")
        }
        return level
    }

    static func authorizationList(_ node: ASN1Node, _ field: String) throws -> AuthorizationList {
        var list = AuthorizationList()
        for item in try ASN1Reading.children(node, .sequence, field) {
            guard item.identifier.tagClass == .contextSpecific else {
                throw AttestationError.invalidFormat("\(field) holds an untagged element")
            }
            let tag = item.identifier.tagNumber
            list.tags.append(tag)
            let name = "\(field)[\(tag)]"
            let inner = try ASN1Reading.children(item, name)
            guard inner.count == 1 else { throw AttestationError.invalidFormat("\(name) must hold one value") }
            let value = inner[0]
            switch tag {
            case 1: list.purposes = try integerSet(value, name)
            case 2: list.algorithm = try ASN1Reading.integer(value, name)
            case 3: list.keySize = try ASN1Reading.integer(value, name)
            case 5: list.digests = try integerSet(value, name)
            case 10: list.ecCurve = try ASN1Reading.integer(value, name)
            case 503: list.noAuthRequired = true
            case 701: list.creationDateTime = try ASN1Reading.integer(value, name)
            case 702: list.origin = try ASN1Reading.integer(value, name)
            case 704: list.rootOfTrust = try rootOfTrust(value)
            case 705: list.osVersion = try ASN1Reading.integer(value, name)
            case 706: list.osPatchLevel = try ASN1Reading.integer(value, name)
            case 709: list.attestationApplicationId = try attestationApplicationId(ASN1Reading.octetString(value, name))
            case 718: list.vendorPatchLevel = try ASN1Reading.integer(value, name)
            case 719: list.bootPatchLevel = try ASN1Reading.integer(value, name)
            default: continue
            }
        }
        return list
    }

    static func integerSet(_ node: ASN1Node, _ field: String) throws -> [Int64] {
        try ASN1Reading.children(node, .set, field).map { try ASN1Reading.integer($0, field) }
    }

    static func rootOfTrust(_ node: ASN1Node) throws -> RootOfTrust {
        let fields = try ASN1Reading.children(node, .sequence, "rootOfTrust")
        guard fields.count >= 3 else { throw AttestationError.invalidFormat("rootOfTrust has \(fields.count) fields, expected at least 3") }
        let state = try ASN1Reading.integer(fields[2], "verifiedBootState")
        guard let bootState = RootOfTrust.VerifiedBootState(rawValue: Int(state)) else {
            throw AttestationError.invalidFormat("verifiedBootState \(state) is unknown")
        }
        return RootOfTrust(verifiedBootKey: try ASN1Reading.octetString(fields[0], "verifiedBootKey"),
                           deviceLocked: try ASN1Reading.boolean(fields[1], "deviceLocked"),
                           verifiedBootState: bootState,
                           verifiedBootHash: fields.count >= 4 ? try ASN1Reading.octetString(fields[3], "verifiedBootHash") : nil)
    }

    static func attestationApplicationId(_ bytes: [UInt8]) throws -> AttestationApplicationId {
        let root = try ASN1Reading.parseBER(bytes[...], "attestationApplicationId")
        let fields = try ASN1Reading.children(root, .sequence, "attestationApplicationId")
        guard fields.count == 2 else { throw AttestationError.invalidFormat("attestationApplicationId must have 2 fields") }
        let packages = try ASN1Reading.children(fields[0], .set, "packageInfos").map { info in
            let parts = try ASN1Reading.children(info, .sequence, "packageInfo")
            guard parts.count == 2 else { throw AttestationError.invalidFormat("packageInfo must have 2 fields") }
            return AttestationApplicationId.PackageInfo(
                name: String(decoding: try ASN1Reading.octetString(parts[0], "packageName"), as: UTF8.self),
                version: try ASN1Reading.integer(parts[1], "version"))
        }
        let digests = try ASN1Reading.children(fields[1], .set, "signatureDigests").map {
            try ASN1Reading.octetString($0, "signatureDigest")
        }
        return AttestationApplicationId(packageInfos: packages, signatureDigests: digests)
    }
}
