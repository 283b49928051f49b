import Foundation
import OpenID4VCI
import Testing

/// OpenID4VCI 1.0 §4.1.1 `tx_code.input_mode`: `numeric` and `text` are its cases; an offer with a mode this version
/// does not name still decodes and is written back unchanged.
@Suite struct TransactionCodeInputModeTests {
    static func offer(inputMode: String) -> String {
        #"{"credential_issuer":"https://issuer.example","credential_configuration_ids":["c"],"grants":{"urn:ietf:params:oauth:grant-type:pre-authorized_code":{"pre-authorized_code":"p","tx_code":{"input_mode":"\#(inputMode)","length":6}}}}"#
    }

    @Test func theModesAreItsCases() throws {
        #expect(CredentialOffer.TransactionCode.InputMode.all.map(\.rawValue) == ["numeric", "text"])
        for mode in ["numeric", "text"] {
            let offer = try CredentialOffer.decode(Data(Self.offer(inputMode: mode).utf8))
            #expect(offer.grants?.preAuthorizedCode?.txCode?.inputMode?.known?.rawValue == mode)
        }
    }

    @Test func anUnknownModeIsKept() throws {
        let offer = try CredentialOffer.decode(Data(Self.offer(inputMode: "alphanumeric").utf8))
        let mode = try #require(offer.grants?.preAuthorizedCode?.txCode?.inputMode)
        #expect(mode.rawValue == "alphanumeric" && mode.known == nil)
        #expect(String(decoding: try offer.encoded(), as: UTF8.self).contains(#""input_mode":"alphanumeric""#))
    }
}
