import Foundation
import Hummingbird

/// An `application/x-www-form-urlencoded` request body (RFC 6749 §4.1.3 and Appendix B; the HTML form encoding),
/// read as name → values: the OAuth token endpoint's requests and the OpenID4VP `direct_post` response. A body of
/// another media type, or one that is not percent-encoded correctly, is the OAuth `invalid_request` (RFC 6749 §5.2).
enum FormBody {
    static let mediaType = "application/x-www-form-urlencoded"

    static func decode(_ request: Request, context: some HoldfastContext) async throws -> [String: [String]] {
        let mediaType = request.headers[.contentType]?.split(separator: ";").first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard mediaType == Self.mediaType else {
            throw OAuthError.invalidRequest("the body must be application/x-www-form-urlencoded")
        }
        var request = request
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        return try parse(String(decoding: body.readableBytesView, as: UTF8.self))
    }

    /// `name=value` pairs joined by `&`; `+` is a space, and each name and value is percent-decoded. A name given
    /// several times keeps all its values, in order (the caller decides whether a repeat is allowed).
    static func parse(_ text: String) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) throws -> String {
                guard let value = part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding else {
                    throw OAuthError.invalidRequest("the form body is not percent-encoded correctly")
                }
                return value
            }
            let name = try decode(parts[0])
            result[name, default: []].append(parts.count > 1 ? try decode(parts[1]) : "")
        }
        return result
    }
}
