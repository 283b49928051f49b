import Foundation

/// Presentation options (docs/sdk.md "Holder: presentation"), set with `Presentations.setOptions(_:)`.
public struct PresentationOptions: Sendable, Hashable {
    /// URL schemes (compared without case) whose redirect `sendResponse(credentialIds:autoRedirect:)` opens besides
    /// what it opens by itself — an `https` URL from a verifier verified by `.certificate` or `.domain`. An app that
    /// expects its own scheme back from a verifier (`myapp`) names it here; listing `https` lets an unverified
    /// (`.none`) verifier's https redirect be opened too. Empty by default.
    public var allowedRedirectSchemes: Set<String>

    public init(allowedRedirectSchemes: Set<String> = []) {
        self.allowedRedirectSchemes = allowedRedirectSchemes
    }

    /// Whether `autoRedirect` opens `url`, a redirect sent by a verifier verified by `trust`: an `https` URL with a
    /// host from a `.certificate` or `.domain` verifier (the verifier was trusted to send where it sends the person),
    /// otherwise only a URL whose scheme the app allows. Anything else is returned to the app and not opened.
    func opensRedirect(_ url: URL, from trust: VerifierTrust) -> Bool {
        guard let scheme = url.scheme?.lowercased() else { return false }
        if allowedRedirectSchemes.contains(where: { $0.lowercased() == scheme }) { return true }
        guard scheme == "https", let host = url.host, !host.isEmpty else { return false }
        switch trust {
        case .certificate, .domain: return true
        case .none: return false
        }
    }
}
