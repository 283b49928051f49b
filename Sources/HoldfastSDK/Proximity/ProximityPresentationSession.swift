import CBOR
import Crypto
import Foundation
import HoldfastProtocol
import MDoc
import MDocProximity
import QR

extension Presentations {
    /// Starts an in-person presentation (docs/sdk.md "Holder: proximity presentation"; ISO/IEC 18013-5 §8–9): the
    /// transport starts listening (or advertising), the device engagement is made with a fresh ephemeral key
    /// (EDeviceKey) and what the transport says about where to reach it, and the session waits for a reader.
    /// One session answers every request of its reader until it is terminated.
    public func createProximityPresentationSession(transport: any MDocProximityTransport, requireTrustedReader: Bool = false,
                                                   unknownStatusPolicy: UnknownStatusPolicy = .allowWithWarning)
        async throws(HoldfastError) -> ProximityPresentationSession {
        // docs/sdk.md "Holder: the offline limit".
        try await credentials.tethering.requireWithinOfflineLimit()
        let retrieval = try await transport.start()
        let protocolState = MDocProximitySession(
            ble: DeviceEngagement.BLEOptions(peripheralServerMode: true, centralClientMode: false,
                                             peripheralServerUUID: retrieval.bleServiceUUID),
            loopback: retrieval.loopback.map { DeviceEngagement.LoopbackEndpoint(host: $0.host, port: $0.port) })
        let session = ProximityPresentationSession(state: protocolState, transport: transport, presentations: self,
                                                   requireTrustedReader: requireTrustedReader, unknownStatusPolicy: unknownStatusPolicy)
        await session.start()
        return session
    }

    public func addTrustedReaderCertificates(_ pems: [String]) async throws(HoldfastError) -> [TrustedReaderCertificate] {
        try await trustedReaders.add(pems)
    }

    public func getTrustedReaderCertificates() async throws(HoldfastError) -> [TrustedReaderCertificate] {
        try await trustedReaders.all()
    }

    public func removeTrustedReaderCertificate(id: String) async throws(HoldfastError) {
        try await trustedReaders.remove(id: id)
    }
}

