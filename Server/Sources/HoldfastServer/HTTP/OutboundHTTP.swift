import AsyncHTTPClient
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import NIOPosix

/// The server's outbound GETs (docs/operations.md "Outbound requests": other issuers' status lists, Google's attestation status
/// list), on AsyncHTTPClient:
/// - only `http` and `https` (each caller narrows further: the verifier fetches `https` lists);
/// - the host is resolved here and every address it resolves to is checked (`OutboundAddressPolicy`) — unless
///   `allowsPrivateAddresses`, a host with any loopback, private, link-local, unique-local, multicast or otherwise
///   non-public address is refused;
/// - the connection goes to an address that was checked (the first that takes a connection, `reachable`), not to a
///   second resolution of the name (which could answer differently, DNS rebinding): the request's client maps the
///   host name to that address (`dnsOverride`), so the
///   `Host` header, TLS server name and certificate check still use the name. Connecting to the IP with a `Host`
///   header instead would send no SNI and check the certificate against the IP, which breaks `https`;
/// - no redirect is followed (a 3xx is a failure): a redirect could lead anywhere, past the checks above;
/// - one total deadline covers resolution, connection, head and body, so a server that drips its body never holds a
///   fetch past it;
/// - the body is read as it streams and the fetch ends as soon as it passes `maximumBytes` (a `Content-Length` over
///   it ends the fetch before the body); no decompression.
///
/// Each fetch has a client of its own (`dnsOverride` is a client setting), shut down before the fetch returns —
/// answered, failed or cancelled — so nothing outlives a fetch; a server shutting down cancels the fetches in flight.
struct OutboundFetcher: Sendable {
    /// What went wrong, for the logs; callers answer their clients with a fixed reason of their own.
    enum FailureKind: String, Sendable, Equatable {
        case unsupportedURL = "unsupported_url"
        case resolution
        case addressRefused = "address_refused"
        case connection
        case redirect
        case status
        case tooLarge = "too_large"
        case deadline
    }

    struct Failure: Error, CustomStringConvertible {
        let kind: FailureKind
        let detail: String
        var description: String { "\(kind.rawValue): \(detail)" }
    }

    let allowsPrivateAddresses: Bool
    /// A host name's addresses: `getaddrinfo(3)` (tests give names addresses of their choosing).
    let addressesOf: @Sendable (String) async throws -> [IPAddress]

    init(allowsPrivateAddresses: Bool,
         addressesOf: @escaping @Sendable (String) async throws -> [IPAddress] = OutboundFetcher.systemAddresses) {
        self.allowsPrivateAddresses = allowsPrivateAddresses
        self.addressesOf = addressesOf
    }

    init(_ configuration: OutboundConfiguration) {
        self.init(allowsPrivateAddresses: configuration.allowsPrivateAddresses)
    }

