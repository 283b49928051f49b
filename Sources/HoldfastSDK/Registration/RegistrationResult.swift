/// The outcome of `MobileCredentialHolder.registerDevice()` (DESIGN.md §1 R).
public enum RegistrationResult: Sendable, Hashable {
    /// This call registered the device.
    case registered(instanceId: String)
    /// This call registered the device and the tenant waits for an admin's approval.
    case pending(instanceId: String)
    /// The device was registered before; nothing was sent.
    case alreadyRegistered(instanceId: String)

    public var instanceId: String {
        switch self {
        case .registered(let id), .pending(let id), .alreadyRegistered(let id): id
        }
    }
}