/// One in-person presentation (docs/sdk.md "Holder: proximity presentation"): the engagement to show, then each
/// request of the reader as a `ProximityRequest` (in `events` and `request`), answered with `sendResponse` or
/// `declineRequest`, until the reader ends the session (status 20), the app calls `terminate()`, or a message does
/// not decrypt.
public actor ProximityPresentationSession {
    /// The device engagement as QR text: `mdoc:` + base64url of DeviceEngagement (ISO/IEC 18013-5 §8.2.2.3).
    public nonisolated let qrCode: String
    /// Every event of the session, from `engagementReady` to `terminated` (one consumer).
    public nonisolated let events: AsyncStream<ProximityPresentationEvent>
    /// The request waiting for an answer, if any.
    public private(set) var request: ProximityRequest?
    /// Set once the session has ended.
    public private(set) var terminationReason: ProximityTerminationReason?

    private var state: MDocProximitySession
    private let transport: any MDocProximityTransport
    private let presentations: Presentations
    private let requireTrustedReader: Bool
    private let unknownStatusPolicy: UnknownStatusPolicy
    private let continuation: AsyncStream<ProximityPresentationEvent>.Continuation
    private var loop: Task<Void, Never>?

    init(state: MDocProximitySession, transport: any MDocProximityTransport, presentations: Presentations,
         requireTrustedReader: Bool, unknownStatusPolicy: UnknownStatusPolicy) {
        self.state = state
        self.transport = transport
        self.presentations = presentations
        self.requireTrustedReader = requireTrustedReader
        self.unknownStatusPolicy = unknownStatusPolicy
        qrCode = state.engagement.qrCode
        (events, continuation) = AsyncStream.makeStream(of: ProximityPresentationEvent.self)
    }

    /// The engagement's QR code as the SDK's `QR` module draws it (ISO/IEC 18004, byte mode, level M): draw its
    /// modules (`dark(row, column)`) or use `svg()`.
    /// An engagement is about a hundred bytes, far below what a level-M code holds: nil only in theory.
    public nonisolated var qrCodeImage: QRCode? {
        try? QRCode(bytes: Array(qrCode.utf8))
    }

    func start() {
        continuation.yield(.engagementReady(qrCode: qrCode))
        loop = Task { await self.run() }
    }

    /// Sends a DeviceResponse to the waiting request (ISO/IEC 18013-5 §8.3.2.1.2.2) with one document per chosen
    /// credential, each holding only the requested elements and signed with the credential's device key over this
    /// session's transcript (§9.1.3), and `documentErrors` (error code 0, "data not returned") for each requested
    /// docType no chosen credential answers. An empty `credentialIds` is allowed only when nothing matched.
    public func sendResponse(credentialIds: [String]) async throws(HoldfastError) {
        guard let request, terminationReason == nil else {
            throw HoldfastError(.validationFailed, terminationReason == nil ? "no request is waiting for an answer" : "the session has ended")
        }
        try await presentations.credentials.tethering.requireWithinOfflineLimit()
        guard let transcript = state.sessionTranscript else { throw HoldfastError(.internalError, "the session has no transcript yet") }
        var documents: [Document] = []
        var answered: Set<String> = []
        if !(credentialIds.isEmpty && request.credentialNotFound != nil) {
            let chosen = try request.matchedCredentials.chosen(credentialIds)
            documents = try await presentations.documents(chosen, sessionTranscript: transcript).map(\.document)
            answered = Set(chosen.map(\.request.docType))
        }
        let missing = request.requests.map(\.docType).filter { !answered.contains($0) }
        let errors: CBOR? = missing.isEmpty ? nil : .map(missing.map { CBOR.Pair(.text($0), .unsigned(Self.dataNotReturned)) })
        try await answer(DeviceResponse(documents: documents, documentErrors: errors))
    }

    /// Tells the reader the person declined: a DeviceResponse without documents, status 10 ("general error", the
    /// only status of ISO/IEC 18013-5 §8.3.2.1.2.3 for an answer the mdoc withholds), as the Digital Credentials API's
    /// decline is.
    public func declineRequest() async throws(HoldfastError) {
        guard request != nil, terminationReason == nil else {
            throw HoldfastError(.validationFailed, terminationReason == nil ? "no request is waiting for an answer" : "the session has ended")
        }
        try await answer(DeviceResponse(documents: [], status: DigitalCredentialsPresentationSession.declinedDeviceResponseStatus))
    }

    /// Ends the session: the reader is sent SessionData status 20 (§9.1.1.4) and the transport is closed.
    public func terminate() async {
        guard terminationReason == nil else { return }
        try? await transport.send(MDocProximitySession.termination())
        await end(.terminatedByHolder)
    }

    /// ISO/IEC 18013-5 §8.3.2.1.2.2 DocumentError code 0: data not returned.
    static let dataNotReturned: UInt64 = 0

    private func answer(_ response: DeviceResponse) async throws(HoldfastError) {
        let message: [UInt8]
        do { message = try state.seal(deviceResponse: response.encoded()) } catch {
            throw HoldfastError(.internalError, "the response cannot be encrypted: \(error)")
        }
        try await transport.send(message)
        request = nil
        continuation.yield(.responseSent)
    }

    private func run() async {
        do {
            try await transport.waitForReader()
        } catch {
            await end(terminationReason ?? .transportFailed(error.message))
            return
        }
        guard terminationReason == nil else { return }
        continuation.yield(.readerConnected)
        while terminationReason == nil {
            let message: [UInt8]?
            do { message = try await transport.receive() } catch {
                await end(terminationReason ?? .transportFailed(error.message))
                return
            }
            guard terminationReason == nil else { return }
            guard let message else {
                await end(.connectionClosed)
                return
            }
            switch state.receive(message) {
            case .request(let bytes):
                await received(bytes)
            case .terminated:
                await end(.readerEnded)
            case .failed(let reply, let error):
                try? await transport.send(reply)
                await end(error == .sessionEncryptionFailed ? .sessionEncryptionFailed : .decodingFailed)
            }
        }
    }

    /// A decrypted DeviceRequest: its reader checked, the stored credentials matched, the request shown to the app.
    private func received(_ bytes: [UInt8]) async {
        guard let transcript = state.sessionTranscript else { return }
        let deviceRequest: DeviceRequest
        do { deviceRequest = try DeviceRequest(decoding: bytes) } catch {
            // §8.3.2.1.2.3 status 11: the mdoc could not decode the request; the session goes on.
            try? await answer(DeviceResponse(documents: [], status: Self.cborDecodingError))
            return
        }
        do {
            let trusted = try await presentations.trustedReaders.certificates().map(\.certificate)
            let read = try await DeviceRequestReading(docRequests: deviceRequest.docRequests, trustedCertificates: trusted,
                                                      at: presentations.seams.clock.now()) {
                try deviceRequest.docRequests.compactMap {
                    $0.readerAuth == nil ? nil : try $0.verifyReaderAuthentication(sessionTranscript: transcript)
                }
            }
            if read.verifiedBy != .certificate, requireTrustedReader {
                try? await transport.send(MDocProximitySession.termination())
                await end(.readerUntrusted)
                return
            }
            let matches = try await presentations.match(read.requests, requirements: read.requirements, unknownStatusPolicy: unknownStatusPolicy)
            let shown = ProximityRequest(requests: read.requests, matchedCredentials: matches, verifiedBy: read.verifiedBy,
                                         readerName: read.readerName, requirements: read.requirements)
            request = shown
            continuation.yield(.requestReceived(shown))
        } catch {
            // A request this SDK cannot answer (a docType asked twice …): §8.3.2.1.2.3 status 12, validation error.
            try? await answer(DeviceResponse(documents: [], status: Self.cborValidationError))
        }
    }

    /// §8.3.2.1.2.3: 11 CBOR decoding error, 12 CBOR validation error.
    static let cborDecodingError: UInt64 = 11
    static let cborValidationError: UInt64 = 12

    private func end(_ reason: ProximityTerminationReason) async {
        guard terminationReason == nil else { return }
        terminationReason = reason
        request = nil
        await transport.close()
        continuation.yield(.terminated(reason))
        continuation.finish()
    }
}
