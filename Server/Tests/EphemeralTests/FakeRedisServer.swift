import Ephemeral
import Foundation
import NIOCore
import NIOPosix

/// A scripted stand-in for Redis on 127.0.0.1, to drive the client into failures a real server does not produce
/// on demand: silence, garbage, a dropped connection, an old server without `GETDEL`.
final class FakeRedisServer: @unchecked Sendable {
    /// What the server does with one command.
    enum Action: Sendable {
        case reply(RESPValue)
        case raw([UInt8])
        /// Says nothing, keeps the connection open.
        case silence
        /// Closes the connection without answering.
        case close
    }

    typealias Script = @Sendable (_ command: [String], _ timesSeen: Int) -> Action

    // `@unchecked Sendable`: `commands` is read and written under `lock`; the rest is immutable.
    private let lock = NSLock()
    private var commands: [[String]] = []
    private let channel: any Channel
    let script: Script

    var port: Int { channel.localAddress?.port ?? 0 }
    var url: String { "redis://127.0.0.1:\(port)" }

    /// Every command received so far, in order.
    var received: [[String]] { lock.withLock { commands } }

    private init(channel: any Channel, script: @escaping Script) {
        self.channel = channel
        self.script = script
    }

    static func start(_ script: @escaping Script) async throws -> FakeRedisServer {
        let box = ServerBox()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(FakeRedisHandler(box: box))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let server = FakeRedisServer(channel: channel, script: script)
        box.server = server
        return server
    }

    func stop() async {
        try? await channel.close()
    }

    fileprivate func record(_ command: [String]) -> Action {
        let seen = lock.withLock {
            commands.append(command)
            return commands.filter { $0.first == command.first }.count
        }
        return script(command, seen)
    }
}

/// Lets child handlers reach the server created after the bootstrap. `@unchecked Sendable`: `server` is set
/// once, before any connection is accepted, and only read after that.
private final class ServerBox: @unchecked Sendable {
    weak var server: FakeRedisServer?
}

private final class FakeRedisHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let box: ServerBox
    private var buffer = ByteBuffer()

    init(box: ServerBox) { self.box = box }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        buffer.writeBuffer(&bytes)
        do {
            while let request = try RESPDecoder().decode(&buffer) {
                guard case .array(let parts?) = request else { context.close(promise: nil); return }
                let command = parts.map { part -> String in
                    if case .bulkString(let bytes?) = part { return String(decoding: bytes, as: UTF8.self) }
                    return ""
                }
                switch box.server?.record(command) ?? .close {
                case .reply(let value):
                    context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: RESPEncoder.bytes(of: value))), promise: nil)
                case .raw(let raw):
                    context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: raw)), promise: nil)
                case .silence:
                    break
                case .close:
                    context.close(promise: nil)
                    return
                }
            }
        } catch {
            context.close(promise: nil)
        }
    }
}
