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

/// In-person presentation (docs/sdk.md "Holder: proximity presentation", "Reader"; ISO/IEC 18013-5 §8–9): the SDK's
/// holder and the SDK's reader over the loopback transport in one process — verified, declined, a docType not held,
/// trusted and untrusted readers, two requests in one session — and each tamper refused alone, by the holder (a
/// message that does not decrypt: status 10, nothing disclosed) or by the reader (the tenant verifier's codes).
@Suite struct ProximityPresentationTests {
    let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
    let storage = MemorySecureStorage()
    static let nameSpace = "org.iso.18013.5.1"
    static let familyName = ProximityReadRequest(docType: FakeIssuer.docType, elements: [nameSpace: ["family_name"]])

    struct Rig {
        let holder: MobileCredentialHolder
        let issuer: FakeIssuer
        let credentialId: String
        let reader: MobileCredentialReader
        let seams: PlatformSeams
    }

    /// A holder with one credential (family_name, birth_date) from the scripted issuer, and a reader that trusts its
    /// IACA (status lists fetched through the same scripted network).
    func rig(withStatus: Bool = false) async throws -> Rig {
        let tenant = FakeTenant(deviceClock: clock)
        let issuer = try FakeIssuer(clock: clock)
        if withStatus { await issuer.enableStatus() }
        let transport = TenantAndIssuer(tenant: tenant, issuer: issuer, verifier: nil)
        let seams = PlatformSeams(secureStorage: storage, secureArea: SoftwareSecureArea(storage: storage), transport: transport,
                                  clock: clock, sleeper: RecordingSleeper(), jitter: { 1.0 },
                                  tetheringScheduler: ManualTetheringScheduler(), urlOpener: RecordingURLOpener())
        let holder = MobileCredentialHolder(seams: seams)
        try await holder.initialize(platformConfiguration: PlatformConfiguration(tenantHost: "tenant.test", applicationId: "app-1"))
        _ = try await holder.registerDevice()
        _ = try await holder.addTrustedIssuerCertificates([await issuer.iacaPEM])
        let claimed = try await holder.claimCredentials(offer: try await holder.retrieveCredentialOffer(uri: FakeIssuer.offerURI()))
        let statusLists = StatusListCache(storage: MemorySecureStorage(), transport: transport, clock: clock)
        let reader = MobileCredentialReader(trustedIACAs: [issuer.iaca], statusLists: statusLists, clock: clock)
        return Rig(holder: holder, issuer: issuer, credentialId: try #require(claimed.first).id, reader: reader, seams: seams)
    }

    /// Runs the holder's side: answers each request with `answer` until the session ends; returns its events.
    static func holderSide(_ session: ProximityPresentationSession,
                           answer: @escaping @Sendable (ProximityRequest) async throws -> Void) -> Task<[ProximityPresentationEvent], Never> {
        Task {
            var seen: [ProximityPresentationEvent] = []
            for await event in session.events {
                seen.append(event)
                if case .requestReceived(let request) = event { try? await answer(request) }
            }
            return seen
        }
    }

    static func first(_ request: ProximityRequest) -> [String] {
        request.matchedCredentials.compactMap { $0.matchedMobileCredentials.first?.id }
    }

    @Test func theHolderAndTheReaderAgreeOverLoopback() async throws {
        let rig = try await rig()
        let session = try await rig.holder.createProximityPresentationSession(transport: LoopbackMDocTransport())
        #expect(session.qrCode.hasPrefix("mdoc:"))
        #expect(try DeviceEngagement(qrCode: session.qrCode).loopback?.host == "127.0.0.1")
        #expect(session.qrCodeImage != nil)
        let events = Self.holderSide(session) { request in try await session.sendResponse(credentialIds: Self.first(request)) }
        let result = try await rig.reader.read(engagement: session.qrCode, request: [Self.familyName], over: LoopbackReaderTransport())
        #expect(result.status == .verified, "\(result.failures ?? [])")
        #expect(result.claims?[FakeIssuer.docType]?[Self.nameSpace]?["family_name"] == .string("Doe"))
        #expect(result.claims?[FakeIssuer.docType]?[Self.nameSpace]?["birth_date"] == nil)
        #expect(result.credentials?.first?.status == .notRevocable)
        let seen = await events.value
        #expect(seen.first == .engagementReady(qrCode: session.qrCode))
        #expect(seen.contains(.readerConnected) && seen.contains(.responseSent))
        #expect(seen.last == .terminated(.readerEnded))
        guard case .requestReceived(let request)? = seen.first(where: { if case .requestReceived = $0 { true } else { false } }) else {
            Issue.record("no request event")
            return
        }
        #expect(request.verifiedBy == .none && request.readerName == nil)
        #expect(request.matchedCredentials.first?.claims[rig.credentialId]?.map(\.elementIdentifier) == ["family_name"])
    }

    @Test func aDeclineIsDeclinedAtTheReader() async throws {
        let rig = try await rig()
        let session = try await rig.holder.createProximityPresentationSession(transport: LoopbackMDocTransport())
        let events = Self.holderSide(session) { _ in try await session.declineRequest() }
        let result = try await rig.reader.read(engagement: session.qrCode, request: [Self.familyName], over: LoopbackReaderTransport())
        #expect(result.status == .declined && result.credentials == nil)
        #expect(await events.value.last == .terminated(.readerEnded))
    }

    @Test func aDocTypeNotHeldIsADocumentError() async throws {
        let rig = try await rig()
        let session = try await rig.holder.createProximityPresentationSession(transport: LoopbackMDocTransport())
        let events = Self.holderSide(session) { request in
            #expect(request.credentialNotFound?.code == .credentialNotFound)
            try await session.sendResponse(credentialIds: [])
        }
        let other = ProximityReadRequest(docType: "org.example.other", elements: ["org.example": ["name"]])
        let result = try await rig.reader.read(engagement: session.qrCode, request: [other], over: LoopbackReaderTransport())
        #expect(result.status == .failed)
        #expect(result.failures?.map(\.code).contains(.documentErrors) == true)
        #expect(result.failures?.map(\.code).contains(.credentialMissing) == true)
        _ = await events.value
    }

    @Test func twoRequestsInOneSession() async throws {
        let rig = try await rig()
        let session = try await rig.holder.createProximityPresentationSession(transport: LoopbackMDocTransport())
        let events = Self.holderSide(session) { request in try await session.sendResponse(credentialIds: Self.first(request)) }
        let reading = try await rig.reader.connect(engagement: session.qrCode, over: LoopbackReaderTransport())
        let first = try await reading.request([Self.familyName])
        let second = try await reading.request([ProximityReadRequest(docType: FakeIssuer.docType, elements: [Self.nameSpace: ["birth_date"]])])
        await reading.end()
        #expect(first.status == .verified && second.status == .verified)
        #expect(second.claims?[FakeIssuer.docType]?[Self.nameSpace]?["birth_date"] != nil)
        #expect(second.claims?[FakeIssuer.docType]?[Self.nameSpace]?["family_name"] == nil)
        let seen = await events.value
        #expect(seen.filter { $0 == .responseSent }.count == 2)
    }

    // MARK: the reader's authentication (ISO/IEC 18013-5 §9.1.4)

    func readerIdentity() throws -> (identity: ReaderIdentity, caPEM: String) {
        let pki = try TestVerifierPKI(host: "reader.example", at: clock.now())
        return (ReaderIdentity(certificateChain: [pki.leafDER, pki.caDER], key: pki.leafKey), try pki.ca.serializeAsPEM().pemString)
    }

    @Test func aReaderWhoseChainReachesATrustedReaderCAIsNamed() async throws {
        let rig = try await rig()
        let (identity, caPEM) = try readerIdentity()
        _ = try await rig.holder.addTrustedReaderCertificates([caPEM])
        #expect(try await rig.holder.getTrustedReaderCertificates().count == 1)
        #expect(try await rig.holder.getTrustedVerifierCertificates().isEmpty)
        let session = try await rig.holder.createProximityPresentationSession(transport: LoopbackMDocTransport(), requireTrustedReader: true)
        let events = Self.holderSide(session) { request in
            #expect(request.verifiedBy == .certificate && request.readerName == "reader.example")
            try await session.sendResponse(credentialIds: Self.first(request))
        }
        let result = try await rig.reader.read(engagement: session.qrCode, request: [Self.familyName], over: LoopbackReaderTransport(),
                                               readerIdentity: identity)
        #expect(result.status == .verified)
        _ = await events.value
    }

    @Test func anUntrustedReaderIsShownAsSuchOrRefusedWhenTrustIsRequired() async throws {
        let rig = try await rig()
        let (identity, _) = try readerIdentity()   // its CA is not added
        let open = try await rig.holder.createProximityPresentationSession(transport: LoopbackMDocTransport())
        let openEvents = Self.holderSide(open) { request in
            #expect(request.verifiedBy == .none && request.readerName == nil)
            try await open.sendResponse(credentialIds: Self.first(request))
        }
        #expect(try await rig.reader.read(engagement: open.qrCode, request: [Self.familyName], over: LoopbackReaderTransport(),
                                          readerIdentity: identity).status == .verified)
        _ = await openEvents.value

        let strict = try await rig.holder.createProximityPresentationSession(transport: LoopbackMDocTransport(), requireTrustedReader: true)
        let strictEvents = Self.holderSide(strict) { _ in Issue.record("an untrusted reader's request reached the app") }
        let refused = try await rig.reader.read(engagement: strict.qrCode, request: [Self.familyName], over: LoopbackReaderTransport(),
                                                readerIdentity: identity)
        #expect(refused.status == .declined && refused.claims == nil)
        #expect(await strictEvents.value.last == .terminated(.readerUntrusted))
    }
}
