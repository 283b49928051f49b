/// Something a verification accepted but a caller may want to log or show.
public enum AttestationWarning: String, Sendable, Hashable, Codable {
    /// A certificate of the chain was expired at the verification time; the policy accepts that.
    case certificateExpiredIgnored
}
