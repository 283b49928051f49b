import CBOR
import COSE

/// `DeviceSigned = {nameSpaces: DeviceNameSpacesBytes, deviceAuth: DeviceAuth}` (ISO/IEC 18013-5 §8.3.2.1.2.2),
/// `DeviceAuth = {deviceSignature: COSE_Sign1} / {deviceMac: COSE_Mac0}`.
public struct DeviceSigned: Sendable, Hashable {
    public enum Authentication: Sendable, Hashable {
        case signature(COSESign1)
        /// A COSE_Mac0 kept as its CBOR; verified with the session's ephemeral reader key (`verifyMac`, §9.1.3.5).
        case mac(CBOR)
    }

    /// `DeviceNameSpacesBytes = #6.24(bstr .cbor DeviceNameSpaces)` exactly as received or written.
    public let nameSpacesBytes: [UInt8]
    public let authentication: Authentication

    public init(nameSpacesBytes: [UInt8], authentication: Authentication) {
        self.nameSpacesBytes = nameSpacesBytes
        self.authentication = authentication
    }

    public init(item: CBOR.Decoded) throws(MDocError) {
        let nameSpaces = try MDocCBOR.field(item, "nameSpaces", in: "DeviceSigned")
        _ = try MDocCBOR.map(try MDocCBOR.embedded(nameSpaces, "DeviceNameSpacesBytes"), "DeviceNameSpaces")
        nameSpacesBytes = Array(nameSpaces.rawBytes)
        let auth = try MDocCBOR.field(item, "deviceAuth", in: "DeviceSigned")
        if let signature = try MDocCBOR.optionalField(auth, "deviceSignature", in: "deviceAuth") {
            do { authentication = .signature(try COSESign1(item: signature)) } catch {
                throw .malformed("deviceSignature: \(error)")
            }
        } else if let mac = try MDocCBOR.optionalField(auth, "deviceMac", in: "deviceAuth") {
            authentication = .mac(mac.value)
        } else {
            throw .deviceAuthenticationMissing
        }
    }

    /// An empty `DeviceNameSpaces` map as DeviceNameSpacesBytes (what online presentation sends).
    public static let emptyNameSpacesBytes = CBOR.embeddedEncoding(of: CBOR.map([]).encoded())

    /// Device authentication by signature (§9.1.3.6): signs DeviceAuthenticationBytes, detached, with the device key.
    public static func sign(docType: String, sessionTranscript: SessionTranscript,
                            nameSpacesBytes: [UInt8] = emptyNameSpacesBytes,
                            signer: some COSESigner) throws(MDocError) -> DeviceSigned {
        let payload = DeviceAuthentication.taggedBytes(sessionTranscript: sessionTranscript, docType: docType,
                                                       deviceNameSpacesBytes: nameSpacesBytes)
        do {
            let signature = try COSESign1.sign(payload: payload, detached: true, signer: signer)
            return DeviceSigned(nameSpacesBytes: nameSpacesBytes, authentication: .signature(signature))
        } catch {
            throw .signingFailed("\(error)")
        }
    }

    /// Verifies the deviceSignature over DeviceAuthenticationBytes with the MSO's device key (§9.1.3.6; 18013-5
    /// §9.3.1 step 6 for the reader).
    public func verifySignature(docType: String, sessionTranscript: SessionTranscript, deviceKey: COSEKey) throws(MDocError) {
        guard case .signature(let signature) = authentication else { throw .deviceMacNotSupported }
        let verificationKey: COSEVerificationKey
        do { verificationKey = try deviceKey.verificationKey() } catch { throw .deviceKeyUnsupported("\(error)") }
        let payload = DeviceAuthentication.taggedBytes(sessionTranscript: sessionTranscript, docType: docType,
                                                       deviceNameSpacesBytes: nameSpacesBytes)
        do {
            try signature.verify(using: verificationKey, detachedPayload: payload)
        } catch {
            throw .deviceSignatureInvalid
        }
    }

    /// The encoding: `{nameSpaces, deviceAuth}` with the namespaces' kept bytes; the signature untagged.
    public func encoded() -> [UInt8] {
        var bytes = CBOR.head(major: 5, argument: 2)
        bytes += CBOR.text("nameSpaces").encoded()
        bytes += nameSpacesBytes
        bytes += CBOR.text("deviceAuth").encoded()
        switch authentication {
        case .signature(let signature):
            bytes += CBOR.map([CBOR.Pair("deviceSignature", signature.cbor(tagged: false))]).encoded()
        case .mac(let mac):
            bytes += CBOR.map([CBOR.Pair("deviceMac", mac)]).encoded()
        }
        return bytes
    }
}
