/// A command that cannot go on, in one line a person can act on (the listening address is taken, a benchmark or
/// demo step got an answer it should not, an input cannot be read): `holdfast` prints it and exits 1, or 65 where
/// the command turns it into a `DataError` (exit statuses: `Holdfast`, README "The `holdfast` command").
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
