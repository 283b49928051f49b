extension CBOR {
    /// Limits and choices for reading CBOR from untrusted input. The defaults are safe for documents of the size
    /// mobile credentials use.
    public struct DecodingOptions: Sendable, Hashable {
        /// Deepest nesting of arrays, maps and tags (the top-level item is depth 0).
        public var maximumDepth: Int
        /// Most data items in one input, counting every array element, key, value, tag and string chunk.
        public var maximumItemCount: Int
        /// Longest input accepted, in bytes.
        public var maximumInputLength: Int
        /// RFC 8949 §5.6: a map with the same key twice is not valid CBOR; rejected unless this is `false`.
        public var rejectsDuplicateMapKeys: Bool

        public init(maximumDepth: Int = 64, maximumItemCount: Int = 1 << 20,
                    maximumInputLength: Int = 64 << 20, rejectsDuplicateMapKeys: Bool = true) {
            self.maximumDepth = maximumDepth
            self.maximumItemCount = maximumItemCount
            self.maximumInputLength = maximumInputLength
            self.rejectsDuplicateMapKeys = rejectsDuplicateMapKeys
        }

        public static let `default` = DecodingOptions()
    }
}
