#if canImport(CoreBluetooth)
@preconcurrency import CoreBluetooth
import Foundation
import MDocProximity
import Plumbing

/// The mdoc's side of ISO/IEC 18013-5 §8.3.3.1.1 BLE mdoc peripheral server mode: the mdoc is the GATT server and
/// advertises the service UUID of its device engagement; the reader writes 0x01 to State, writes requests to
/// Client2Server and is sent responses as notifications of Server2Client, in the chunks of `MDocProximity`'s
/// `BLEFraming`. Apple only, and not run by this project's tests (docs/sdk.md "Proximity transports").
///
/// Every CoreBluetooth call and delegate callback runs on `queue`; the state is in a `Locked` all the same, so that
/// the class is plainly `Sendable`. A continuation is resumed under the lock: resuming only schedules its task.
public final class BLEPeripheralMDocTransport: NSObject, MDocProximityTransport, CBPeripheralManagerDelegate {
    /// ISO/IEC 18013-5 §8.3.3.1.1.4, Table 12: the characteristics of peripheral server mode.
    static let stateUUID = "00000001-A123-48CE-896B-4C76973373E6"
    static let client2ServerUUID = "00000002-A123-48CE-896B-4C76973373E6"
    static let server2ClientUUID = "00000003-A123-48CE-896B-4C76973373E6"
    /// State's values (§8.3.3.1.1.5): the transaction starts, it ends.
    static let start: UInt8 = 0x01
    static let end: UInt8 = 0x02

    private let queue = DispatchQueue(label: "holdfast.proximity.ble")
    private let state = Locked(State())

    private typealias Pending<T> = CheckedContinuation<Result<T, HoldfastError>, Never>

    private enum End: Equatable {
        case byReader
        case failed(HoldfastError)
        case closed
    }

    private struct Outgoing {
        var chunks: ArraySlice<[UInt8]>
        let sent: Pending<Void>
    }

    private struct State {
        let serviceUUID = UUID()
        var manager: CBPeripheralManager?
        var stateCharacteristic: CBMutableCharacteristic?
        var server2Client: CBMutableCharacteristic?
        var starting: Pending<ProximityRetrieval>?
        var reader: CBCentral?
        var readerWaiters: [Pending<Void>] = []
        var reassembler = BLEReassembler()
        var inbox: [[UInt8]] = []
        var receivers: [Pending<[UInt8]?>] = []
        var outbox: [Outgoing] = []
        var end: End?

        /// Why a call cannot go on, once the session has ended.
        var refusal: HoldfastError? {
            switch end {
            case .byReader: HoldfastError(.networkError, "the reader ended the BLE session")
            case .failed(let error): error
            case .closed: LoopbackSocket.closedError
            case nil: nil
            }
        }
    }

    override public init() {
        super.init()
    }

    // MARK: MDocProximityTransport

    public func start() async throws(HoldfastError) -> ProximityRetrieval {
        try await onQueue { (state: inout State, started: Pending<ProximityRetrieval>) in
            guard state.manager == nil, state.end == nil else {
                return started.resume(returning: .failure(state.refusal ?? HoldfastError(.networkError, "the BLE transport was started already")))
            }
            state.starting = started
            // Its state arrives in peripheralManagerDidUpdateState, where the service is added once powered on.
            state.manager = CBPeripheralManager(delegate: self, queue: self.queue)
        }
    }

    public func waitForReader() async throws(HoldfastError) {
        try await onQueue { (state: inout State, connected: Pending<Void>) in
            if state.reader != nil { return connected.resume(returning: .success(())) }
            if let refusal = state.refusal { return connected.resume(returning: .failure(refusal)) }
            guard state.manager != nil else {
                return connected.resume(returning: .failure(HoldfastError(.networkError, "call start() before waiting for a reader")))
            }
            state.readerWaiters.append(connected)
        }
    }

    public func send(_ message: [UInt8]) async throws(HoldfastError) {
        try await onQueue { (state: inout State, sent: Pending<Void>) in
            if let refusal = state.refusal { return sent.resume(returning: .failure(refusal)) }
            guard let reader = state.reader else {
                return sent.resume(returning: .failure(HoldfastError(.networkError, "no reader has connected over BLE yet")))
            }
            let chunks = BLEFraming.chunks(message, mtu: reader.maximumUpdateValueLength + 3)
            state.outbox.append(Outgoing(chunks: chunks[...], sent: sent))
            self.sendPending(&state)
        }
    }

    public func receive() async throws(HoldfastError) -> [UInt8]? {
        try await onQueue { (state: inout State, received: Pending<[UInt8]?>) in
            if !state.inbox.isEmpty { return received.resume(returning: .success(state.inbox.removeFirst())) }
            switch state.end {
            case .byReader: received.resume(returning: .success(nil))
            case .failed, .closed: received.resume(returning: .failure(state.refusal ?? LoopbackSocket.closedError))
            case nil: state.receivers.append(received)
            }
        }
    }

    public func close() async {
        _ = try? await onQueue { (state: inout State, closed: Pending<Void>) in
            // §8.3.3.1.1.5: the mdoc ends the transaction by notifying End on State.
            if state.end == nil, state.reader != nil, let characteristic = state.stateCharacteristic {
                _ = state.manager?.updateValue(Data([Self.end]), for: characteristic, onSubscribedCentrals: nil)
            }
            self.finish(&state, .closed)
            state.manager?.stopAdvertising()
            state.manager?.removeAllServices()
            state.manager?.delegate = nil
            closed.resume(returning: .success(()))
        }
    }

    // MARK: CBPeripheralManagerDelegate

