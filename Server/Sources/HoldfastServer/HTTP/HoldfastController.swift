/// One capability's routes, built once by `HoldfastControllers.make` with the services they use (Hummingbird's
/// `RouteCollection` idea; DESIGN.md "Adding a capability").
public protocol HoldfastController: Sendable {
    var routes: [Route] { get }
}
