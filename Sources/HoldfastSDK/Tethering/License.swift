import Foundation

/// The instance's offline license (DESIGN.md §1 T): the token the tenant signed and when it expires (on the tenant's
/// clock).
public struct License: Sendable, Hashable {
    public let token: String
    public let expiresAt: Date
}
