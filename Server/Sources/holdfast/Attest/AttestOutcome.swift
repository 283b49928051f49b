import Attestation
import Foundation

/// What one `holdfast attest …` run prints: `{"valid": true, …verified facts…}` or
/// `{"valid": false, "code": "…", "reason": "…"}`, as one JSON object on one line (docs/command-line.md "The `holdfast` command").
///
/// `facts` holds only JSON-serialisable values (String, Bool, Int, arrays, nested dictionaries, NSNull); the
/// builders in `AttestOutcome+Results.swift` are the only places that fill it.
struct AttestOutcome {
    let valid: Bool
    let facts: [String: Any]

    /// The code printed when an option's value cannot be read (bad hex, bad base64, unreadable file, bad time …).
    static let invalidArgumentCode = "INVALID_ARGUMENT"

    static func verified(_ facts: [String: Any]) -> AttestOutcome {
        AttestOutcome(valid: true, facts: facts)
    }

    static func failure(code: String, reason: String) -> AttestOutcome {
        AttestOutcome(valid: false, facts: ["code": code, "reason": reason])
    }

    /// A verification failure, with the module's stable code (`NONCE_MISMATCH`, `UNTRUSTED_CHAIN`, …).
    static func failure(_ error: AttestationError) -> AttestOutcome {
        failure(code: error.code, reason: error.reason)
    }

    /// An option whose value could not be read; nothing was verified.
    static func failure(_ error: AttestArgument.Invalid) -> AttestOutcome {
        failure(code: invalidArgumentCode, reason: error.description)
    }

    /// `code` of a failure, nil when valid.
    var code: String? { facts["code"] as? String }

    /// The printed line: `"valid"` first, the other keys sorted, so that output is stable from run to run.
    var json: String {
        let head = "{\"valid\":\(valid)"
        guard !facts.isEmpty,
              let data = try? JSONSerialization.data(withJSONObject: facts, options: [.sortedKeys, .withoutEscapingSlashes]),
              let rest = String(data: data, encoding: .utf8), rest.count > 2 else {
            return head + "}"
        }
        return head + "," + rest.dropFirst()
    }
}
