import HoldfastProtocol
import HoldfastSDK
import Testing

/// Runs `body` and returns the `HoldfastError` it threw, recording an issue when it threw nothing or something else.
@discardableResult
func expectHoldfastError(_ expected: HoldfastErrorCode, sourceLocation: SourceLocation = #_sourceLocation,
                         _ body: () async throws -> some Any) async -> HoldfastError? {
    do {
        let value = try await body()
        Issue.record("expected \(expected), got \(value)", sourceLocation: sourceLocation)
        return nil
    } catch let error as HoldfastError {
        #expect(error.code == expected, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected HoldfastError \(expected), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
