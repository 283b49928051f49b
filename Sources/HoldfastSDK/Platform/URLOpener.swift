import Foundation
import Plumbing

/// Opens a URL outside the SDK (docs/sdk.md "Holder: presentation": the verifier's redirect after a response).
public protocol URLOpener: Sendable {
    /// Whether the URL was handed to something that opens it.
    func open(_ url: URL) async -> Bool
}

/// A URL opener that records what it is asked to open and answers as scripted (Linux, `holdfast device`, tests).
public final class RecordingURLOpener: URLOpener {
    private let state = Locked<[URL]>([])
    private let answer: Bool

    public init(answer: Bool = true) { self.answer = answer }

    /// The URLs opened, in order.
    public var opened: [URL] { state.withLock { $0 } }

    public func open(_ url: URL) async -> Bool {
        state.withLock { $0.append(url) }
        return answer
    }
}
