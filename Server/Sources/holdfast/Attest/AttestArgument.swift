import Attestation
import Foundation

/// How `holdfast attest` reads its option values, on top of `ByteInput`.
///
/// The rule (docs/command-line.md "The `holdfast` command"): an option named hex takes hex only and an option named base64 takes base64 only (either
/// alphabet, padding optional), because a hex string is very often valid base64 as well. A value that cannot be read
/// is an `Invalid` error, which the commands print as `{"valid": false, "code": "INVALID_ARGUMENT", …}`.
enum AttestArgument {
    struct Invalid: Error, CustomStringConvertible, Equatable {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// A hex-only value.
    static func hex(_ text: String, option: String) throws(Invalid) -> [UInt8] {
        guard let bytes = ByteInput.hex(text) else { throw Invalid("--\(option) must be hex") }
        return bytes
    }

    /// A base64-only value (standard or URL alphabet).
    static func base64(_ text: String, option: String) throws(Invalid) -> [UInt8] {
        guard let bytes = ByteInput.base64Either(text) else { throw Invalid("--\(option) must be base64") }
        return bytes
    }

    /// Exactly one of `--<option>` (hex) and `--<option>-base64`.
    static func hexOrBase64(hex hexText: String?, base64 base64Text: String?, option: String) throws(Invalid) -> [UInt8] {
        switch (hexText, base64Text) {
        case (let text?, nil): try hex(text, option: option)
        case (nil, let text?): try base64(text, option: option + "-base64")
        case (.some, .some): throw Invalid("give either --\(option) (hex) or --\(option)-base64, not both")
        case (nil, nil): throw Invalid("--\(option) (hex) or --\(option)-base64 is required")
        }
    }

    /// A binary object given as base64 text or `@file` (the raw bytes, or base64 text in the file).
    static func base64OrFile(_ argument: String, option: String) throws(Invalid) -> [UInt8] {
        guard argument.hasPrefix("@") else { return try base64(argument, option: option) }
        let data = try file(argument, option: option)
        if let text = String(data: data, encoding: .utf8), let bytes = ByteInput.base64Either(text) { return bytes }
        return [UInt8](data)
    }

    /// The contents of `@path`.
    static func file(_ argument: String, option: String) throws(Invalid) -> Data {
        guard argument.hasPrefix("@"), argument.count > 1 else { throw Invalid("--\(option) takes @file") }
        do {
            return try ByteInput.fileData(argument)
        } catch {
            throw Invalid("--\(option): \(error)")
        }
    }

    /// An instant: RFC 3339 / ISO 8601 with or without fractional seconds (`2024-04-18T00:00:00Z`), or a date
    /// (`2024-04-18`, midnight UTC). Absent: now, by the run's clock.
    static func instant(_ text: String?, option: String = "at", run: CommandRun) throws(Invalid) -> Date {
        guard let text else { return run.now() }
        return try instant(text, option: option)
    }

    /// An instant given as text (see `instant(_:option:run:)`).
    static func instant(_ text: String, option: String = "at") throws(Invalid) -> Date {
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds], [.withFullDate]] {
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return date }
        }
        // Microsecond fractions ("…22:31:27.639000Z", as in the vectors' verifyAt) are not read by every
        // ISO8601DateFormatter; the fraction is dropped, which at most moves the instant by under a second.
        if let dot = text.firstIndex(of: "."), let zone = text[dot...].firstIndex(where: { $0 == "Z" || $0 == "+" || $0 == "-" }) {
            formatter.formatOptions = [.withInternetDateTime]
            if let date = formatter.date(from: String(text[..<dot] + text[zone...])) { return date }
        }
        throw Invalid("--\(option) must be an ISO 8601 instant such as 2024-04-18T00:00:00Z")
    }

    /// A counter: a decimal UInt32.
    static func counter(_ text: String, option: String) throws(Invalid) -> UInt32 {
        guard let value = UInt32(text) else { throw Invalid("--\(option) must be an integer from 0 to \(UInt32.max)") }
        return value
    }

    /// Trusted root certificates from `@file` (PEM or DER, one or more certificates).
    static func roots(_ arguments: [String], option: String = "root") throws(Invalid) -> [AttestationCertificate] {
        var roots: [AttestationCertificate] = []
        for argument in arguments {
            let data = try file(argument, option: option)
            do {
                roots += try CertificateChainDecoder.decode([UInt8](data))
            } catch {
                throw Invalid("--\(option) \(argument.dropFirst()): \(error.reason)")
            }
        }
        return roots
    }

    /// The base64 body of the first `-----BEGIN <label>-----` block of PEM text (RFC 7468).
    static func pemBody(_ text: String, label: String) -> [UInt8]? {
        guard let begin = text.range(of: "-----BEGIN \(label)-----"),
              let end = text.range(of: "-----END \(label)-----", range: begin.upperBound..<text.endIndex) else { return nil }
        return ByteInput.base64(String(text[begin.upperBound..<end.lowerBound]))
    }
}
