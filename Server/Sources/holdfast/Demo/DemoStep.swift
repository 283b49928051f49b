import HoldfastAdmin

/// One step of `holdfast demo`: what it does, why, and what came out.
struct DemoStep: Sendable, Equatable {
    enum Outcome: String, Sendable {
        case passed
        case failed
    }

    /// A named fact the step learned (an id, an expiry, an error code).
    struct Detail: Sendable, Equatable {
        let name: String
        let value: String

        init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// A stable identifier, for tests and scripts.
    let id: String
    let number: Int
    let title: String
    let explanation: String
    let outcome: Outcome
    let details: [Detail]

    func detail(_ name: String) -> String? {
        details.first { $0.name == name }?.value
    }
}

extension CommandFailure {
    /// A typed admin call of a demo step, whose refusal reads as the step's failure (`what: HTTP <status>`).
    static func demoStep<T>(_ what: String, _ call: () async throws -> T) async throws -> T {
        do {
            return try await call()
        } catch let failure as AdminClient.Failure {
            throw CommandFailure(.failure, "\(what): HTTP \(failure.status)")
        }
    }
}
