import ArgumentParser
import Foundation
import Testing
@testable import holdfast

/// Options that take a wire value set (docs/command-line.md "The `holdfast` command"): the help lists the values, a known one is taken as
/// typed, and any other is refused by the parser with the usage error (exit 64) before the command runs.
@Suite struct WireValueArgumentTests {
    static let element = ["--doc-type", "org.iso.18013.5.1.mDL", "--element", "org.iso.18013.5.1:family_name"]

    @Test func protectionTakesTheDocumentedValues() throws {
        for value in ["pin", "biometric", "none"] {
            let create = try SCACommand.Create.parse(["--application", "a", "--user", "u", "--protection", value])
            #expect(create.protection?.rawValue == value)
        }
        #expect(try SCACommand.Create.parse(["--application", "a", "--user", "u"]).protection == nil)
    }

    @Test func protectionRefusesAnyOtherValue() {
        for value in ["biometry", "PIN", ""] {
            do {
                _ = try SCACommand.Create.parse(["--application", "a", "--user", "u", "--protection", value])
                Issue.record("--protection \(value) was taken")
            } catch {
                #expect(SCACommand.Create.exitCode(for: error) == .validationFailure, "\(value)")
            }
        }
        #expect(SCACommand.Create.helpMessage(columns: 400).contains("pin, biometric, pinOrBiometric, none"))
    }

    @Test func lockReasonTakesOnlyABackEndsReason() throws {
        for value in ["LOST_DEVICE", "STOLEN_DEVICE", "FRAUD_SUSPICION", "OTHER"] {
            #expect(try SCACommand.Lock.parse(["w", "--reason", value]).reason.rawValue == value)
        }
        #expect(try SCACommand.Lock.parse(["w"]).reason == .other)
        for value in ["PIN_ATTEMPTS", "lost_device", ""] {
            do {
                _ = try SCACommand.Lock.parse(["w", "--reason", value])
                Issue.record("--reason \(value) was taken")
            } catch {
                #expect(SCACommand.Lock.exitCode(for: error) == .validationFailure, "\(value)")
            }
        }
    }

    @Test func credentialStatusTakesTheDocumentedValues() throws {
        for value in ["revoked", "suspended", "valid"] {
            #expect(try CredentialsCommand.Status.parse(["c", value]).status.rawValue == value)
        }
        for value in ["REVOKED", "invalid", ""] {
            do {
                _ = try CredentialsCommand.Status.parse(["c", value])
                Issue.record("status \(value) was taken")
            } catch {
                #expect(CredentialsCommand.Status.exitCode(for: error) == .validationFailure, "\(value)")
            }
        }
        #expect(CredentialsCommand.Status.helpMessage(columns: 400).contains("valid, suspended, revoked"))
    }

    @Test func protocolAndModeTakeTheDocumentedValues() throws {
        let defaults = try PresentationsCommand.Create.parse(Self.element)
        #expect(defaults.presentationProtocol.rawValue == "openid4vp-1.0" && defaults.mode.rawValue == "cross-device")
        let chosen = try PresentationsCommand.Create.parse(Self.element + ["--protocol", "18013-7-2024", "--mode", "same-device"])
        #expect(chosen.presentationProtocol.rawValue == "18013-7-2024" && chosen.mode.rawValue == "same-device")
    }

    @Test func protocolAndModeRefuseAnyOtherValue() {
        for arguments in [["--protocol", "openid4vp"], ["--protocol", "18013-7"], ["--mode", "same_device"], ["--mode", "proximity"]] {
            do {
                _ = try PresentationsCommand.Create.parse(Self.element + arguments)
                Issue.record("\(arguments) was taken")
            } catch {
                #expect(PresentationsCommand.Create.exitCode(for: error) == .validationFailure, "\(arguments)")
            }
        }
        let help = PresentationsCommand.Create.helpMessage(columns: 400)
        #expect(help.contains("openid4vp-1.0, 18013-7-2024") && help.contains("cross-device, same-device"))
    }
}

/// `--client-attestation` of `admin credentials configurations create` (docs/server-api.md "Credentials"): the two values, no other.
@Suite struct ClientAttestationArgumentTests {
    @Test func clientAttestationTakesRequiredOrOptional() throws {
        for value in ["required", "optional"] {
            let create = try CredentialsCommand.Configurations.Create.parse(["{}", "--client-attestation", value])
            #expect(create.clientAttestation?.rawValue == value)
        }
        #expect(try CredentialsCommand.Configurations.Create.parse(["{}"]).clientAttestation == nil)
        do {
            _ = try CredentialsCommand.Configurations.Create.parse(["{}", "--client-attestation", "sometimes"])
            Issue.record("--client-attestation sometimes was taken")
        } catch {
            #expect(CredentialsCommand.Configurations.Create.exitCode(for: error) == .validationFailure)
        }
    }
}