    /// The body of a `200` answer to `GET url`, at most `maximumBytes`, within `deadline`.
    func get(_ url: URL, accept: String, deadline: Duration, maximumBytes: Int) async throws(Failure) -> Data {
        let name = Self.name(url)
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let rawHost = url.host, !rawHost.isEmpty else {
            throw Failure(kind: .unsupportedURL, detail: "GET \(name): only http(s) URLs with a host")
        }
        let host = rawHost.hasPrefix("[") && rawHost.hasSuffix("]") ? String(rawHost.dropFirst().dropLast()) : rawHost
        let allowsPrivate = allowsPrivateAddresses
        let addressesOf = addressesOf
        do {
            return try await Self.within(deadline, name: name) {
                let addresses = try await Self.resolve(host, name: name, allowsPrivate: allowsPrivate, addressesOf: addressesOf)
                let address = try await Self.reachable(addresses, port: url.port ?? (scheme == "https" ? 443 : 80), name: name)
                return try await Self.fetch(url, host: host, address: address, accept: accept, deadline: deadline,
                                            maximumBytes: maximumBytes, name: name)
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(kind: .connection, detail: "GET \(name): \(error)")
        }
    }

    // MARK: steps

    /// Every address of `host` (an IP literal is its own), each checked: the addresses to connect to, in order.
    static func resolve(_ host: String, name: String, allowsPrivate: Bool,
                        addressesOf: @Sendable (String) async throws -> [IPAddress]) async throws -> [IPAddress] {
        let addresses: [IPAddress]
        if let literal = IPAddress(Substring(host)) {
            addresses = [literal]
        } else {
            do {
                addresses = try await addressesOf(host)
            } catch let failure as Failure {
                throw failure
            } catch {
                throw Failure(kind: .resolution, detail: "GET \(name): \(error)")
            }
        }
        guard !addresses.isEmpty else {
            throw Failure(kind: .resolution, detail: "GET \(name): \(host) has no address")
        }
        if !allowsPrivate {
            for address in addresses {
                if let range = OutboundAddressPolicy.refusedRange(of: address) {
                    throw Failure(kind: .addressRefused,
                                  detail: "GET \(name): \(host) resolves to \(address), in \(range) (HOLDFAST_OUTBOUND_ALLOW_PRIVATE is off)")
                }
            }
        }
        return addresses
    }

    /// The first of `addresses`, in the resolver's order (RFC 6724), that takes a TCP connection. The client's
    /// connection pool retries a refused connection until the deadline, so the choice is made here with a plain
    /// connect, closed at once: a server that is down fails the fetch at once, and a name's next address is tried.
    static func reachable(_ addresses: [IPAddress], port: Int, name: String) async throws -> IPAddress {
        var lastError: (any Error)?
        for address in addresses {
            do {
                let socketAddress = try SocketAddress(ipAddress: address.description, port: port)
                let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .connectTimeout(.seconds(5)).connect(to: socketAddress).get()
                try? await channel.close()
                return address
            } catch {
                try Task.checkCancellation()
                lastError = error
            }
        }
        throw Failure(kind: .connection, detail: "GET \(name): no address takes a connection (\(lastError.map { "\($0)" } ?? "none"))")
    }

    private static func fetch(_ url: URL, host: String, address: IPAddress, accept: String, deadline: Duration,
                              maximumBytes: Int, name: String) async throws -> Data {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow,
                                                     timeout: .init(connect: .nanoseconds(deadline.nanoseconds)),
                                                     decompression: .disabled)
        configuration.httpVersion = .http1Only
        if IPAddress(Substring(host)) == nil { configuration.dnsOverride = [host: address.description] }
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let outcome: Result<Data, any Error>
        do {
            var request = HTTPClientRequest(url: url.absoluteString)
            request.method = .GET
            request.headers.add(name: "Accept", value: accept)
            let response = try await client.execute(request, deadline: .now() + .nanoseconds(deadline.nanoseconds))
            outcome = .success(try await read(response, maximumBytes: maximumBytes, name: name))
        } catch {
            outcome = .failure(error)
        }
        try? await client.shutdown()
        return try outcome.get()
    }

    private static func read(_ response: HTTPClientResponse, maximumBytes: Int, name: String) async throws -> Data {
        switch response.status.code {
        case 200: break
        case 300..<400: throw Failure(kind: .redirect, detail: "GET \(name) answered HTTP \(response.status.code): redirects are not followed")
        default: throw Failure(kind: .status, detail: "GET \(name) answered HTTP \(response.status.code)")
        }
        if let declared = response.headers.first(name: "content-length").flatMap(Int.init), declared > maximumBytes {
            throw Failure(kind: .tooLarge, detail: "GET \(name): Content-Length \(declared) is over \(maximumBytes) bytes")
        }
        var body = Data()
        for try await chunk in response.body {
            guard chunk.readableBytes <= maximumBytes - body.count else {
                throw Failure(kind: .tooLarge, detail: "GET \(name): the body is larger than \(maximumBytes) bytes")
            }
            body.append(contentsOf: chunk.readableBytesView)
        }
        return body
    }

    /// `work`, ended with a `.deadline` failure when it has not finished within `deadline`.
    private static func within(_ deadline: Duration, name: String,
                               _ work: @escaping @Sendable () async throws -> Data) async throws -> Data {
        try await withThrowingTaskGroup(of: Data?.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: deadline)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let data = first else {
                throw Failure(kind: .deadline, detail: "GET \(name) did not finish within \(deadline)")
            }
            return data
        }
    }

    /// `getaddrinfo(3)` on NIO's thread pool (it blocks): every TCP address of `host`, IPv4 and IPv6, in the
    /// resolver's order.
    @Sendable static func systemAddresses(_ host: String) async throws -> [IPAddress] {
        try await NIOThreadPool.singleton.runIfActive { try Self.addresses(of: host) }
    }

    private static func addresses(of host: String) throws -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0 else {
            throw Failure(kind: .resolution, detail: "\(host) does not resolve (\(String(cString: gai_strerror(status))))")
        }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var node = list
        while let current = node {
            if let raw = current.pointee.ai_addr {
                switch current.pointee.ai_family {
                case AF_INET:
                    var sin = raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                    if let address = IPAddress(bytes: withUnsafeBytes(of: &sin) { Array($0) }) { addresses.append(address) }
                case AF_INET6:
                    var sin6 = raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                    if let address = IPAddress(bytes: withUnsafeBytes(of: &sin6) { Array($0) }) { addresses.append(address) }
                default:
                    break
                }
            }
            node = current.pointee.ai_next
        }
        return addresses
    }

    /// The URL for messages: scheme, host, port and path — no user info, no query (they may carry credentials).
    static func name(_ url: URL) -> String {
        "\(url.scheme ?? "?")://\(url.host ?? "")\(url.port.map { ":\($0)" } ?? "")\(url.path)"
    }
}

