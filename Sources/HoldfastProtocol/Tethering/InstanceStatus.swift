/// The state of an instance (docs/server-api.md "Registration wire format", step 5): `registered`, or `pending` while an admin has to approve it
/// (applications configured for manual approval), or `rejected`.
public enum InstanceStatus: String, Codable, Sendable, Hashable, CaseIterable {
    case registered
    case pending
    case rejected
}
