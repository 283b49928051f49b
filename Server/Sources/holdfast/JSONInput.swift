import ArgumentParser
import Foundation
import HoldfastServer

/// How every command takes JSON (docs/command-line.md "The `holdfast` command"): the text itself, `@path` for the contents of a
/// file, or `-` for standard input. None of the three can be mistaken for another: JSON never starts with `@`, and
/// `-` alone is not JSON.
struct JSONInput: ExpressibleByArgument, Sendable {
    enum Source: Sendable, Equatable {
        case text(String)
        case file(path: String)
        case standardInput
    }

    let source: Source

    init(_ source: Source) {
        self.source = source
    }

    init(argument: String) {
        if argument == "-" {
            source = .standardInput
        } else if argument.hasPrefix("@") {
            source = .file(path: String(argument.dropFirst()))
        } else {
            source = .text(argument)
        }
    }

    static var defaultCompletionKind: CompletionKind { .file() }

    /// The JSON text's bytes. A file that cannot be read is a data error.
    func data() throws(CommandFailure) -> Data {
        switch source {
        case .text(let text):
            return Data(text.utf8)
        case .standardInput:
            return FileHandle.standardInput.readDataToEndOfFile()
        case .file(let path):
            do {
                return try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw CommandFailure(.dataError, "cannot read \(path): \((error as NSError).localizedDescription)")
            }
        }
    }

    /// Decodes `T` as the API decodes its request bodies (`JSONFieldErrors`): what is not JSON, or not of `T`'s
    /// shape, is a data error naming every invalid field with its JSON path.
    ///
    /// Text that is not JSON but names a file that exists is most likely a file given without its `@`: the failure
    /// says so (`did you mean @app.json?`).
    func decode<T: Decodable>(_ type: T.Type, what: String) throws(CommandFailure) -> T {
        let data = try data()
        do {
            return try JSONFieldErrors.decode(type, from: data)
        } catch {
            let failure = CommandFailure(error, context: "not a valid \(what)")
            guard let hint = fileHint, error.problemCode == .invalidJSON else { throw failure }
            throw CommandFailure(failure.status, failure.message + "; \(hint)", code: failure.code)
        }
    }

    /// `did you mean @path?` when the text given is the path of a file that exists.
    var fileHint: String? {
        guard case .text(let text) = source else { return nil }
        let path = text.trimmingCharacters(in: .whitespacesAndNewlines)
        var isFolder: ObjCBool = false
        guard !path.isEmpty, !path.hasPrefix("{"), !path.hasPrefix("["),
              FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { return nil }
        return "did you mean @\(path)?"
    }
}

/// The JSON document a command takes as its argument — `applications create`, `credentials configurations create`,
/// `sca policies set`, `sca eligibility set`: `JSON`, `@file.json` or `-` (`JSONInput`). `--json TEXT` and
/// `--file PATH`, the older spellings of `applications create`, are still read.
struct JSONDocumentOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The JSON itself, @file.json, or - for standard input.", valueName: "json|@file|-"))
    var document: JSONInput?

    @Option(name: .customLong("json"), help: .hidden)
    var inlineJSON: String?

    @Option(name: .customLong("file"), help: .hidden)
    var file: String?

    func validate() throws {
        if [document != nil, inlineJSON != nil, file != nil].filter({ $0 }).count != 1 {
            throw ValidationError("give the JSON document: the JSON itself, @file.json or -")
        }
    }

    /// The one input given.
    var input: JSONInput {
        if let document { return document }
        if let inlineJSON { return JSONInput(.text(inlineJSON)) }
        return JSONInput(.file(path: file ?? ""))
    }
}
