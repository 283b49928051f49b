import ArgumentParser
import Foundation
import HoldfastProtocol
import HoldfastSDK
import HoldfastServer

/// The exit statuses of `holdfast` (docs/command-line.md "Exit codes"), after sysexits(3). 0 is success.
enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Anything else: an internal failure, a port already taken; `attest`: the object did not verify; `demo`: a step
    /// failed.
    case failure = 1
    /// `EX_USAGE`: the command line is wrong (an unknown or missing option, a malformed value); the usage is printed.
    case usage = 64
    /// `EX_DATAERR`: the command line was right and its data was not — JSON that does not decode, a file that cannot
    /// be read, an input `inspect` cannot read, a request the tenant, an issuer or a verifier refused (a 4xx answer
    /// or a service's refusal).
    case dataError = 65
    /// `EX_UNAVAILABLE`: the database, the tenant, an issuer or a verifier could not be reached or said it is
    /// unavailable (`DATABASE_UNAVAILABLE`, `NETWORK_ERROR`, a 5xx or 429 answer).
    case unavailable = 69

    /// The status for a problem a server service raised (the admin commands call them directly).
    init(problemStatus code: Int) {
        switch code {
        case 429, 502, 503, 504: self = .unavailable
        case 400..<500: self = .dataError
        default: self = .failure
        }
    }

    /// The status for an SDK error (the `device` commands): an answer by its HTTP status, no answer as unavailable,
    /// input the SDK refused as a data error.
    init(code: String, httpStatus: Int?) {
        if let httpStatus {
            self.init(problemStatus: httpStatus >= 500 ? 503 : httpStatus)
        } else if code == HoldfastErrorCode.networkError.rawValue {
            self = .unavailable
        } else if [HoldfastErrorCode.validationFailed, .invalidJSON, .badRequest].map(\.rawValue).contains(code) {
            self = .dataError
        } else {
            self = .failure
        }
    }

    /// What a command throws to end with this status after printing its own outcome (`attest`, `demo`):
    /// ArgumentParser's `ExitCode`, which `Holdfast.main` hands back to ArgumentParser.
    var exitCode: ExitCode { ExitCode(rawValue) }

    /// Ends the process with status 0 (success) where no command returns: the shutdown watchdog
    /// (docs/operations.md "Configuration", `HOLDFAST_SHUTDOWN_DEADLINE_SECS`).
    static func exitSucceeded() -> Never {
        Foundation.exit(EXIT_SUCCESS)
    }

    /// Ends the process as ArgumentParser reports `error` itself: a usage error with the usage (64), `--help` (0), or
    /// the status of an `ExitCode` a command threw (`exitCode`).
    static func exit(reportedByArgumentParser error: any Error) -> Never {
        Holdfast.exit(withError: error)
    }
}

/// A command that failed: one line on standard error, `error: <message> (<CODE>)`, and an exit status of
/// `ExitStatus` (docs/command-line.md "Exit codes"). Every failure but a usage error goes this way (`Holdfast.main`).
struct CommandFailure: Error, CustomStringConvertible, Sendable {
    let status: ExitStatus
    let message: String
    /// The stable code (`HoldfastErrorCode`), when the failure has one.
    let code: String?

    init(_ status: ExitStatus, _ message: String, code: String? = nil) {
        self.status = status
        self.message = message
        self.code = code
    }

    /// A problem a server service raised: each invalid field with its JSON path (a field without a path by its detail
    /// alone), after the problem's detail unless that detail only lists the same fields; without fields, the detail.
    init(_ problem: any ProblemConvertible, context: String? = nil) {
        let errors = problem.problemFieldErrors
        let fields = errors.map { $0.field.isEmpty ? $0.detail : "\($0.field): \($0.detail)" }
        let detail = problem.problemDetail ?? problem.problemTitle
        let listsTheFields = detail == errors.map { "\($0.field): \($0.detail)" }.joined(separator: "; ")
        let text = ((fields.isEmpty || !listsTheFields ? [detail] : []) + fields).joined(separator: "; ")
        self.init(ExitStatus(problemStatus: problem.problemStatus.code), context.map { "\($0): \(text)" } ?? text,
                  code: problem.problemCode.rawValue)
    }

    /// An error of the SDK.
    init(_ error: HoldfastError) {
        self.init(ExitStatus(code: error.code.rawValue, httpStatus: error.httpStatus), error.message, code: error.code.rawValue)
    }

    var description: String { message }

    /// The one line on standard error.
    var line: String { "error: \(message)" + (code.map { " (\($0))" } ?? "") }

    /// The failure `error` stands for; nil for what ArgumentParser reports itself: a usage error (with the usage),
    /// `--help`, or an `ExitCode` a command throws after printing its own outcome.
    static func from(_ error: any Error) -> CommandFailure? {
        switch error {
        case let failure as CommandFailure: return failure
        case let problem as any ProblemConvertible: return CommandFailure(problem)
        case let error as HoldfastError: return CommandFailure(error)
        case is ExitCode, is ValidationError, is CleanExit: return nil
        default:
            // ArgumentParser's own errors (a wrong command line) have a status of their own; anything else is 1.
            guard Holdfast.exitCode(for: error) == ExitStatus.failure.exitCode else { return nil }
            return CommandFailure(.failure, String(describing: error))
        }
    }

    /// Prints the line and ends the process with the status.
    func exit() -> Never {
        FileHandle.standardError.write(Data((line + "\n").utf8))
        Foundation.exit(status.rawValue)
    }
}
