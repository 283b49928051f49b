import ArgumentParser
@testable import holdfast
import Testing

/// docs/command-line.md "The `holdfast` command": the device flags may be written before the subcommand's name or after it, and the
/// parser refuses a missing required one (exit 64, with the usage).
@Suite struct DeviceArgumentsTests {
    @Test func flagsBeforeTheSubcommandsNameAreMovedAfterIt() throws {
        let written = ["--state", "S", "--tenant", "T", "--application", "A", "sca", "provision", "--activation-code", "C"]
        #expect(DeviceArguments.normalized(written)
                == ["sca", "provision", "--state", "S", "--tenant", "T", "--application", "A", "--activation-code", "C"])
        let provision = try #require(try DeviceCommand.parseAsRoot(DeviceArguments.normalized(written)) as? DeviceSCA.Provision)
        #expect(provision.options.stateDirectory == "S" && provision.options.tenant == "T" && provision.options.applicationId == "A")
        #expect(DeviceArguments.normalized(["--state=S", "credentials", "list", "--json"]) == ["credentials", "list", "--state=S", "--json"])
        #expect(DeviceArguments.normalized(["register", "--state", "S"]) == ["register", "--state", "S"])
    }

    @Test func aMissingRequiredFlagIsRefusedByTheParser() {
        for arguments in [["--state", "S", "status"], ["--state", "S", "--application", "A", "renew"],
                          ["--state", "S", "--tenant", "T", "sca", "events"], ["status", "--application", "A"]] {
            do {
                _ = try DeviceCommand.parseAsRoot(DeviceArguments.normalized(arguments))
                Issue.record("\(arguments) parsed")
            } catch {
                #expect(DeviceCommand.exitCode(for: error) == .validationFailure, "\(arguments)")
                #expect(DeviceCommand.fullMessage(for: error).contains("Missing expected argument"), "\(arguments)")
            }
        }
        #expect(throws: Never.self) { try DeviceCommand.parseAsRoot(DeviceArguments.normalized(["--state", "S", "offer", "uri"])) }
    }

    /// docs/command-line.md "The `holdfast` command": `present --keep-open` leaves a verifier's session open when nothing matches;
    /// beside `--decline`, which ends it, it is a usage error.
    @Test func keepOpenIsParsedAndRefusedBesideDecline() throws {
        let parsed = try #require(try DeviceCommand.parseAsRoot(["present", "--state", "S", "openid4vp://?request_uri=x", "--keep-open"]) as? DevicePresent)
        #expect(parsed.keepOpen && !parsed.decline)
        #expect(try #require(try DeviceCommand.parseAsRoot(["present", "--state", "S", "openid4vp://?request_uri=x"]) as? DevicePresent).keepOpen == false)
        do {
            _ = try DeviceCommand.parseAsRoot(["present", "--state", "S", "openid4vp://?request_uri=x", "--keep-open", "--decline"])
            Issue.record("--keep-open --decline parsed")
        } catch {
            #expect(DeviceCommand.exitCode(for: error) == .validationFailure)
            #expect(DeviceCommand.fullMessage(for: error).contains("--keep-open and --decline contradict each other"))
        }
    }

    /// docs/sdk.md "Holder: status": `present --unknown-status` spells the policy; allowIfCheckedWithin needs its seconds.
    @Test func theUnknownStatusPolicyIsParsed() throws {
        func parsed(_ extra: [String]) throws -> DevicePresent {
            try #require(try DeviceCommand.parseAsRoot(["present", "--state", "S", "openid4vp://?request_uri=x"] + extra) as? DevicePresent)
        }
        #expect(try parsed([]).unknownStatus == .allowWithWarning)
        #expect(try parsed(["--unknown-status", "exclude"]).unknownStatus == .exclude)
        let within = try parsed(["--unknown-status", "allowIfCheckedWithin", "--checked-within", "600"])
        #expect(within.unknownStatus == .allowIfCheckedWithin && within.checkedWithin == 600)
        for arguments in [["--unknown-status", "allowIfCheckedWithin"], ["--unknown-status", "sometimes"]] {
            do {
                _ = try DeviceCommand.parseAsRoot(["present", "--state", "S", "openid4vp://?request_uri=x"] + arguments)
                Issue.record("\(arguments) parsed")
            } catch {
                #expect(DeviceCommand.exitCode(for: error) == .validationFailure, "\(arguments)")
            }
        }
    }

    /// docs/command-line.md "The `holdfast` command": `present-digital` takes the page's `--origin` and the request, and
    /// shares `present`'s choices (`--yes`, `--decline`, `--select`, `--unknown-status`).
    @Test func presentDigitalIsParsedWithItsOriginAndPresentsChoices() throws {
        let parsed = try #require(try DeviceCommand.parseAsRoot(["present-digital", "--state", "S", "--origin", "https://shop.example", "@r.json",
                                                                 "--yes", "--select", "c-1"]) as? DevicePresentDigital)
        #expect(parsed.origin == "https://shop.example" && parsed.request == "@r.json")
        #expect(parsed.choices.yes && !parsed.choices.decline && parsed.choices.select == ["c-1"])
        // The device flags may come before the subcommand's name.
        let moved = try #require(try DeviceCommand.parseAsRoot(DeviceArguments.normalized(
            ["--state", "S", "present-digital", "--origin", "https://shop.example", "-", "--decline"])) as? DevicePresentDigital)
        #expect(moved.options.stateDirectory == "S" && moved.choices.decline && moved.request == "-")
        do {
            _ = try DeviceCommand.parseAsRoot(["present-digital", "--state", "S", "@r.json"])
            Issue.record("present-digital without --origin parsed")
        } catch {
            #expect(DeviceCommand.exitCode(for: error) == .validationFailure)
        }
    }
}
