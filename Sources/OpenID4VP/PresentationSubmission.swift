/// DIF Presentation Exchange 2.0 §6 — the `presentation_submission` of an ISO/IEC TS 18013-7:2024 B.4.3 response: which
/// input descriptor of the `presentation_definition` each presented document answers.
public struct PresentationSubmission: Codable, Sendable, Hashable {
    public var id: String
    public var definitionId: String
    public var descriptorMap: [Descriptor]

    public init(id: String, definitionId: String, descriptorMap: [Descriptor]) {
        self.id = id
        self.definitionId = definitionId
        self.descriptorMap = descriptorMap
    }

    enum CodingKeys: String, CodingKey {
        case id
        case definitionId = "definition_id"
        case descriptorMap = "descriptor_map"
    }

    /// §6 `descriptor_map` entry: the input descriptor's id, the format, and where in the `vp_token` it is.
    public struct Descriptor: Codable, Sendable, Hashable {
        public var id: String
        public var format: String
        public var path: String

        public init(id: String, format: String, path: String) {
            self.id = id
            self.format = format
            self.path = path
        }
    }
}
