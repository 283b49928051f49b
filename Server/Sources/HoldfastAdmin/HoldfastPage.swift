import HoldfastProtocol
/// A page of a list (`{data: [...], nextCursor}`): `nextCursor` is opaque and absent (`null`) on the last page.
public struct HoldfastPage<Item: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    public var data: [Item]
    public var nextCursor: String?

    public init(data: [Item], nextCursor: String?) {
        self.data = data
        self.nextCursor = nextCursor
    }

    private enum CodingKeys: String, CodingKey { case data, nextCursor }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(data, forKey: .data)
        // Written as `null` on the last page so that clients see the member.
        try container.encode(nextCursor, forKey: .nextCursor)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        data = try container.decode([Item].self, forKey: .data)
        nextCursor = try container.decodeIfPresent(String.self, forKey: .nextCursor)
    }
}

/// A page of instances.
public typealias InstancePage = HoldfastPage<InstanceListItem>
