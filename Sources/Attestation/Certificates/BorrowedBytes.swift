/// A bounds-checked view of bytes owned by someone else, for readers that walk one encoding within a
/// `withUnsafeBufferPointer` scope and copy out whatever they keep.
///
/// An `ArraySlice` holds a reference to its array, so every copy of a parsed element (and the KeyDescription reader
/// makes hundreds per attestation) costs a retain and a release; this view holds a pointer and two indices and copies
/// as plain bytes. Every subscript checks its index, exactly as `ArraySlice` does, and traps rather than read outside
/// the bytes. It must not outlive the scope that lent the pointer: nothing that holds one is stored or returned from
/// that scope (parsed results hold arrays, strings and numbers).
struct BorrowedBytes: RandomAccessCollection {
    private let base: UnsafePointer<UInt8>?
    let startIndex: Int
    let endIndex: Int

    /// All of `buffer`, indexed from 0.
    init(_ buffer: UnsafeBufferPointer<UInt8>) {
        self.init(base: buffer.baseAddress, startIndex: 0, endIndex: buffer.count)
    }

    private init(base: UnsafePointer<UInt8>?, startIndex: Int, endIndex: Int) {
        self.base = base
        self.startIndex = startIndex
        self.endIndex = endIndex
    }

    subscript(position: Int) -> UInt8 {
        precondition(position >= startIndex && position < endIndex, "BorrowedBytes index out of range")
        return base.unsafelyUnwrapped[position]
    }

    /// The bytes in `bounds`, which must lie within these, with the same indices.
    subscript(bounds: Range<Int>) -> BorrowedBytes {
        precondition(bounds.lowerBound >= startIndex && bounds.upperBound <= endIndex, "BorrowedBytes range out of range")
        return BorrowedBytes(base: base, startIndex: bounds.lowerBound, endIndex: bounds.upperBound)
    }

    func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        try body(UnsafeBufferPointer(start: base.map { $0 + startIndex }, count: count))
    }

    /// The bytes, copied into an array of their own.
    var array: [UInt8] {
        withContiguousStorageIfAvailable { Array($0) } ?? []
    }
}
