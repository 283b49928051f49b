import ArgumentParser
import HoldfastAdmin
import HoldfastProtocol

/// The wire's value sets as command-line values: the help lists them, and the parser refuses any other (exit 64)
/// before a command runs. Their types decode unknown values from the wire; the command line only takes known ones.
protocol KnownWireValue: ExpressibleByArgument, RawRepresentable<String>, CustomStringConvertible {
    static var all: [Self] { get }
}

extension KnownWireValue {
    public init?(argument: String) {
        guard let value = Self.all.first(where: { $0.rawValue == argument }) else { return nil }
        self = value
    }

    public static var allValueStrings: [String] { all.map(\.rawValue) }
    public var defaultValueDescription: String { rawValue }
}

extension SCAAccessProtection: KnownWireValue {}
extension PresentationProtocol: KnownWireValue {}
extension PresentationMode: KnownWireValue {}
extension ClientAttestationRequirement: KnownWireValue {}
extension IssuedCredentialStatus: KnownWireValue {}

/// `--reason` of `admin sca wallets lock`: the reasons a back end gives (`PIN_ATTEMPTS` is the tenant's own).
extension SCALockReason: ExpressibleByArgument {
    public init?(argument: String) {
        guard let value = Self.backEnd.first(where: { $0.rawValue == argument }) else { return nil }
        self = value
    }

    public static var allValueStrings: [String] { backEnd.map(\.rawValue) }
    public var defaultValueDescription: String { rawValue }
}
