import Crypto
import Foundation
import Testing

func sha256(_ bytes: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: bytes)) }

/// A JSON vector of this target's `Vectors/` folder (copied as a test resource).
func localVector(_ name: String) throws -> [String: Any] {
    let url = try #require(Bundle.module.url(forResource: "Vectors/\(name)", withExtension: nil))
    return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
}
