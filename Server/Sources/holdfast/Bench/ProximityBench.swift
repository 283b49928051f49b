import ArgumentParser
import COSE
import Crypto
import Foundation
import HoldfastProtocol
import MDoc
import MDocProximity
import OpenID4VP
import PresentationVerification

/// `holdfast bench proximity` (docs/operations.md "Benchmarks"): whole ISO/IEC 18013-5 in-person sessions in one
/// process, without sockets — the platform-neutral session layer of both sides (`MDocProximitySession`,
/// `ReaderProximitySession`) driven directly, each message's bytes handed across:
///
/// 1. engagement (§8.2.1.1): the mdoc makes EDeviceKey and shows its DeviceEngagement as `mdoc:` QR text (§8.2.2.3);
///    the reader reads it and makes EReaderKey;
/// 2. establishment and request (§9.1.1.4): the reader's DeviceRequest for 4 elements of the mDL, encrypted with
///    SKReader (§9.1.1.5), as the SessionEstablishment; the mdoc derives the keys and decrypts it;
/// 3. response: the mdoc decodes the request, discloses those 4 elements of its 20-element mDL, signs
///    DeviceAuthentication over the session transcript (§9.1.3.6) and seals the DeviceResponse with SKDevice;
/// 4. verified: the reader decrypts it and runs the shared checks (`DeviceResponseVerification`, as the SDK's
///    `MobileCredentialReader` does: chain to the IACA, issuerAuth, digests, validity, device signature, what was
///    asked); the document signer's path, validated once, is kept (`DocumentSignerPaths`).
///
/// The baseline is the raw cryptography one session cannot avoid, measured in the same run in alternating slices:
/// 2 ECDH (each side's Z_AB), 4 HKDF-SHA256 (SKReader and SKDevice on each side), AES-256-GCM seal and open of the
/// request and of the response (the messages' sizes), one ES256 signature (DeviceAuthentication's size) and two
/// ES256 verifies (issuerAuth over the MSO's size, the device signature). Target: at least 0.5× its rate.
struct ProximityBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proximity",
        abstract: "Whole ISO/IEC 18013-5 proximity sessions in process, against the raw crypto of one session.")

    @OptionGroup var options: BenchOptions

    static let disclosedCount = 4

    func run() async throws {
        if let benchBuildWarning { print(benchBuildWarning) }
        let bench = try Sessions(run: CommandRun.system())
        // What is measured passes (and gives the sizes the baseline works on).
        let sample = try await bench.session()
        let raw = try RawSession(sample)
        try raw.run()

        let (ours, baseline) = try await measureInterleaved(seconds: options.seconds, batch: 5,
                                                            baseline: { try raw.run() },
                                                            ours: { _ = try await bench.session() })
        print("input: a 20-element mDL, \(Self.disclosedCount) elements requested and disclosed; DeviceRequest "
            + "\(sample.request) bytes, DeviceResponse \(sample.response) bytes, MSO \(sample.mso) bytes, "
            + "DeviceAuthentication \(sample.deviceAuthentication) bytes")
        printComparison(name: "in-person session: engagement → establishment → request → response → verified", ours: ours,
                        baselineName: "raw crypto of one session: 2 ECDH + 4 HKDF + AES-GCM seal/open of request and response "
                            + "+ 1 ES256 sign + 2 ES256 verifies", baseline: baseline.perSecond, unit: "sessions/s")
        print("target: ≥ 0.50×")
    }

    /// The sizes one session worked on.
    struct Sample {
        var request: Int
        var response: Int
        var mso: Int
        var deviceAuthentication: Int
    }

    /// The credential, the reader's trust and request, and one session of both sides.
    struct Sessions: Sendable {
        let deviceKey = P256.Signing.PrivateKey()
        let issuerSigned: IssuerSigned
        let docType: String
        let trust: IssuerTrust
        let itemsRequest: ItemsRequest
        let clock: any HoldfastClock

        init(run: CommandRun) throws {
            clock = run.clock
            let fixtures = try CredentialBenchFixtures(extendedKeyUsage: IssuerTrust.mdlDSExtendedKeyUsage, run: run)
            issuerSigned = try fixtures.mdoc(elements: 20, deviceKey: deviceKey.publicKey)
            docType = issuerSigned.mso.docType
            trust = IssuerTrust(iacas: [fixtures.iaca])
            let nameSpace = issuerSigned.nameSpaces.first?.name ?? "org.iso.18013.5.1"
            let elements = issuerSigned.nameSpaces.first?.items.prefix(ProximityBench.disclosedCount).map(\.elementIdentifier) ?? []
            itemsRequest = ItemsRequest(docType: docType, nameSpaces: [.init(nameSpace, elements: elements.map { .init($0) })])
        }

        /// One whole session; throws unless the reader's result is `verified`.
        func session() async throws -> Sample {
            // Engagement: the mdoc's fresh EDeviceKey as QR text; the reader reads it and makes EReaderKey.
            var holder = MDocProximitySession(ble: .init(peripheralServerMode: true), loopback: nil)
            var reader = try ReaderProximitySession(engagement: try DeviceEngagement(qrCode: holder.engagement.qrCode))

            // Establishment: the reader's DeviceRequest as the SessionEstablishment.
            let deviceRequest = DeviceRequest(docRequests: [.init(itemsRequest: itemsRequest)])
            let requestBytes = deviceRequest.encoded()
            let establishment = try reader.request(deviceRequest: requestBytes)

            // Request → response: the mdoc decrypts and reads the request, discloses what it asks, signs, seals.
            let received: [UInt8]
            switch holder.receive(establishment) {
            case .request(let bytes): received = bytes
            case .terminated: throw CommandFailure(.failure, "the mdoc saw the session end")
            case .failed(_, let error): throw CommandFailure(.failure, "the mdoc refused the establishment: \(error)")
            }
            guard let transcript = holder.sessionTranscript else { throw CommandFailure(.failure, "the mdoc has no transcript") }
            var documents: [Document] = []
            for docRequest in try DeviceRequest(decoding: received).docRequests where docRequest.itemsRequest.docType == docType {
                var wanted: [String: Set<String>] = [:]
                for space in docRequest.itemsRequest.nameSpaces { wanted[space.name, default: []].formUnion(space.elements.map(\.identifier)) }
                let deviceSigned = try DeviceSigned.sign(docType: docType, sessionTranscript: transcript, signer: COSESigningKey.p256(deviceKey))
                documents.append(Document(docType: docType, issuerSigned: issuerSigned.disclosing(wanted), deviceSigned: deviceSigned))
            }
            let responseBytes = DeviceResponse(documents: documents).encoded()
            let sealed = try holder.seal(deviceResponse: responseBytes)

            // Verified: the reader decrypts and runs the shared checks over its transcript, with its ephemeral key.
            let opened: [UInt8]
            switch reader.receive(sealed) {
            case .response(let bytes): opened = bytes
            case .terminated(let status): throw CommandFailure(.failure, "the mdoc ended the session with status \(status)")
            case .failed(_, let error): throw CommandFailure(.failure, "the reader refused the response: \(error)")
            }
            let verification = DeviceResponseVerification(
                requirements: PresentationRequirements(deviceRequest: deviceRequest), transcripts: [reader.sessionTranscript],
                trust: trust, readerKey: reader.eReaderKey, naming: .none, at: clock.now()) { _, _ in nil }
            let result = try await verification.verify(deviceResponse: opened)
            guard result.status == .verified else { throw CommandFailure(.failure, "the session's answer was refused: \(result.failures ?? [])") }
            let deviceAuthentication = DeviceAuthentication.taggedBytes(sessionTranscript: transcript, docType: docType,
                                                                       deviceNameSpacesBytes: DeviceSigned.emptyNameSpacesBytes)
            return Sample(request: requestBytes.count, response: responseBytes.count, mso: issuerSigned.mso.taggedBytes.count,
                          deviceAuthentication: deviceAuthentication.count)
        }
    }

    /// The raw cryptography of one session on messages of a measured session's sizes.
    struct RawSession {
        let holderKey = P256.KeyAgreement.PrivateKey()
        let readerKey = P256.KeyAgreement.PrivateKey()
        let signingKey = P256.Signing.PrivateKey()
        let salt = Array(SHA256.hash(data: [UInt8](repeating: 0x24, count: 64)))
        let sessionKey = SymmetricKey(size: .bits256)
        let nonce: AES.GCM.Nonce
        let request: [UInt8]
        let response: [UInt8]
        let sealedRequest: AES.GCM.SealedBox
        let sealedResponse: AES.GCM.SealedBox
        let deviceAuthentication: [UInt8]
        let mso: [UInt8]
        let msoSignature: P256.Signing.ECDSASignature

        init(_ sample: Sample) throws {
            nonce = try AES.GCM.Nonce(data: SessionEncryption.readerIdentifier + [0, 0, 0, 1])
            request = [UInt8](repeating: 0xA1, count: sample.request)
            response = [UInt8](repeating: 0xA2, count: sample.response)
            sealedRequest = try AES.GCM.seal(request, using: sessionKey, nonce: nonce)
            sealedResponse = try AES.GCM.seal(response, using: sessionKey, nonce: nonce)
            deviceAuthentication = [UInt8](repeating: 0x5A, count: sample.deviceAuthentication)
            mso = [UInt8](repeating: 0x5B, count: sample.mso)
            msoSignature = try signingKey.signature(for: mso)
        }

        func run() throws {
            // 2 ECDH: each side's Z_AB.
            let holderSecret = try holderKey.sharedSecretFromKeyAgreement(with: readerKey.publicKey)
            _ = try readerKey.sharedSecretFromKeyAgreement(with: holderKey.publicKey)
            // 4 HKDF: SKReader and SKDevice on each side.
            for info in ["SKReader", "SKDevice", "SKReader", "SKDevice"] {
                _ = holderSecret.hkdfDerivedSymmetricKey(using: SHA256.self, salt: salt, sharedInfo: Array(info.utf8), outputByteCount: 32)
            }
            // AES-GCM: the request sealed by the reader and opened by the mdoc, the response the other way.
            _ = try AES.GCM.seal(request, using: sessionKey, nonce: nonce)
            _ = try AES.GCM.open(sealedRequest, using: sessionKey)
            _ = try AES.GCM.seal(response, using: sessionKey, nonce: nonce)
            _ = try AES.GCM.open(sealedResponse, using: sessionKey)
            // ES256: the device signature, and the reader's verifies of it and of issuerAuth.
            let signature = try signingKey.signature(for: deviceAuthentication)
            guard signingKey.publicKey.isValidSignature(signature, for: deviceAuthentication),
                  signingKey.publicKey.isValidSignature(msoSignature, for: mso) else {
                throw CommandFailure(.failure, "a raw verify failed")
            }
        }
    }
}
