#if canImport(UIKit) && os(iOS)
import UIKit

/// The app's URL opener on iOS: `UIApplication.open(_:options:)` on the main actor.
public struct ApplicationURLOpener: URLOpener {
    public init() {}

    public func open(_ url: URL) async -> Bool {
        await UIApplication.shared.open(url)
    }
}
#elseif canImport(AppKit) && os(macOS)
import AppKit

/// The app's URL opener on macOS: `NSWorkspace.open(_:)`.
public struct ApplicationURLOpener: URLOpener {
    public init() {}

    public func open(_ url: URL) async -> Bool {
        await MainActor.run { NSWorkspace.shared.open(url) }
    }
}
#endif
