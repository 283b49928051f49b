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

// The value sets of HoldfastProtocol live in the repository root's package: their conformance to argument-parser's
// protocol is this command's own, and retroactive by design (the protocol module never depends on argument-parser).
extension SCAAccessProtection: KnownWireValue, @retroactive ExpressibleByArgument {}
extension PresentationProtocol: KnownWireValue, @retroactive ExpressibleByArgument {}
extension PresentationMode: KnownWireValue {}
extension ClientAttestationRequirement: KnownWireValue, @retroactive ExpressibleByArgument {}
extension IssuedCredentialStatus: KnownWireValue {}

/// `--reason` of `admin sca wallets lock`: the reasons a back end gives (`PIN_ATTEMPTS` is the tenant's own).
extension SCALockReason: @retroactive ExpressibleByArgument {
    public init?(argument: String) {
        guard let value = Self.backEnd.first(where: { $0.rawValue == argument }) else { return nil }
        self = value
    }

    public static var allValueStrings: [String] { backEnd.map(\.rawValue) }
    public var defaultValueDescription: String { rawValue }
}