/// The addresses the server's outbound requests refuse unless `HOLDFAST_OUTBOUND_ALLOW_PRIVATE` is on: every range the
/// IANA special-purpose registries (RFC 6890 and its updates) mark as not globally reachable, plus multicast and the
/// reserved IPv4 block. An IPv4-mapped IPv6 address is checked as its IPv4 address (`IPAddress`), and the IPv6 forms
/// that carry an IPv4 address (NAT64 RFC 6052, 6to4 RFC 3056) as the address they carry.
enum OutboundAddressPolicy {
    static let refusedIPv4: [(String, IPNetwork)] = ranges([
        ("this network (RFC 791)", "0.0.0.0/8"),
        ("private (RFC 1918)", "10.0.0.0/8"),
        ("shared address space, CGNAT (RFC 6598)", "100.64.0.0/10"),
        ("loopback (RFC 1122)", "127.0.0.0/8"),
        ("link-local (RFC 3927)", "169.254.0.0/16"),
        ("private (RFC 1918)", "172.16.0.0/12"),
        ("IETF protocol assignments (RFC 6890)", "192.0.0.0/24"),
        ("documentation (RFC 5737)", "192.0.2.0/24"),
        ("6to4 relay anycast (RFC 7526)", "192.88.99.0/24"),
        ("private (RFC 1918)", "192.168.0.0/16"),
        ("benchmarking (RFC 2544)", "198.18.0.0/15"),
        ("documentation (RFC 5737)", "198.51.100.0/24"),
        ("documentation (RFC 5737)", "203.0.113.0/24"),
        ("multicast (RFC 5771)", "224.0.0.0/4"),
        ("reserved and broadcast (RFC 1112, RFC 919)", "240.0.0.0/4"),
    ])

    static let refusedIPv6: [(String, IPNetwork)] = ranges([
        ("unspecified, loopback and IPv4-compatible (RFC 4291)", "::/96"),
        ("local-use NAT64 (RFC 8215)", "64:ff9b:1::/48"),
        ("discard-only (RFC 6666)", "100::/64"),
        ("IETF protocol assignments, Teredo (RFC 2928, RFC 4380)", "2001::/23"),
        ("documentation (RFC 3849)", "2001:db8::/32"),
        ("unique-local (RFC 4193)", "fc00::/7"),
        ("link-local (RFC 4291)", "fe80::/10"),
        ("site-local (RFC 3879)", "fec0::/10"),
        ("multicast (RFC 4291)", "ff00::/8"),
    ])

    /// The name of the range that refuses `address`, or nil for a public address.
    static func refusedRange(of address: IPAddress) -> String? {
        if address.isIPv4 {
            return refusedIPv4.first { $0.1.contains(address) }.map { "\($0.1) \($0.0)" }
        }
        if let range = refusedIPv6.first(where: { $0.1.contains(address) }) { return "\(range.1) \(range.0)" }
        let bytes = address.bytes
        // NAT64 well-known prefix 64:ff9b::/96 (RFC 6052) and 6to4 2002::/16 (RFC 3056) carry an IPv4 address.
        if bytes[0..<12].elementsEqual([0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0]),
           let embedded = IPAddress(bytes: Array(bytes[12..<16])), let range = refusedRange(of: embedded) {
            return "64:ff9b::/96 carrying \(embedded), \(range)"
        }
        if bytes[0] == 0x20, bytes[1] == 0x02, let embedded = IPAddress(bytes: Array(bytes[2..<6])),
           let range = refusedRange(of: embedded) {
            return "2002::/16 carrying \(embedded), \(range)"
        }
        return nil
    }

    private static func ranges(_ list: [(String, String)]) -> [(String, IPNetwork)] {
        list.map { ($0.0, IPNetwork(Substring($0.1))!) }
    }
}

extension Duration {
    /// The whole duration in nanoseconds (saturating).
    fileprivate var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : whole.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }
}
