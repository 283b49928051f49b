/// The tests share state between tasks with the package's one lock type, `Plumbing.Locked`; re-exported so that
/// every test target importing `TestSupport` has it.
@_exported import Plumbing
