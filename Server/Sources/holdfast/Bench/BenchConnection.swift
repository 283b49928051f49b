import NIOCore
import NIOHTTP1
import NIOPosix

/// One answer of the server under load.
struct BenchResponse: Sendable {
    let status: Int
    let body: [UInt8]
}

/// The load generator's side of `bench registration`: one keep-alive HTTP/1.1 connection, one request at a time.
/// The SDK's `URLSessionTransport` goes through libcurl on Linux and spends more CPU per request than the server
/// spends on a renewal; on a 2-core machine that would measure the client, not the tenant.
final class BenchConnection: Sendable {
    private let channel: any Channel
    private let collector: ResponseCollector
    private let hostHeader: String

    private init(channel: any Channel, collector: ResponseCollector, hostHeader: String) {
        self.channel = channel
        self.collector = collector
        self.hostHeader = hostHeader
    }

    static func connect(host: String, port: Int) async throws -> BenchConnection {
        let collector = ResponseCollector()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(collector)
                }
            }
            .connect(host: host, port: port).get()
        return BenchConnection(channel: channel, collector: collector, hostHeader: "\(host):\(port)")
    }

    /// Sends one request and waits for its whole answer.
    func send(_ method: HTTPMethod, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil) async throws -> BenchResponse {
        let promise = channel.eventLoop.makePromise(of: BenchResponse.self)
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: path)
        head.headers.add(name: "Host", value: hostHeader)
        for (name, value) in headers { head.headers.add(name: name, value: value) }
        if let body {
            head.headers.add(name: "Content-Length", value: String(body.count))
        } else if method == .POST || method == .PUT {
            head.headers.add(name: "Content-Length", value: "0")
        }
        let requestHead = head
        channel.eventLoop.execute { [channel, collector] in
            guard collector.begin(promise) else {
                promise.fail(CommandFailure(.failure, "a request is already in flight on this connection"))
                return
            }
            channel.write(HTTPClientRequestPart.head(requestHead), promise: nil)
            if let body { channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil) }
            channel.writeAndFlush(HTTPClientRequestPart.end(nil)).whenFailure { error in collector.fail(error) }
        }
        return try await promise.futureResult.get()
    }

    func close() async {
        try? await channel.close()
    }
}

/// Collects the parts of one response and completes the waiting request's promise. Its state is touched on the
/// channel's event loop only (every entry point runs there), which is why it may be `@unchecked Sendable`.
private final class ResponseCollector: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPClientResponsePart

    private var pending: EventLoopPromise<BenchResponse>?
    private var status = 0
    private var body: [UInt8] = []

    func begin(_ promise: EventLoopPromise<BenchResponse>) -> Bool {
        guard pending == nil else { return false }
        pending = promise
        return true
    }

    func fail(_ error: any Error) {
        let promise = pending
        pending = nil
        promise?.fail(error)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = Int(head.status.code)
            body.removeAll(keepingCapacity: true)
        case .body(let part):
            body.append(contentsOf: part.readableBytesView)
        case .end:
            let promise = pending
            pending = nil
            promise?.succeed(BenchResponse(status: status, body: body))
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(CommandFailure(.failure, "the server closed the connection"))
        context.fireChannelInactive()
    }
}
