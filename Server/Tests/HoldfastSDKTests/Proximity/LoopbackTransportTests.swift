import Foundation
@testable import HoldfastSDK
import Testing

/// The loopback proximity transport (docs/sdk.md "Proximity transports"): whole messages both ways between an mdoc
/// and a reader, length-prefixed frames capped at 16 MiB, one reader per session, and a `close()` that never leaves
/// a caller waiting.
@Suite struct LoopbackTransportTests {
    // MARK: messages

    @Test func aMessageGoesEachWay() async throws {
        try await withSession { mdoc, reader, _ in
            try await reader.send([0xA2, 0x01, 0x02])
            #expect(try await mdoc.receive() == [0xA2, 0x01, 0x02])
            try await mdoc.send([0xA1, 0x03])
            #expect(try await reader.receive() == [0xA1, 0x03])
            try await mdoc.send([])
            #expect(try await reader.receive() == [])
        }
    }

    @Test func manyMessagesArriveInOrder() async throws {
        try await withSession { mdoc, reader, _ in
            let messages = (0 ..< 60).map { index in [UInt8](repeating: UInt8(index % 256), count: index * 37 % 1000) }
            async let sent: Void = { for message in messages { try await reader.send(message) } }()
            var received: [[UInt8]] = []
            for _ in messages { received.append(try #require(try await mdoc.receive())) }
            try await sent
            #expect(received == messages)
            async let answered: Void = { for message in messages.reversed() { try await mdoc.send(message) } }()
            var answers: [[UInt8]] = []
            for _ in messages { answers.append(try #require(try await reader.receive())) }
            try await answered
            #expect(answers == messages.reversed())
        }
    }

    @Test func aMessageOfOneMebibyteArrivesWhole() async throws {
        try await withSession { mdoc, reader, _ in
            var generator = SystemRandomNumberGenerator()
            let message = (0 ..< 1 << 20).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
            async let sent: Void = reader.send(message)
            #expect(try await mdoc.receive() == message)
            try await sent
            async let answered: Void = mdoc.send(message)
            #expect(try await reader.receive() == message)
            try await answered
        }
    }

    // MARK: the frame and its cap

    @Test func aHeaderAtTheCapIsAcceptedAndOneByteOverIsRefused() throws {
        let cap = LoopbackFrame.maximumLength
        #expect(cap == 16 * 1024 * 1024)
        #expect(try LoopbackFrame.length(ofHeader: [0x01, 0x00, 0x00, 0x00]) == cap)
        #expect(throws: LoopbackFrameError.tooLong(cap + 1)) { try LoopbackFrame.length(ofHeader: [0x01, 0x00, 0x00, 0x01]) }
        #expect(throws: LoopbackFrameError.tooLong(Int(UInt32.max))) { try LoopbackFrame.length(ofHeader: [0xFF, 0xFF, 0xFF, 0xFF]) }
        #expect(try LoopbackFrame.header(for: cap) == [0x01, 0x00, 0x00, 0x00])
        #expect(try LoopbackFrame.header(for: 258) == [0x00, 0x00, 0x01, 0x02])
        #expect(throws: LoopbackFrameError.tooLong(cap + 1)) { try LoopbackFrame.header(for: cap + 1) }
    }

    @Test func aHeaderOverTheCapIsRefusedAndTheConnectionClosed() async throws {
        try await withMDocAndRawReader { mdoc, raw in
            // One byte over the cap, and body bytes after it that must never be read.
            try await raw.write([0x01, 0x00, 0x00, 0x01] + [UInt8](repeating: 0, count: 64))
            let error = await #expect(throws: HoldfastError.self) { _ = try await mdoc.receive() }
            #expect(error?.code == .networkError)
            #expect(error?.message.contains("over the 16 MiB cap") == true)
            #expect(try await raw.read(exactly: 1) == [])   // the mdoc closed the connection
        }
    }

    @Test func aHeaderAtTheCapIsReadAsAHeader() async throws {
        try await withMDocAndRawReader { mdoc, raw in
            // Exactly the cap: accepted as a header, so the mdoc reads on and finds the body cut short.
            try await raw.write([0x01, 0x00, 0x00, 0x00, 0xAA, 0xBB, 0xCC])
            raw.socket.cancel()
            let error = await #expect(throws: HoldfastError.self) { _ = try await mdoc.receive() }
            #expect(error?.code == .networkError)
            #expect(error?.message.contains("(3 of 16777216 bytes)") == true)
        }
    }

    @Test func aMessageOverTheCapIsNotSent() async throws {
        try await withSession { mdoc, reader, _ in
            let error = await #expect(throws: HoldfastError.self) {
                try await reader.send([UInt8](repeating: 0, count: LoopbackFrame.maximumLength + 1))
            }
            #expect(error?.code == .networkError)
            #expect(error?.message.contains("over the 16 MiB cap") == true)
            // Nothing of it went out: the connection still carries the next message.
            try await reader.send([0x01])
            #expect(try await mdoc.receive() == [0x01])
        }
    }

    @Test func aTruncatedFrameIsAnErrorNotAHang() async throws {
        try await withMDocAndRawReader { mdoc, raw in
            try await raw.write([0x00, 0x00, 0x00, 100] + [UInt8](repeating: 7, count: 10))
            raw.socket.cancel()
            let error = await #expect(throws: HoldfastError.self) { _ = try await mdoc.receive() }
            #expect(error?.code == .networkError)
            #expect(error?.message.contains("(10 of 100 bytes)") == true)
        }
        try await withMDocAndRawReader { mdoc, raw in
            try await raw.write([0x00, 0x00])   // half a header
            raw.socket.cancel()
            let error = await #expect(throws: HoldfastError.self) { _ = try await mdoc.receive() }
            #expect(error?.message.contains("(2 of 4 bytes)") == true)
        }
    }

    // MARK: closing

    @Test func aPeerThatClosesEndsReceivingWithNil() async throws {
        try await withSession { mdoc, reader, _ in
            try await reader.send([0x01])
            await reader.close()
            #expect(try await mdoc.receive() == [0x01])   // what was sent before closing still arrives
            #expect(try await mdoc.receive() == nil)
        }
        try await withSession { mdoc, reader, _ in
            await mdoc.close()
            let afterClose = try await reader.receive()
            #expect(afterClose == nil)
        }
    }

    @Test func closeEndsAWaitingReceive() async throws {
        try await withSession { mdoc, reader, _ in
            let waiting = Task { try await reader.receive() }
            try await Task.sleep(for: .milliseconds(100))   // most likely blocked in poll(2) by now; either way it must end
            await reader.close()
            let error = await #expect(throws: HoldfastError.self) { _ = try await waiting.value }
            #expect(error == LoopbackSocket.closedError)
            await #expect(throws: HoldfastError.self) { _ = try await reader.receive() }
            #expect(try await mdoc.receive() == nil)   // the mdoc sees the reader go
        }
    }

    @Test func closeEndsAWaitForAReader() async throws {
        let mdoc = LoopbackMDocTransport()
        _ = try await mdoc.start()
        try await guardingAgainstHangs(closing: [mdoc]) {
            let waiting = Task { try await mdoc.waitForReader() }
            try await Task.sleep(for: .milliseconds(100))
            await mdoc.close()
            let error = await #expect(throws: HoldfastError.self) { try await waiting.value }
            #expect(error == LoopbackSocket.closedError)
            await #expect(throws: HoldfastError.self) { try await mdoc.waitForReader() }
        }
    }

    @Test func aPeerThatVanishedFailsASendWithoutASignal() async throws {
        try await withSession { mdoc, reader, _ in
            await reader.close()
            // The first writes may still land in the kernel's buffers; a later one meets the reset (EPIPE), which must
            // be an error, not SIGPIPE ending the process.
            let message = [UInt8](repeating: 1, count: 256 * 1024)
            let error = await #expect(throws: HoldfastError.self) {
                for _ in 0 ..< 200 { try await mdoc.send(message) }
            }
            #expect(error?.code == .networkError)
        }
    }

    @Test func aTransportDroppedWithoutCloseStopsListening() async throws {
        var mdoc: LoopbackMDocTransport? = LoopbackMDocTransport()
        let retrieval = try await #require(mdoc).start()
        mdoc = nil   // the accept thread holds only the state, so this is the last reference: deinit closes
        // The listener's descriptor is closed once its accept thread has woken; until then a connection may still be
        // taken into the backlog (and closed). Each attempt is a fresh reader.
        var refused = false
        for _ in 0 ..< 100 where !refused {
            let reader = LoopbackReaderTransport()
            do {
                try await reader.connect(to: retrieval)
            } catch {
                refused = error.message.contains("cannot connect")
            }
            await reader.close()
            if !refused { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(refused)
    }

    // MARK: one reader, on loopback

    @Test func aSecondReaderIsClosedAtOnce() async throws {
        try await withSession { mdoc, reader, retrieval in
            let second = LoopbackReaderTransport()
            try await guardingAgainstHangs(closing: [second]) {
                try await second.connect(to: retrieval)   // the kernel completes the handshake; the mdoc then closes it
                #expect(try await second.receive() == nil)
            }
            await second.close()
            try await reader.send([0x02])
            #expect(try await mdoc.receive() == [0x02])
            try await mdoc.send([0x03])
            #expect(try await reader.receive() == [0x03])
        }
    }

    @Test func aReaderConnectsOnce() async throws {
        try await withSession { mdoc, reader, retrieval in
            let error = await #expect(throws: HoldfastError.self) { try await reader.connect(to: retrieval) }
            #expect(error?.message.contains("connected already") == true)
            try await reader.send([0x04])   // the first connection is untouched
            #expect(try await mdoc.receive() == [0x04])
        }
    }

    @Test func portZeroNamesTheRealPortAndAFreshServiceUUID() async throws {
        let first = LoopbackMDocTransport(port: 0)
        let second = LoopbackMDocTransport()
        let one = try await first.start()
        let two = try await second.start()
        await first.close()
        await second.close()
        let address = try #require(one.loopback)
        #expect(address.host == "127.0.0.1")
        #expect(address.port != 0)
        #expect(try #require(two.loopback).port != address.port)
        #expect(one.bleServiceUUID != two.bleServiceUUID)
    }

    @Test func onlyALoopbackAddressIsListenedOnOrConnectedTo() async throws {
        for host in ["0.0.0.0", "192.168.1.20", "localhost", "::1"] {
            let mdoc = LoopbackMDocTransport(host: host)
            let error = await #expect(throws: HoldfastError.self) { _ = try await mdoc.start() }
            #expect(error?.code == .networkError)
            #expect(error?.message.contains("loopback address") == true)
            await mdoc.close()
        }
        let mdoc = LoopbackMDocTransport(host: "127.0.0.2")   // all of 127.0.0.0/8 is loopback
        _ = try await mdoc.start()
        await mdoc.close()

        let reader = LoopbackReaderTransport()
        let error = await #expect(throws: HoldfastError.self) {
            try await reader.connect(to: ProximityRetrieval(bleServiceUUID: UUID(),
                                                            loopback: LoopbackAddress(host: "10.0.0.1", port: 4000)))
        }
        #expect(error?.message.contains("loopback address") == true)
        let missing = await #expect(throws: HoldfastError.self) {
            try await reader.connect(to: ProximityRetrieval(bleServiceUUID: UUID()))
        }
        #expect(missing?.message.contains("no loopback address") == true)
    }

    @Test func callsOutOfOrderAreRefused() async throws {
        let mdoc = LoopbackMDocTransport()
        let notStarted = await #expect(throws: HoldfastError.self) { try await mdoc.waitForReader() }
        #expect(notStarted?.message.contains("start()") == true)
        _ = try await mdoc.start()
        let again = await #expect(throws: HoldfastError.self) { _ = try await mdoc.start() }
        #expect(again?.message.contains("started already") == true)
        let noReader = await #expect(throws: HoldfastError.self) { try await mdoc.send([0x01]) }
        #expect(noReader?.message.contains("no reader has connected") == true)
        await mdoc.close()
        await #expect(throws: HoldfastError.self) { _ = try await mdoc.start() }

        let reader = LoopbackReaderTransport()
        let unconnected = await #expect(throws: HoldfastError.self) { _ = try await reader.receive() }
        #expect(unconnected?.message.contains("not connected") == true)
        let refused = LoopbackMDocTransport()
        let retrieval = try await refused.start()
        await refused.close()   // nothing listens on that port any more
        let error = await #expect(throws: HoldfastError.self) { try await reader.connect(to: retrieval) }
        #expect(error?.message.contains("cannot connect") == true)
    }
}

// MARK: helpers

/// An mdoc and a reader connected to it (and the engagement the mdoc asked for), closed afterwards.
private func withSession(
    _ body: @Sendable (LoopbackMDocTransport, LoopbackReaderTransport, ProximityRetrieval) async throws -> Void
) async throws {
    let mdoc = LoopbackMDocTransport()
    let reader = LoopbackReaderTransport()
    let retrieval = try await mdoc.start()
    try await guardingAgainstHangs(closing: [mdoc, reader]) {
        try await reader.connect(to: retrieval)
        try await mdoc.waitForReader()
        try await body(mdoc, reader, retrieval)
    }
    await reader.close()
    await mdoc.close()
}

/// An mdoc and a raw socket connected to it, to send it what no `LoopbackReaderTransport` sends.
private func withMDocAndRawReader(_ body: @Sendable (LoopbackMDocTransport, RawPeer) async throws -> Void) async throws {
    let mdoc = LoopbackMDocTransport()
    let address = try #require(try await mdoc.start().loopback)
    let raw = try RawPeer(port: address.port)
    try await guardingAgainstHangs(closing: [mdoc]) {
        try await raw.connect()
        try await mdoc.waitForReader()
        try await body(mdoc, raw)
    }
    raw.socket.cancel()
    await mdoc.close()
}

/// A socket speaking bytes, not frames; its blocking calls on a queue of its own.
private struct RawPeer: Sendable {
    let socket: LoopbackSocket
    let port: UInt16
    private let queue = DispatchQueue(label: "holdfast.tests.raw-peer")

    init(port: UInt16) throws {
        socket = try LoopbackSocket.unconnected()
        self.port = port
    }

    func connect() async throws {
        try await LoopbackSocket.offThread(on: queue) { [socket, port] () throws(HoldfastError) in
            try socket.connect(host: "127.0.0.1", port: port)
        }
    }

    func write(_ bytes: [UInt8]) async throws {
        try await LoopbackSocket.offThread(on: queue) { [socket] () throws(HoldfastError) in try socket.write(bytes) }
    }

    func read(exactly count: Int) async throws -> [UInt8] {
        try await LoopbackSocket.offThread(on: queue) { [socket] () throws(HoldfastError) in try socket.read(exactly: count) }
    }
}

/// Runs `body`; should it still be running after five minutes, records a failure and closes `transports`, which must
/// end whatever it waits for: a hang fails the test instead of stalling the suite. Not a measure of speed.
private func guardingAgainstHangs(closing transports: [any ProximityTransport],
                                  _ body: () async throws -> Void) async throws {
    let watchdog = Task {
        try await Task.sleep(for: .seconds(300))
        Issue.record("still waiting after 300 s: the transports are closed to end the wait")
        for transport in transports { await transport.close() }
    }
    defer { watchdog.cancel() }
    try await body()
}
