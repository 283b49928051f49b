import Foundation
import HoldfastAdmin
import HoldfastProtocol
import Hummingbird
import StatusList

/// The status list routes (docs/server-api.md "API", "Credentials"):
/// - `GET /v2/credentials/mobile/status-lists/{id}/token` (public): the list's Status List Token, a CWT unless the
///   request accepts `application/statuslist+jwt` (draft-ietf-oauth-status-list §8.1), with `ETag`,
///   `Last-Modified` and `Cache-Control: public, max-age` of at most its `ttl`, so that a CDN can serve it;
/// - `GET /v2/credentials/mobile/status-lists` (public): every list's token URI, the draft's §9 aggregation;
/// - `GET, PUT /v1/credentials/mobile/status-list-settings` (admin): `ttlSeconds` and `expSeconds`.
struct StatusListController: HoldfastController {
    struct Aggregation: Encodable {
        // swiftlint:disable:next identifier_name
        var status_lists: [String]
    }

    let statusLists: StatusListService
    let clock: any HoldfastClock

    var routes: [Route] {
        [
            .public(.get, StatusListRoutes.Template.token) { request, context in
                let id = try context.parameters.require("id")
                let format = Self.format(accepting: request.headers[.accept])
                let now = clock.now()
                guard Self.isListID(id), let served = try await statusLists.token(listID: id, format: format, now: now) else {
                    throw StatusListError.listNotFound(id: id)
                }
                return try await Self.response(served, request: request, settings: statusLists.settings(), now: now)
            },
            .public(.get, StatusListRoutes.Template.lists) { _, _ in
                let uris = try await statusLists.listIDs().map(statusLists.uri(of:))
                var headers = HTTPFields()
                headers[.cacheControl] = "public, max-age=60"
                return try JSONResponse.make(Aggregation(status_lists: uris), headers: headers)
            },
            .admin(.get, CredentialAdminRoutes.Template.statusListSettings) { _, _ in
                try JSONResponse.make(try await statusLists.settings())
            },
            .admin(.put, CredentialAdminRoutes.Template.statusListSettings) { request, context in
                let body = try await JSONBodyDecoder.decode(StatusListSettings.self, from: request, context: context)
                return try JSONResponse.make(try await statusLists.update(body))
            },
        ]
    }

    /// A list id is a lowercase UUID; anything else is not looked up.
    static func isListID(_ id: String) -> Bool {
        id.utf8.count == 36 && UUID(uuidString: id) != nil && id == id.lowercased()
    }

    /// JWT only when the client asks for it by its media type (draft §8.1: the CWT is what ISO/IEC 18013-5 second
    /// edition §12.3.6.3 verifiers of mDocs read, so it is the default).
    static func format(accepting accept: String?) -> StatusListToken.Format {
        guard let accept else { return .cwt }
        var best: (format: StatusListToken.Format, quality: Double)?
        for item in accept.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = parts.first else { continue }
            let quality = parts.dropFirst().compactMap { $0.hasPrefix("q=") ? Double($0.dropFirst(2)) : nil }.first ?? 1
            let format: StatusListToken.Format? = switch type {
            case StatusListToken.jwtMediaType: .jwt
            case StatusListToken.cwtType: .cwt
            default: nil
            }
            if let format, quality > 0, quality > (best?.quality ?? 0) { best = (format, quality) }
        }
        return best?.format ?? .cwt
    }

    static func response(_ served: ServedStatusListToken, request: Request, settings: StatusListSettings,
                         now: Date) throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = served.format == .cwt ? StatusListToken.cwtType : StatusListToken.jwtMediaType
        headers[.eTag] = served.etag
        headers[.lastModified] = HTTPDate.format(served.signedAt)
        // A cache may keep it for the ttl, less the time since it was signed, never longer (draft §13.7).
        let remaining = max(0, Int64(Double(settings.ttlSeconds) - now.timeIntervalSince(served.signedAt)))
        headers[.cacheControl] = "public, max-age=\(remaining)"
        headers[.vary] = "Accept"
        if let match = request.headers[.ifNoneMatch],
           match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == served.etag || $0 == "*" }) {
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: served.bytes)))
    }
}
