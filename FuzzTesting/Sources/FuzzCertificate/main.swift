import Attestation

// The strict DER certificate reader (`DERReader`, X.690 §10) from any bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    if let certificate = try? AttestationCertificate(derEncoded: bytes) {
        _ = certificate.subject
    }
    return 0
}
