import Plumbing

/// A field of Holdfast's own wire whose values are a closed set in this version but open on the wire (the way
/// `HoldfastErrorCode` is): an `OpenValueSet`, so a value a newer peer writes still decodes, is kept and is written
/// back unchanged. Decide on a value by switching over `known` (`switch wallet.state.known { case .locked?: … }`),
/// so that the compiler names every case a new value leaves undecided; write one with the static members
/// (`.locked`). `all`, derived from `Known`, is what openapi.json lists for the field (the OpenAPI coverage tests
/// compare the two).
public protocol WireValueSet: OpenValueSet {}
