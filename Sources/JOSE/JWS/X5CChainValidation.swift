/// An `X5CChainValidator` made from a closure.
public struct X5CChainValidation: X5CChainValidator {
    private let body: @Sendable ([[UInt8]], JOSEHeader) async throws -> Void

    public init(_ body: @escaping @Sendable (_ chain: [[UInt8]], _ header: JOSEHeader) async throws -> Void) {
        self.body = body
    }

    public func validate(chain: [[UInt8]], header: JOSEHeader) async throws {
        try await body(chain, header)
    }
}
