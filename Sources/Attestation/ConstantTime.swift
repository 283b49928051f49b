/// Comparison of secrets and of the values that prove them (attestation challenges, MACs, key hashes) in time that
/// does not depend on where they differ. Public: the server compares its own secrets with it too.
public enum ConstantTime {
    /// Compares without an early exit, so timing does not reveal the length of a matching prefix.
    public static func equal(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(lhs, rhs) { difference |= a ^ b }
        return difference == 0
    }
}
