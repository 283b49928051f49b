/// Thrown after a failed step has been recorded.
struct DemoStopped: Error {}

/// Collects the demo's steps in order and hands each to the caller as it ends.
actor DemoRecorder {
    private(set) var steps: [DemoStep] = []
    private let onStep: @Sendable (DemoStep) async -> Void

    init(onStep: @escaping @Sendable (DemoStep) async -> Void) {
        self.onStep = onStep
    }

    /// Runs a step whose work returns only details.
    func step(_ id: String, _ title: String, _ explanation: String,
              _ work: @Sendable () async throws -> [DemoStep.Detail]) async throws {
        _ = try await stepProducing(id, title, explanation) { ((), try await work()) }
    }

    /// Runs a step whose work returns a value for later steps and its details; a thrown error fails the step.
    func stepProducing<T: Sendable>(_ id: String, _ title: String, _ explanation: String,
                           _ work: @Sendable () async throws -> (T, [DemoStep.Detail])) async throws -> T {
        let number = steps.count + 1
        do {
            let (value, details) = try await work()
            await record(DemoStep(id: id, number: number, title: title, explanation: explanation, outcome: .passed,
                                  details: details))
            return value
        } catch {
            await record(DemoStep(id: id, number: number, title: title, explanation: explanation, outcome: .failed,
                                  details: [.init("error", String(describing: error))]))
            throw DemoStopped()
        }
    }

    private func record(_ step: DemoStep) async {
        steps.append(step)
        await onStep(step)
    }
}
