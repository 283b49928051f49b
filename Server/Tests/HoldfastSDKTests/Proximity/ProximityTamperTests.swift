import CBOR
import COSE
import Crypto
import Foundation
import HoldfastProtocol
@testable import HoldfastSDK
import MDoc
import MDocProximity
import Testing
import X509

/// Each tamper of an in-person presentation refused alone (ISO/IEC 18013-5 §9.1.1.5, §9.3.1): a reader that skips a
/// counter, replays a message or writes under another key is sent status 10 and learns nothing; a holder that shows
/// an element not asked, changes a value, signs another transcript, chains to an IACA the reader does not trust,
/// presents a revoked credential or writes a message that does not decrypt is refused by the reader with the tenant
/// verifier's code.
@Suite struct ProximityTamperTests {
    let base = ProximityPresentationTests()

    // MARK: a reader that misbehaves: the holder ends the session with status 10

    /// A holder session and a raw reader connected to it; `misbehave` sends what it likes after the first request.
    func misbehavingReader(_ misbehave: @escaping @Sendable (inout ReaderProximitySession, LoopbackReaderTransport, [UInt8]) async throws -> Void)
        async throws -> (events: [ProximityPresentationEvent], reply: [UInt8]?) {
        let rig = try await base.rig()
        let session = try await rig.holder.createProximityPresentationSession(transport: LoopbackMDocTransport())
        let events = ProximityPresentationTests.holderSide(session) { request in
            try await session.sendResponse(credentialIds: ProximityPresentationTests.first(request))
        }
        let engagement = try DeviceEngagement(qrCode: session.qrCode)
        var state = try ReaderProximitySession(engagement: engagement)
        let transport = LoopbackReaderTransport()
        try await transport.connect(to: ProximityRetrieval(bleServiceUUID: UUID(), loopback: engagement.loopback.map { .init(host: $0.host, port: $0.port) }))
        let request = DeviceRequest(docRequests: [.init(itemsRequest: ProximityPresentationTests.familyName.itemsRequest)]).encoded()
        try await transport.send(try state.request(deviceRequest: request))
        guard case .response? = (try await transport.receive()).map({ state.receive($0) }) else {
            Issue.record("the honest first request was not answered")
            return ([], nil)
        }
        try await misbehave(&state, transport, request)
        let reply = try await transport.receive()
        await transport.close()
        return (await events.value, reply)
    }

