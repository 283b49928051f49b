import CBOR
import COSE
import Foundation

/// Builds mDocs (ISO/IEC 18013-5 §9.1.2): the one place they are made, for the tenant's issuer, the tests and the
/// benchmarks. Each item gets a fresh 32-byte salt; digestIDs are a random permutation per namespace so that they do
/// not reveal the order of the elements; the MSO is signed as COSE_Sign1 with the document signer certificate (and
/// any further certificates given) in the unprotected `x5chain` (§9.1.2.4).
public struct MDocIssuer: Sendable {
    public let signer: any COSESigner
    /// DER certificates, the document signer first.
    public let certificateChain: [[UInt8]]
    public let digestAlgorithm: DigestAlgorithm

    /// The salt length written (≥ ``IssuerSignedItem/minimumRandomLength``).
    public static let randomLength = 32

    public init(signer: some COSESigner, certificateChain: [[UInt8]], digestAlgorithm: DigestAlgorithm = .sha256) {
        self.signer = signer
        self.certificateChain = certificateChain
        self.digestAlgorithm = digestAlgorithm
    }

    /// One namespace's elements in the order the issuer lists them.
    public struct NameSpaceElements: Sendable {
        public var name: String
        public var elements: [(identifier: String, value: CBOR)]

        public init(name: String, elements: [(identifier: String, value: CBOR)]) {
            self.name = name
            self.elements = elements
        }
    }

    /// Issues an mDoc of `docType` bound to `deviceKey` (its public part goes into the MSO).
    public func issue(docType: String, nameSpaces: [NameSpaceElements], deviceKey: COSEKey,
                      validity: MobileSecurityObject.ValidityInfo,
                      status: MobileSecurityObject.StatusReference? = nil) throws(MDocError) -> IssuerSigned {
        guard !certificateChain.isEmpty else { throw .issuerCertificateMissing }
        var generator = SystemRandomNumberGenerator()
        var spaces: [IssuerSigned.NameSpace] = []
        var digests: [String: [UInt64: [UInt8]]] = [:]
        for space in nameSpaces {
            var seen = Set<String>()
            for element in space.elements where !seen.insert(element.identifier).inserted {
                throw .duplicateItem(nameSpace: space.name, element.identifier)
            }
            let ids = Array(0..<UInt64(space.elements.count)).shuffled(using: &generator)
            var items: [IssuerSignedItem] = []
            var spaceDigests: [UInt64: [UInt8]] = [:]
            for (position, element) in space.elements.enumerated() {
                let random = (0..<Self.randomLength).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
                let item = IssuerSignedItem(digestID: ids[position], random: random,
                                            elementIdentifier: element.identifier, elementValue: element.value)
                spaceDigests[item.digestID] = item.digest(digestAlgorithm)
                items.append(item)
            }
            spaces.append(IssuerSigned.NameSpace(name: space.name, items: items))
            digests[space.name] = spaceDigests
        }
        let mso = MobileSecurityObject(digestAlgorithm: digestAlgorithm, valueDigests: digests,
                                       deviceKey: deviceKey.publicKey, docType: docType, validityInfo: validity,
                                       status: status)
        let x5chain: CBOR = certificateChain.count == 1 ? .bytes(certificateChain[0]) : .array(certificateChain.map(CBOR.bytes))
        let unprotected = COSEHeaderMap([CBOR.Pair(.int(COSEHeaderMap.Label.x5chain), x5chain)])
        let issuerAuth: COSESign1
        do {
            issuerAuth = try COSESign1.sign(payload: mso.taggedBytes, unprotected: unprotected, signer: signer)
        } catch {
            throw .signingFailed("\(error)")
        }
        return try IssuerSigned(nameSpaces: spaces, issuerAuth: issuerAuth)
    }
}
