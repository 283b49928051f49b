import COSE
import Crypto
import Foundation
import HoldfastProtocol
import MDoc
import MDocProximity
import PresentationVerification
import X509

/// What a reader asks of one docType (ISO/IEC 18013-5 §8.3.2.1.2.1 ItemsRequest): namespace → element →
/// `intentToRetain`. Every element asked is required: the result fails `CLAIM_MISSING` without it.
public struct ProximityReadRequest: Sendable, Hashable {
    public var docType: String
    public var nameSpaces: [String: [String: Bool]]

    public init(docType: String, nameSpaces: [String: [String: Bool]]) {
        self.docType = docType
        self.nameSpaces = nameSpaces
    }

    /// Elements asked without the intent to retain them.
    public init(docType: String, elements: [String: [String]]) {
        self.init(docType: docType, nameSpaces: elements.mapValues { Dictionary($0.map { ($0, false) }, uniquingKeysWith: { a, _ in a }) })
    }

    var itemsRequest: ItemsRequest {
        ItemsRequest(docType: docType, nameSpaces: nameSpaces.sorted { $0.key < $1.key }.map { name, elements in
            ItemsRequest.NameSpace(name, elements: elements.sorted { $0.key < $1.key }.map { .init($0.key, intentToRetain: $0.value) })
        })
    }
}

/// The reader's certificate chain (DER, leaf first) and key, for `readerAuth` (ISO/IEC 18013-5 §9.1.4).
public struct ReaderIdentity: Sendable {
    public var certificateChain: [[UInt8]]
    public var key: P256.Signing.PrivateKey

    public init(certificateChain: [[UInt8]], key: P256.Signing.PrivateKey) {
        self.certificateChain = certificateChain
        self.key = key
    }
}

/// An mdoc reader for in-person presentation (docs/sdk.md "Reader"; ISO/IEC 18013-5 §8–9), for a verifier app: it
/// reads the holder's engagement (`mdoc:` QR text), establishes the encrypted session over a transport, sends
/// DeviceRequests and verifies each DeviceResponse with the tenant verifier's own checks (`PresentationVerification`):
/// issuer chain to the trusted IACAs, issuer signature, digests, validity, device authentication (signature or MAC)
/// over this session's transcript, docType, only what was asked, everything asked shown, and the status list. The
/// result has the tenant verifier's shape and failure codes (docs/server-api.md "Verifier").
public struct MobileCredentialReader: Sendable {
    public let trustedIACAs: [Certificate]
    /// Where status lists are fetched and cached (as the holder's are); nil reads offline: a credential that names a
    /// status list then fails `STATUS_UNKNOWN`, as at the tenant.
    public let statusLists: StatusListCache?
    let clock: any HoldfastClock

    public init(trustedIACAs: [Certificate], statusLists: StatusListCache? = nil, clock: any HoldfastClock = SystemClock()) {
        self.trustedIACAs = trustedIACAs
        self.statusLists = statusLists
        self.clock = clock
    }

    /// IACAs from PEM text (one or more certificates each).
    public init(trustedIACAPEMs pems: [String], statusLists: StatusListCache? = nil, clock: any HoldfastClock = SystemClock()) throws(HoldfastError) {
        var iacas: [Certificate] = []
        for pem in pems {
            do { iacas += try IssuerTrust(pem: pem).iacas } catch {
                throw HoldfastError(.validationFailed, "a trusted IACA is not PEM certificates: \(error)")
            }
        }
        self.init(trustedIACAs: iacas, statusLists: statusLists, clock: clock)
    }

    /// Reads once: connects, sends `request`, verifies the answer and ends the session (status 20).
    public func read(engagement: String, request: [ProximityReadRequest], over transport: any ReaderProximityTransport,
                     readerIdentity: ReaderIdentity? = nil) async throws(HoldfastError) -> PresentationResult {
        let session = try await connect(engagement: engagement, over: transport, readerIdentity: readerIdentity)
        let result = try await session.request(request)
        await session.end()
        return result
    }