    static func endedWithStatus10(_ outcome: (events: [ProximityPresentationEvent], reply: [UInt8]?), requests: Int = 1) throws {
        let reply = try SessionData(decoding: try #require(outcome.reply))
        #expect(reply.status == .sessionEncryptionError && reply.data == nil)
        #expect(outcome.events.last == .terminated(.sessionEncryptionFailed))
        // Only the honest requests reached the app: nothing more was disclosed.
        #expect(outcome.events.filter { if case .requestReceived = $0 { true } else { false } }.count == requests)
    }

    @Test func aSkippedCounterEndsTheSession() async throws {
        try Self.endedWithStatus10(try await misbehavingReader { state, transport, request in
            _ = try state.request(deviceRequest: request)   // counter 2, never sent
            try await transport.send(try state.request(deviceRequest: request))   // counter 3
        })
    }

    @Test func aReplayedMessageEndsTheSession() async throws {
        try Self.endedWithStatus10(try await misbehavingReader { state, transport, request in
            let message = try state.request(deviceRequest: request)
            try await transport.send(message)
            _ = try await transport.receive()   // answered once
            try await transport.send(message)   // the same counter again
        }, requests: 2)
    }

    @Test func aMessageUnderAnotherKeyEndsTheSession() async throws {
        try Self.endedWithStatus10(try await misbehavingReader { state, transport, request in
            var other = try ReaderProximitySession(engagement: state.engagement)
            _ = try other.request(deviceRequest: request)   // its establishment: counter 1 under other keys
            try await transport.send(try other.request(deviceRequest: request))
        })
    }

    // MARK: a holder that misbehaves: the reader refuses with the verifier's code

    /// An mdoc that answers the reader's first request with `respond(transcript, request)`'s message, then waits for
    /// the end; the reader reads `asked` with `reader`.
    func misbehavingHolder(_ rig: ProximityPresentationTests.Rig, reader: MobileCredentialReader? = nil,
                           respond: @escaping @Sendable (inout MDocProximitySession, SessionTranscript) async throws -> [UInt8])
        async throws -> PresentationResult {
        let transport = LoopbackMDocTransport()
        let retrieval = try await transport.start()
        let initial = MDocProximitySession(ble: .init(peripheralServerMode: true, peripheralServerUUID: retrieval.bleServiceUUID),
                                           loopback: retrieval.loopback.map { .init(host: $0.host, port: $0.port) })
        let mdoc = Task {
            var state = initial
            try await transport.waitForReader()
            guard let message = try await transport.receive(), case .request = state.receive(message),
                  let transcript = state.sessionTranscript else { return }
            try await transport.send(try await respond(&state, transcript))
            _ = try await transport.receive()
            await transport.close()
        }
        let result = try await (reader ?? rig.reader).read(engagement: initial.engagement.qrCode, request: [ProximityPresentationTests.familyName],
                                                            over: LoopbackReaderTransport())
        try await mdoc.value
        return result
    }

    /// The holder's document for `elements` of its credential, signed over `transcript`.
    func document(_ rig: ProximityPresentationTests.Rig, elements: [String], transcript: SessionTranscript) async throws -> Document {
        let request = MobileCredentialRequest(id: FakeIssuer.docType, docType: FakeIssuer.docType,
                                              namespaces: [ProximityPresentationTests.nameSpace: Dictionary(uniqueKeysWithValues: elements.map { ($0, false) })])
        return try #require(try await rig.holder.presentations.documents([(request, rig.credentialId)], sessionTranscript: transcript).first).document
    }

    func sealed(_ state: inout MDocProximitySession, _ documents: [Document]) throws -> [UInt8] {
        try state.seal(deviceResponse: DeviceResponse(documents: documents).encoded())
    }

    static func refused(_ result: PresentationResult, _ code: PresentationFailureCode) {
        #expect(result.status == .failed)
        #expect(result.failures?.map(\.code) == [code], "\(result.failures ?? [])")
    }

    @Test func anElementNotAskedIsRefused() async throws {
        let rig = try await base.rig()
        Self.refused(try await misbehavingHolder(rig) { state, transcript in
            try self.sealed(&state, [try await self.document(rig, elements: ["family_name", "birth_date"], transcript: transcript)])
        }, .elementNotRequested)
    }

    @Test func aChangedValueIsADigestMismatch() async throws {
        let rig = try await base.rig()
        Self.refused(try await misbehavingHolder(rig) { state, transcript in
            let honest = try await self.document(rig, elements: ["family_name"], transcript: transcript)
            let spaces = honest.issuerSigned.nameSpaces.map { space in
                IssuerSigned.NameSpace(name: space.name, items: space.items.map {
                    IssuerSignedItem(digestID: $0.digestID, random: $0.random, elementIdentifier: $0.elementIdentifier, elementValue: .text("Mallory"))
                })
            }
            let forged = Document(docType: honest.docType, issuerSigned: try IssuerSigned(nameSpaces: spaces, issuerAuth: honest.issuerSigned.issuerAuth),
                                  deviceSigned: honest.deviceSigned)
            return try self.sealed(&state, [forged])
        }, .digestMismatch)
    }

    @Test func aDeviceSignatureOverAnotherTranscriptIsRefused() async throws {
        let rig = try await base.rig()
        Self.refused(try await misbehavingHolder(rig) { state, _ in
            let other = SessionTranscript(handover: .text("another session"))
            return try self.sealed(&state, [try await self.document(rig, elements: ["family_name"], transcript: other)])
        }, .deviceSignatureInvalid)
    }

    @Test func anIssuerTheReaderDoesNotTrustIsRefused() async throws {
        let rig = try await base.rig()
        let stranger = try FakeIssuer(clock: base.clock)
        let reader = MobileCredentialReader(trustedIACAs: [stranger.iaca], clock: base.clock)
        Self.refused(try await misbehavingHolder(rig, reader: reader) { state, transcript in
            try self.sealed(&state, [try await self.document(rig, elements: ["family_name"], transcript: transcript)])
        }, .issuerUntrusted)
    }

    @Test func aRevokedCredentialIsRefused() async throws {
        let rig = try await base.rig(withStatus: true)
        await rig.issuer.setRevoked(true)
        Self.refused(try await misbehavingHolder(rig) { state, transcript in
            try self.sealed(&state, [try await self.document(rig, elements: ["family_name"], transcript: transcript)])
        }, .statusRevoked)
    }

    @Test func anOfflineReaderCannotEstablishTheStatus() async throws {
        let rig = try await base.rig(withStatus: true)
        let offline = MobileCredentialReader(trustedIACAs: [rig.issuer.iaca], clock: base.clock)
        Self.refused(try await misbehavingHolder(rig, reader: offline) { state, transcript in
            try self.sealed(&state, [try await self.document(rig, elements: ["family_name"], transcript: transcript)])
        }, .statusUnknown)
    }

    @Test func aResponseThatDoesNotDecryptIsASessionEncryptionFailure() async throws {
        let rig = try await base.rig()
        Self.refused(try await misbehavingHolder(rig) { state, transcript in
            let documents = [try await self.document(rig, elements: ["family_name"], transcript: transcript)]
            _ = try self.sealed(&state, documents)   // counter 1, never sent
            return try self.sealed(&state, documents)   // counter 2
        }, .sessionEncryptionFailed)
    }
}
