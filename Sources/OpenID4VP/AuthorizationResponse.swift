import Foundation
import JOSE

/// OpenID4VP 1.0 §8.1 (and §8.5 for an error) — the authorization response, the payload a wallet encrypts to the
/// verifier for `direct_post.jwt` (§8.3): the `vp_token` with the presentations, the request's `state`, or an
/// `error`. ISO/IEC TS 18013-7:2024 B.4.3 adds a `presentation_submission`.
public struct AuthorizationResponse: Codable, Sendable, Hashable {
    /// §8.1: an object of credential query id → non-empty array of presentations (1.0); one base64url
    /// DeviceResponse (18013-7:2024 B.4.3). Carried as the JSON it is: the verifier names each way it is malformed.
    public var vpToken: JSONValue?
    public var state: String?
    /// §8.5: the wallet's error code (`access_denied` when the person declined). A member of another type is read as
    /// its JSON text, so that any `error` the wallet sent counts as one.
    public var error: String?
    public var errorDescription: String?
    /// 18013-7:2024 B.4.3 (DIF Presentation Exchange 2.0 §6).
    public var presentationSubmission: PresentationSubmission?

    public init(vpToken: JSONValue? = nil, state: String? = nil, error: String? = nil, errorDescription: String? = nil,
                presentationSubmission: PresentationSubmission? = nil) {
        self.vpToken = vpToken
        self.state = state
        self.error = error
        self.errorDescription = errorDescription
        self.presentationSubmission = presentationSubmission
    }

    enum CodingKeys: String, CodingKey {
        case vpToken = "vp_token"
        case state, error
        case errorDescription = "error_description"
        case presentationSubmission = "presentation_submission"
    }

    /// Read leniently (`LenientDecoding`), but for `error`, whose presence is what counts.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        vpToken = container.lenient(JSONValue.self, .vpToken)
        state = container.lenient(String.self, .state)
        if container.contains(.error) {
            let value = (try? container.decode(JSONValue.self, forKey: .error)) ?? .null
            error = value.stringValue ?? (try? value.jsonBytes()).map { String(decoding: $0, as: UTF8.self) } ?? "null"
        }
        errorDescription = container.lenient(String.self, .errorDescription)
        presentationSubmission = container.lenient(PresentationSubmission.self, .presentationSubmission)
    }

    /// The response of a decrypted payload that is a JSON object (parsed by the caller, which refuses what is not one),
    /// read as `init(from:)` reads it, without writing the `vp_token` out again.
    public init(members: [String: JSONValue]) {
        func present(_ key: CodingKeys) -> JSONValue? {
            guard let value = members[key.rawValue], value != .null else { return nil }
            return value
        }
        vpToken = present(.vpToken)
        state = present(.state)?.stringValue
        if let value = members[CodingKeys.error.rawValue] {
            error = value.stringValue ?? (try? value.jsonBytes()).map { String(decoding: $0, as: UTF8.self) } ?? "null"
        }
        errorDescription = present(.errorDescription)?.stringValue
        presentationSubmission = present(.presentationSubmission)
            .flatMap { OpenID4VPJSON.lenientValue($0, as: PresentationSubmission.self) }
    }

    /// The payload to encrypt.
    public func payload() throws -> Data { try JSONEncoder().encode(self) }
}