    /// Connects to the mdoc `engagement` names, for one or more requests (`MobileCredentialReaderSession`).
    public func connect(engagement: String, over transport: any ReaderProximityTransport,
                        readerIdentity: ReaderIdentity? = nil) async throws(HoldfastError) -> MobileCredentialReaderSession {
        let parsed: DeviceEngagement
        do { parsed = try DeviceEngagement(qrCode: engagement) } catch {
            throw HoldfastError(.requestInvalid, "the engagement is not an ISO/IEC 18013-5 mdoc: QR text: \(error)")
        }
        let state: ReaderProximitySession
        do { state = try ReaderProximitySession(engagement: parsed) } catch {
            throw HoldfastError(.requestUnsupported, "the engagement cannot start a session: \(error)")
        }
        guard let uuid = parsed.ble?.peripheralServerUUID ?? (parsed.loopback == nil ? nil : UUID()) else {
            throw HoldfastError(.requestUnsupported, "the engagement offers no retrieval this reader speaks (BLE peripheral server mode)")
        }
        try await transport.connect(to: ProximityRetrieval(bleServiceUUID: uuid,
                                                           loopback: parsed.loopback.map { LoopbackAddress(host: $0.host, port: $0.port) }))
        return MobileCredentialReaderSession(reader: self, state: state, transport: transport, identity: readerIdentity)
    }
}

/// One reader session with one mdoc: requests, each answered and verified, then `end()`.
public actor MobileCredentialReaderSession {
    let reader: MobileCredentialReader
    private var state: ReaderProximitySession
    private let transport: any ReaderProximityTransport
    private let identity: ReaderIdentity?
    private var ended = false

    init(reader: MobileCredentialReader, state: ReaderProximitySession, transport: any ReaderProximityTransport, identity: ReaderIdentity?) {
        self.reader = reader
        self.state = state
        self.transport = transport
        self.identity = identity
    }

    /// This session's SessionTranscript (ISO/IEC 18013-5 §9.1.5.1: the engagement, EReaderKey, no handover for QR).
    public var sessionTranscript: SessionTranscript { state.sessionTranscript }

    /// Sends a DeviceRequest for `request` (with `readerAuth` when the reader has an identity) and verifies the
    /// answer. A DeviceResponse of status 10 without documents, or the mdoc ending the session, is `declined`; a
    /// message that does not decrypt ends the session (status 10 sent) and fails `SESSION_ENCRYPTION_FAILED`.
    public func request(_ request: [ProximityReadRequest]) async throws(HoldfastError) -> PresentationResult {
        guard !ended else { throw HoldfastError(.validationFailed, "the reader session has ended") }
        guard !request.isEmpty else { throw HoldfastError(.validationFailed, "ask for at least one docType") }
        let transcript = state.sessionTranscript
        var docRequests: [DeviceRequest.DocRequest] = []
        for wanted in request {
            if let identity {
                do {
                    docRequests.append(try DeviceRequest.DocRequest(itemsRequest: wanted.itemsRequest, sessionTranscript: transcript,
                                                                    signer: COSESigningKey.p256(identity.key),
                                                                    certificateChain: identity.certificateChain))
                } catch {
                    throw HoldfastError(.validationFailed, "the reader's identity cannot sign the request: \(error)")
                }
            } else {
                docRequests.append(DeviceRequest.DocRequest(itemsRequest: wanted.itemsRequest))
            }
        }
        let message: [UInt8]
        do { message = try state.request(deviceRequest: DeviceRequest(docRequests: docRequests).encoded()) } catch {
            throw HoldfastError(.internalError, "the request cannot be encrypted: \(error)")
        }
        try await transport.send(message)
        guard let reply = try await transport.receive() else {
            await close()
            throw HoldfastError(.networkError, "the mdoc closed the connection without answering")
        }
        switch state.receive(reply) {
        case .response(let bytes):
            return await reader.verify(bytes, asked: request, transcript: transcript, readerKey: state.eReaderKey)
        case .terminated(let status) where status == .sessionTermination:
            await close()
            return PresentationResult(status: .declined)
        case .terminated(let status):
            await close()
            return PresentationResult(status: .failed, failures: [.init(
                code: .sessionEncryptionFailed, reason: "the mdoc ended the session with status \(status.rawValue): it could not decrypt or decode the request")])
        case .failed(let answer, let error):
            if let answer { try? await transport.send(answer) }
            await close()
            return PresentationResult(status: .failed, failures: [.init(
                code: error == .sessionEncryptionFailed ? .sessionEncryptionFailed : .malformed, reason: "the mdoc's message: \(error)")])
        }
    }

    /// Ends the session: SessionData status 20 (§9.1.1.4), then the transport is closed.
    public func end() async {
        guard !ended else { return }
        try? await transport.send(ReaderProximitySession.termination())
        await close()
    }

    private func close() async {
        ended = true
        await transport.close()
    }
}
