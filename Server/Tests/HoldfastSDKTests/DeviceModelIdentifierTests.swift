@testable import HoldfastSDK
import Testing

/// The model identifier read with `sysctlbyname` (`DeviceModelIdentifier`).
struct DeviceModelIdentifierTests {
    @Test func cStringIsReadUpToItsNul() {
        #expect(DeviceModelIdentifier.parse(Array("iPhone16,2".utf8) + [0]) == "iPhone16,2")
        #expect(DeviceModelIdentifier.parse(Array("Mac14,7".utf8) + [0, 0x41, 0x42]) == "Mac14,7")
        #expect(DeviceModelIdentifier.parse(Array("iPad13,4".utf8)) == "iPad13,4")
    }

    @Test func nothingUsableIsNil() {
        #expect(DeviceModelIdentifier.parse([]) == nil)
        #expect(DeviceModelIdentifier.parse([0]) == nil)
        #expect(DeviceModelIdentifier.parse([0, 0x41]) == nil)
        #expect(DeviceModelIdentifier.parse(Array("   ".utf8) + [0]) == nil)
        #expect(DeviceModelIdentifier.parse([0x69, 0x0A, 0]) == nil)
        #expect(DeviceModelIdentifier.parse([0x69, 0xC3, 0xA9, 0]) == nil)
        #expect(DeviceModelIdentifier.parse([UInt8](repeating: 0x41, count: 257)) == nil)
    }

    @Test func surroundingSpacesAreTrimmed() {
        #expect(DeviceModelIdentifier.parse(Array(" iPhone16,2 ".utf8) + [0]) == "iPhone16,2")
    }

    @Test func macOSNamesTheModelInHwModel() {
        #expect(DeviceModelIdentifier.sysctlName(isMacOS: false) == "hw.machine")
        #expect(DeviceModelIdentifier.sysctlName(isMacOS: true) == "hw.model")
    }

    @Test func simulatorReportsTheSimulatedModel() {
        #expect(DeviceModelIdentifier.model(sysctlValue: "arm64", simulatorModelIdentifier: "iPhone16,2") == "iPhone16,2")
        #expect(DeviceModelIdentifier.model(sysctlValue: "iPhone16,2", simulatorModelIdentifier: nil) == "iPhone16,2")
        #expect(DeviceModelIdentifier.model(sysctlValue: "iPhone16,2", simulatorModelIdentifier: "") == "iPhone16,2")
        #expect(DeviceModelIdentifier.model(sysctlValue: nil, simulatorModelIdentifier: nil) == nil)
    }
}
