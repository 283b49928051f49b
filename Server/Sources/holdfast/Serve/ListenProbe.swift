import NIOCore
import NIOPosix

/// Tries the listening address before anything is created, so that a taken port is reported before the database
/// and the bootstrap admin key are made.
enum ListenProbe {
    static func check(host: String, port: Int) async throws {
        guard port != 0 else { return }
        let channel: any Channel
        do {
            channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .bind(host: host, port: port).get()
        } catch {
            throw CommandFailure(.failure, "cannot listen on \(host):\(port): \(error). Is another server using it? "
                + "Choose another with --port or HOLDFAST_PORT. Nothing was created.")
        }
        try? await channel.close()
    }
}
