import CBOR
import COSE
import Crypto
import Foundation
import HoldfastProtocol
import MDoc
import OpenID4VP
import PresentationVerification
import X509

/// An issuer (IACA → document signer), a holder's device key and a proximity session (transcript, reader key), from
/// which each test makes an answer honest in every way but the one it checks.
struct VerificationFixture {
    static let docType = "org.iso.18013.5.1.mDL"
    static let space = "org.iso.18013.5.1"
    static let day: TimeInterval = 86_400
    static let asked: Set<String> = ["family_name", "age_over_18"]

    let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    let iacaKey = P256.Signing.PrivateKey()
    let signerKey = P256.Signing.PrivateKey()
    let deviceKey = P256.Signing.PrivateKey()
    let readerKey = P256.KeyAgreement.PrivateKey()
    let iaca: Certificate
    let signer: Certificate
    let transcript = SessionTranscript(deviceEngagementBytes: .embedded(.text("engagement")), eReaderKeyBytes: .embedded(.text("reader key")),
                                       handover: .null)
    let paths = DocumentSignerPaths()

    init(signerValidFor lifetime: TimeInterval = 300 * day) throws {
        iaca = try MDocCertificates.iaca(key: iacaKey, subject: try MDocCertificates.name(commonName: "Verification IACA", country: "ZZ"),
                                         notBefore: now - 10 * Self.day, notAfter: now + 1_000 * Self.day)
        signer = try MDocCertificates.signer(publicKey: signerKey.publicKey,
                                             subject: try MDocCertificates.name(commonName: "Verification DS", country: "ZZ"),
                                             iaca: iaca, iacaKey: iacaKey, notBefore: now - 5 * Self.day, notAfter: now + lifetime)
    }

    var trust: IssuerTrust { IssuerTrust(iacas: [iaca], paths: paths) }

    /// The mDL as issued: three elements, valid for 30 days, signed by `signing` (the document signer's key unless
    /// a test says otherwise).
    func issued(signing: P256.Signing.PrivateKey? = nil, validFor validity: TimeInterval = 30 * day,
                status: MobileSecurityObject.StatusReference? = nil) throws -> IssuerSigned {
        try MDocIssuer(signer: COSESigningKey.p256(signing ?? signerKey), certificateChain: [try MDocCertificates.der(signer)]).issue(
            docType: Self.docType,
            nameSpaces: [.init(name: Self.space, elements: [("family_name", .text("Doe")), ("age_over_18", .bool(true)),
                                                            ("portrait", .bytes([0xFF, 0xD8, 0x01]))])],
            deviceKey: COSEKey(publicKey: deviceKey.publicKey),
            validity: .init(signed: now - 60, validFrom: now - 60, validUntil: now + validity), status: status)
    }

    /// A document disclosing `elements` of `issuerSigned`, device-signed over `transcript` (the session's unless given).
    func document(_ issuerSigned: IssuerSigned, _ elements: Set<String> = asked, over other: SessionTranscript? = nil,
                  docType: String = docType) throws -> Document {
        Document(docType: docType, issuerSigned: issuerSigned.disclosing([Self.space: elements]),
                 deviceSigned: try DeviceSigned.sign(docType: docType, sessionTranscript: other ?? transcript, signer: COSESigningKey.p256(deviceKey)))
    }

    /// A document disclosing `elements`, authenticated by a deviceMac for the reader key `reader` (the session's unless given).
    func macDocument(_ issuerSigned: IssuerSigned, _ elements: Set<String> = asked, reader: P256.KeyAgreement.PublicKey? = nil) throws -> Document {
        let agreementKey = try P256.KeyAgreement.PrivateKey(rawRepresentation: deviceKey.rawRepresentation)
        return Document(docType: Self.docType, issuerSigned: issuerSigned.disclosing([Self.space: elements]),
                        deviceSigned: try DeviceSigned.mac(docType: Self.docType, sessionTranscript: transcript, deviceKey: agreementKey,
                                                           readerKey: reader ?? readerKey.publicKey))
    }

    /// What the reader asked: `family_name` and `age_over_18` of an mDL, every element required.
    static var requirements: PresentationRequirements {
        PresentationRequirements(deviceRequest: DeviceRequest(docRequests: [
            .init(itemsRequest: ItemsRequest(docType: docType, nameSpaces: [.init(space, elements: [.init("family_name"), .init("age_over_18", intentToRetain: true)])])),
        ]))
    }

    func verification(requirements: PresentationRequirements = requirements, trust: IssuerTrust? = nil, readerKey: P256.KeyAgreement.PrivateKey? = nil,
                      naming: DeviceResponseVerification.Naming = .none, at time: Date? = nil,
                      status: @escaping DeviceResponseVerification.StatusCheck = { _, _ in nil }) -> DeviceResponseVerification {
        DeviceResponseVerification(requirements: requirements, transcripts: [transcript], trust: trust ?? self.trust,
                                   readerKey: readerKey ?? self.readerKey, naming: naming, at: time ?? now, status: status)
    }

    /// The result of a proximity answer of `documents`.
    func verify(_ documents: [Document], documentErrors: CBOR? = nil, status responseStatus: UInt64 = 0,
                _ verification: DeviceResponseVerification? = nil) async throws -> PresentationResult {
        let response = DeviceResponse(documents: documents, documentErrors: documentErrors, status: responseStatus)
        return try await (verification ?? self.verification()).verify(deviceResponse: response.encoded())
    }
}

extension PresentationResult {
    var codes: [PresentationFailureCode] { failures?.map(\.code) ?? [] }
}