    public func peripheralManagerDidUpdateState(_ peripheral: CBPeripheralManager) {
        state.withLock { state in
            switch peripheral.state {
            case .poweredOn:
                guard state.starting != nil, state.server2Client == nil else { return }
                let stateCharacteristic = CBMutableCharacteristic(
                    type: CBUUID(string: Self.stateUUID), properties: [.notify, .writeWithoutResponse], value: nil,
                    permissions: [.writeable])
                let client2Server = CBMutableCharacteristic(
                    type: CBUUID(string: Self.client2ServerUUID), properties: [.writeWithoutResponse], value: nil,
                    permissions: [.writeable])
                let server2Client = CBMutableCharacteristic(
                    type: CBUUID(string: Self.server2ClientUUID), properties: [.notify], value: nil, permissions: [])
                let service = CBMutableService(type: CBUUID(nsuuid: state.serviceUUID), primary: true)
                service.characteristics = [stateCharacteristic, client2Server, server2Client]
                state.stateCharacteristic = stateCharacteristic
                state.server2Client = server2Client
                peripheral.add(service)
            case .unknown, .resetting:
                return
            default:   // powered off, unauthorized, unsupported
                finish(&state, .failed(HoldfastError(.networkError,
                                                     "Bluetooth is not available (CBManagerState \(peripheral.state.rawValue))")))
            }
        }
    }

    public func peripheralManager(_ peripheral: CBPeripheralManager, didAdd service: CBService, error: (any Error)?) {
        state.withLock { state in
            if let error { return finish(&state, .failed(HoldfastError(.networkError, "cannot add the mdoc service: \(error)"))) }
            peripheral.startAdvertising([CBAdvertisementDataServiceUUIDsKey: [CBUUID(nsuuid: state.serviceUUID)]])
        }
    }

    public func peripheralManagerDidStartAdvertising(_ peripheral: CBPeripheralManager, error: (any Error)?) {
        state.withLock { state in
            if let error { return finish(&state, .failed(HoldfastError(.networkError, "cannot advertise: \(error)"))) }
            state.starting?.resume(returning: .success(ProximityRetrieval(bleServiceUUID: state.serviceUUID)))
            state.starting = nil
        }
    }

    public func peripheralManager(_ peripheral: CBPeripheralManager, didReceiveWrite requests: [CBATTRequest]) {
        state.withLock { state in
            for request in requests where state.end == nil {
                let value = [UInt8](request.value ?? Data())
                if request.characteristic.uuid == CBUUID(string: Self.stateUUID) {
                    if value == [Self.start], state.reader == nil {
                        state.reader = request.central   // one reader per session: a later start is ignored
                        for waiter in state.readerWaiters { waiter.resume(returning: .success(())) }
                        state.readerWaiters = []
                    } else if value == [Self.end], request.central.identifier == state.reader?.identifier {
                        finish(&state, .byReader)
                    }
                } else if request.characteristic.uuid == CBUUID(string: Self.client2ServerUUID),
                          request.central.identifier == state.reader?.identifier {
                    do {
                        guard let message = try state.reassembler.append(
                            value, mtu: request.central.maximumUpdateValueLength + 3) else { continue }
                        if state.receivers.isEmpty {
                            state.inbox.append(message)
                        } else {
                            state.receivers.removeFirst().resume(returning: .success(message))
                        }
                    } catch {
                        finish(&state, .failed(HoldfastError(.networkError, "a malformed BLE message: \(error)")))
                    }
                }
            }
        }
    }

    public func peripheralManager(_ peripheral: CBPeripheralManager, central: CBCentral,
                                  didUnsubscribeFrom characteristic: CBCharacteristic) {
        state.withLock { state in
            if central.identifier == state.reader?.identifier { finish(&state, .byReader) }
        }
    }

    public func peripheralManagerIsReady(toUpdateSubscribers peripheral: CBPeripheralManager) {
        state.withLock { sendPending(&$0) }
    }

    // MARK: on the queue, under the lock

    /// Notifies the chunks waiting, until CoreBluetooth's queue is full (it calls peripheralManagerIsReady then).
    private func sendPending(_ state: inout State) {
        while let first = state.outbox.first {
            guard let chunk = first.chunks.first else {
                state.outbox.removeFirst().sent.resume(returning: .success(()))
                continue
            }
            guard let manager = state.manager, let characteristic = state.server2Client, let reader = state.reader,
                  manager.updateValue(Data(chunk), for: characteristic, onSubscribedCentrals: [reader]) else { return }
            state.outbox[0].chunks.removeFirst()
        }
    }

    /// Ends the session: every call waiting is answered (a receive with nil when the reader ended it).
    private func finish(_ state: inout State, _ end: End) {
        if state.end == nil || end == .closed { state.end = end }
        let refusal = state.refusal ?? LoopbackSocket.closedError
        state.starting?.resume(returning: .failure(refusal))
        state.readerWaiters.forEach { $0.resume(returning: .failure(refusal)) }
        let byReader = state.end == .byReader
        state.receivers.forEach { $0.resume(returning: byReader ? .success(nil) : .failure(refusal)) }
        state.outbox.forEach { $0.sent.resume(returning: .failure(refusal)) }
        (state.starting, state.readerWaiters, state.receivers, state.outbox) = (nil, [], [], [])
    }

    /// Runs `body` on `queue` with the state; it answers the continuation at once or keeps it for a callback.
    private func onQueue<T: Sendable>(
        _ body: @escaping @Sendable (inout State, Pending<T>) -> Void
    ) async throws(HoldfastError) -> T {
        let result = await withCheckedContinuation { (continuation: Pending<T>) in
            queue.async { self.state.withLock { body(&$0, continuation) } }
        }
        return try result.get()
    }
}
#endif
