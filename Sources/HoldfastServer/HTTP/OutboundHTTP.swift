import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Outbound GETs of the server (Google's attestation status list, other issuers' status lists): a timeout, no
/// cache, 200 only, a size limit. Messages name the URL without its user info and query, which may carry
/// credentials.
enum OutboundHTTP {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func get(_ url: URL, accept: String, timeout: TimeInterval, maximumSize: Int) async throws(Failure) -> Data {
        let name = RevocationListSource.url(url).description
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.setValue(accept, forHTTPHeaderField: "Accept")
        let outcome: Result<(Data, URLResponse), Failure> = await withCheckedContinuation { continuation in
            // The callback form works on every Foundation this package builds with.
            URLSession.shared.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(returning: .failure(Failure(description: "GET \(name): \(error.localizedDescription)")))
                } else if let response {
                    continuation.resume(returning: .success((data ?? Data(), response)))
                } else {
                    continuation.resume(returning: .failure(Failure(description: "GET \(name): no response")))
                }
            }.resume()
        }
        let (data, response) = try outcome.get()
        guard let status = (response as? HTTPURLResponse)?.statusCode, status == 200 else {
            let status = (response as? HTTPURLResponse)?.statusCode
            throw Failure(description: "GET \(name) answered HTTP \(status.map(String.init) ?? "?")")
        }
        guard data.count <= maximumSize else { throw Failure(description: "GET \(name): larger than \(maximumSize) bytes") }
        return data
    }
}
