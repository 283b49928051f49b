import Foundation
import HoldfastAdmin
import HoldfastProtocol

/// Credential configurations (docs/server-api.md "Credentials"): the mDocs the tenant issues, listed in its issuer metadata as
/// `credential_configurations_supported` (OpenID4VCI 1.0 §12.2.4). Create, list, get, delete; a configuration is
/// not changed in place (offers and issued credentials name it).
public struct CredentialConfigurationService: Sendable {
    public static let defaultValidForDays = 365
    static let maximumValidForDays = 3_650
    static let maximumIDLength = 64
    static let maximumTextLength = 256

    let store: IssuanceStore
    /// Draws the ids of configurations created without one.
    let random: any RandomSource

    /// Validates and stores `request` with its defaults filled in; `CONFLICT` when its `id` is taken.
    public func create(_ request: CredentialConfiguration, now: Date) async throws -> CredentialConfiguration {
        var configuration = try Self.validated(request)
        configuration.id = request.id ?? random.identifier()
        guard let stored = try await store.insertConfiguration(configuration, createdAt: now) else {
            throw IssuanceError.configurationExists(id: configuration.id ?? "")
        }
        return stored
    }

    /// Every configuration, oldest first.
    public func list() async throws -> CredentialConfigurationList {
        CredentialConfigurationList(data: try await store.configurations())
    }

    /// One configuration, or `NOT_FOUND`.
    public func get(id: String) async throws -> CredentialConfiguration {
        guard let found = try await find(id: id) else { throw Self.notFound(id) }
        return found
    }

    /// The configuration; nil when there is none.
    func find(id: String) async throws -> CredentialConfiguration? {
        guard Self.isValidID(id) else { return nil }
        return try await store.configuration(id: id)
    }

    /// The configuration, read in `transaction`; nil when there is none.
    func find(id: String, in transaction: IssuanceStore.Transaction) async throws -> CredentialConfiguration? {
        guard Self.isValidID(id) else { return nil }
        return try await transaction.configuration(id: id)
    }

    /// Deletes a configuration: no offer of it can be redeemed afterwards; what was issued stays listed.
    public func delete(id: String) async throws {
        guard Self.isValidID(id), try await store.deleteConfiguration(id: id) else { throw Self.notFound(id) }
    }

    static func notFound(_ id: String) -> IssuanceError {
        .configurationNotFound(id: id)
    }

    /// Letters, digits, `.`, `_` and `-`, 1 to 64 of them: safe in a URL, a file name and a metadata key.
    static func isValidID(_ id: String) -> Bool {
        (1...maximumIDLength).contains(id.utf8.count)
            && id.utf8.allSatisfy { $0.isASCIILetterOrDigit || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    static func validated(_ request: CredentialConfiguration) throws -> CredentialConfiguration {
        var errors: [ProblemDetails.FieldError] = []
        func fail(_ field: String, _ code: String, _ detail: String) {
            errors.append(ProblemDetails.FieldError(field: field, code: code, detail: detail))
        }
        func text(_ value: String?, _ field: String, maximum: Int = maximumTextLength, required: Bool = false) {
            guard let value else {
                if required { fail(field, ProblemDetails.FieldError.required, "the field is required") }
                return
            }
            if value.isEmpty {
                fail(field, ProblemDetails.FieldError.invalidValue, "must not be empty")
            } else if value.unicodeScalars.count > maximum {
                fail(field, ProblemDetails.FieldError.tooLong, "at most \(maximum) characters")
            }
        }
        if let id = request.id, !isValidID(id) {
            fail("id", ProblemDetails.FieldError.invalidValue, "1 to \(maximumIDLength) letters, digits, '.', '_' or '-'")
        }
        text(request.docType, "docType", required: true)
        if let spaces = request.nameSpaces {
            if spaces.isEmpty || spaces.count > 64 { fail("nameSpaces", ProblemDetails.FieldError.invalidValue, "1 to 64 namespaces") }
            for (name, elements) in spaces.sorted(by: { $0.key < $1.key }) {
                text(name, "nameSpaces")
                if elements.isEmpty || elements.count > 1_024 {
                    fail("nameSpaces.\(name)", ProblemDetails.FieldError.invalidValue, "1 to 1,024 elements")
                }
                if Set(elements).count != elements.count {
                    fail("nameSpaces.\(name)", ProblemDetails.FieldError.notUnique, "an element is listed twice")
                }
                for element in elements { text(element, "nameSpaces.\(name)") }
            }
        }
        text(request.display.name, "display.name", required: true)
        text(request.display.description, "display.description", maximum: 1_024)
        text(request.display.backgroundColor, "display.backgroundColor", maximum: 64)
        text(request.display.textColor, "display.textColor", maximum: 64)
        if let logo = request.display.logoUri {
            if logo.unicodeScalars.count > 2_048 || !Self.hasScheme(logo) {
                fail("display.logoUri", ProblemDetails.FieldError.invalidValue, "an absolute URI of at most 2,048 characters")
            }
        }
        let days = request.validForDays ?? defaultValidForDays
        if !(1...maximumValidForDays).contains(days) {
            fail("validForDays", ProblemDetails.FieldError.outOfRange, "1 to \(maximumValidForDays)")
        }
        if let requirement = request.clientAttestation, !requirement.isKnown {
            fail("clientAttestation", ProblemDetails.FieldError.invalidValue,
                 "one of \(ClientAttestationRequirement.all.map(\.rawValue).joined(separator: ", "))")
        }
        guard errors.isEmpty else { throw ProblemError.validation(errors) }
        var configuration = request
        // Read-only: set by `create`.
        configuration.createdAt = nil
        configuration.validForDays = days
        configuration.revocable = request.revocable ?? true
        configuration.clientAttestation = request.clientAttestation ?? .required
        return configuration
    }
}

extension CredentialConfigurationService {
    /// RFC 3986 §3.1: an absolute URI starts with `scheme ":"`, `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
    static func hasScheme(_ uri: String) -> Bool {
        guard let colon = uri.utf8.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let scheme = uri.utf8[..<colon]
        guard let first = scheme.first, first.isASCIILetterOrDigit, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            return false
        }
        return scheme.allSatisfy { $0.isASCIILetterOrDigit || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
    }
}

extension UInt8 {
    var isASCIILetterOrDigit: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}
