import Crypto
import DigitalCredentials
import MDoc

// ISO/IEC TS 18013-7 Annex C EncryptedResponse from CBOR bytes, written again and opened (RFC 9180 base mode) with
// a fixed key and transcript.
let recipientKey = try! P256.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](repeating: 0x11, count: 32))
let transcript = SessionTranscript.dcapi(encryptionInfo: "gmVkY2FwaQ", origin: "https://fuzz.example")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    guard let response = try? EncryptedResponse(decoding: bytes) else { return 0 }
    _ = response.encoded()
    _ = try? AnnexCEncryption.open(response, recipientKey: recipientKey, sessionTranscript: transcript)
    return 0
}
