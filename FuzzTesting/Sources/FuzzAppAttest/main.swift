import Attestation
import Dispatch
import Foundation

// The App Attest attestation object, verified as the server does, from any bytes: CBOR, the x5c chain, the
// authenticator data, the nonce extension (Apple's "Attestation Object Validation Guide"). The inputs that
// matter are mutations of real attestation objects (the seed corpus), checked at the time of those vectors.
// A verifier with its own issuer cache per input, released before the input ends: the shared cache keeps issuer keys
// in a multi-payload enum whose tagged references LeakSanitizer cannot follow, so a key still held when libFuzzer
// checks for leaks (after each input that allocated more than it freed, and at exit) would be reported as leaked.
func verifyOnce(_ bytes: [UInt8]) async {
    let verifier = AppAttestVerifier(cache: VerifiedIssuerCache())
    _ = try? await verifier.verifyAttestation(bytes, keyId: keyId, clientDataHash: clientDataHash,
                                              appId: "0352187391.com.apple.example_app_attest",
                                              environment: .development, at: at)
}
let keyId = [UInt8](repeating: 0x11, count: 32)
let clientDataHash = [UInt8](repeating: 0x22, count: 32)
let at = Date(timeIntervalSince1970: 1_700_000_000)

final class Done: @unchecked Sendable {
    let semaphore = DispatchSemaphore(value: 0)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    let done = Done()
    Task {
        await verifyOnce(bytes)
        done.semaphore.signal()
    }
    done.semaphore.wait()
    return 0
}
