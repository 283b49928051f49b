import NIOCore

/// One command in flight: its encoded bytes and the promise its reply completes.
struct RedisRequest: Sendable {
    var command: ByteBuffer
    var reply: EventLoopPromise<RESPValue>
}

/// The channel handler between a Redis connection and the promises of its commands: it writes each request,
/// keeps the promises in send order, decodes the byte stream with `RESPDecoder` and completes the oldest
/// promise with each reply (RESP spec: replies come back in command order).
///
/// When the stream cannot be trusted any more (malformed reply, unexpected reply, error, close), every pending
/// promise is failed and the channel is closed, so that no later reply is ever given to the wrong command.
final class RedisClientHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = RedisRequest
    typealias OutboundOut = ByteBuffer

    private let decoder: RESPDecoder
    private var received: ByteBuffer?
    private var pending = CircularBuffer<EventLoopPromise<RESPValue>>()
    /// Set once the connection is unusable; later requests fail with it at once.
    private var failure: EphemeralStoreError?

    init(decoderLimits: RESPDecoder.Limits) {
        self.decoder = RESPDecoder(limits: decoderLimits)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let request = unwrapOutboundIn(data)
        if let failure {
            request.reply.fail(failure)
            promise?.fail(failure)
            return
        }
        pending.append(request.reply)
        context.write(wrapOutboundOut(request.command), promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if received == nil || received?.readableBytes == 0 {
            received = bytes
        } else {
            received?.writeBuffer(&bytes)
        }
        guard var buffer = received else { return }
        received = nil
        defer { if buffer.readableBytes > 0 { buffer.discardReadBytes(); received = buffer } }
        do throws(EphemeralStoreError) {
            while let reply = try decoder.decode(&buffer) {
                guard let promise = pending.popFirst() else {
                    fail(context: context, .redisProtocol("a reply arrived that no command asked for"))
                    return
                }
                promise.succeed(reply)
            }
        } catch {
            fail(context: context, error)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        failAll(.redisUnavailable("the Redis connection closed"))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        fail(context: context, .redisUnavailable("the Redis connection failed: \(error)"))
    }

    private func fail(context: ChannelHandlerContext, _ error: EphemeralStoreError) {
        failAll(error)
        received = nil
        context.close(promise: nil)
    }

    private func failAll(_ error: EphemeralStoreError) {
        if failure == nil { failure = error }
        while let promise = pending.popFirst() {
            promise.fail(error)
        }
    }
}
