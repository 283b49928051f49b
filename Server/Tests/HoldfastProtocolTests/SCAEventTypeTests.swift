import Foundation
import HoldfastProtocol
import JOSE
import Testing

/// The SCA feed's event types (docs/server-api.md "SCA wallet (back end)"): one declaration for the tenant and the device, and
/// a type a newer tenant sends still decodes.
@Suite struct SCAEventTypeTests {
    @Test func everyTypeRoundTripsAndAnUnknownOneIsKept() throws {
        #expect(Set(SCAEventType.all).count == SCAEventType.all.count)
        for type in SCAEventType.all + ["cardFrozen"] {
            let event = SCAEvent(id: 1, type: type, data: .object([:]), createdAt: Date(timeIntervalSince1970: 1_800_000_000))
            let decoded = try HoldfastJSON.decode(SCAEvent.self, from: try HoldfastJSON.encode(event))
            #expect(decoded.type == type && decoded.type.rawValue == type.rawValue)
        }
        let wire = try HoldfastJSON.encode(SCAEvent(id: 2, type: .countersUpdated, data: .object([:]), createdAt: Date(timeIntervalSince1970: 0)))
        #expect(String(decoding: wire, as: UTF8.self).contains(#""type":"countersUpdated""#))
    }
}
