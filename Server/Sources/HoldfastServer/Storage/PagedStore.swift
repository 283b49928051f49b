import SQLKit

/// A store whose list is read a page at a time (keyset pagination, `KeysetCursor`): the one page query the paged
/// lists' stores share (`HolderApplicationStore`, `InstanceStore`, `IssuanceStore`'s issued credentials).
protocol PagedStore {}

extension PagedStore {
    /// One page of `query` in `(timeColumn, id)` order after `cursor`: at most `limit` rows, and the cursor of the
    /// last one when more follow. `query` selects the table with any filters of its own.
    static func page(_ query: SQLSelectBuilder, timeColumn: String, after cursor: KeysetCursor?,
                     limit: Int) async throws -> (rows: [any SQLRow], nextCursor: String?) {
        if let cursor {
            query.where(group: {
                $0.where(SQLIdentifier(timeColumn), .greaterThan, SQLBind(cursor.time))
                    .orWhere(group: {
                        $0.where(SQLIdentifier(timeColumn), .equal, SQLBind(cursor.time)).where("id", .greaterThan, cursor.id)
                    })
            })
        }
        let rows = try await query.orderBy(timeColumn).orderBy("id").limit(limit + 1).all()
        let page = Array(rows.prefix(limit))
        guard rows.count > limit, let last = page.last else { return (page, nil) }
        let next = KeysetCursor(time: try last.decode(column: timeColumn, as: Int64.self),
                                id: try last.decode(column: "id", as: String.self))
        return (page, next.encoded)
    }
}
