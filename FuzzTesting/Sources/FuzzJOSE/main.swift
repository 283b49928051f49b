import Foundation
import JOSE

// The JOSE readers: a JSON value, a compact JWS (RFC 7515 §7.1) and a DPoP proof (RFC 9449 §4.3), from any text.
let verifier = DPoPVerifier()
let request = DPoPRequest(method: "POST", uri: "https://tenant.example/v1/holder/instances/i/license")
let now = Date(timeIntervalSince1970: 1_760_000_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    _ = try? JSONDecoder().decode(JSONValue.self, from: data)
    let text = String(decoding: data, as: UTF8.self)
    _ = try? JWS(compactSerialization: text)
    _ = try? verifier.verify(text, for: request, at: now)
    return 0
}
