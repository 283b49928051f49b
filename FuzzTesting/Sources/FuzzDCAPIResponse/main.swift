import Crypto
import DigitalCredentials

// W3C Digital Credentials: the {protocol, data} a page posts to its verifier (data an object or a JSON string holding
// one); an org-iso-mdoc answer read as ISO/IEC TS 18013-7 Annex C's {response} and opened with a fixed key.
let recipientKey = try! P256.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](repeating: 0x11, count: 32))
let encryptionInfo = try! EncryptionInfo(recipientPublicKey: recipientKey.publicKey, nonce: [UInt8](repeating: 0x22, count: 16))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    guard let response = try? DigitalCredentialResponse(json: bytes) else { return 0 }
    _ = try? response.jsonBytes()
    if let annexC = try? AnnexCResponse(response) {
        _ = try? AnnexCEncryption.open(annexC.encryptedResponse, recipientKey: recipientKey, encryptionInfo: encryptionInfo.base64URL,
                                       origins: ["https://fuzz.example"])
    }
    return 0
}
