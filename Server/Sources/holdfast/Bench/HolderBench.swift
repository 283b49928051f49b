import ArgumentParser
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import HoldfastSDK
import HoldfastServer
import MDoc
import X509

/// `holdfast bench holder` (docs/operations.md "Benchmarks"): the holder SDK's `getCredential` with a warm cache — the credential
/// decoded and verified once, the status list token fetched, verified and decoded once — against a bare dictionary
/// lookup of the same credential in the same run (target ≥ 50,000 getCredential/s); and the status decision alone
/// (`StatusListCache.status`, online allowed, the token younger than its ttl) against the same lookup. The
/// credential is claimed for real, from a tenant in this process, over HTTP.
struct HolderBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "holder", abstract: "getCredential and the status decision with a warm cache, against a dictionary lookup.")

    @Option(help: "Seconds to measure each side.") var seconds: Double = 3

    func run() async throws {
        if let benchBuildWarning { print(benchBuildWarning) }
        let run = CommandRun.system()
        let folder = run.temporaryURL("holdfast-bench")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = try HoldfastConfiguration.fromEnvironment(dataDirectory: folder.appendingPathComponent("tenant").path)
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.publicURL = nil
        configuration.logLevel = .critical
        let seconds = self.seconds
        try await HoldfastApplication.withRunningServer(configuration: configuration) { server in
            guard let adminKey = server.startup.bootstrapAdminKey else { throw CommandFailure(.failure, "the new tenant printed no admin key") }
            let target = try BenchTarget(baseURL: server.baseURL, adminKey: adminKey, run: run)
            let admin = AdminClient(baseURL: server.baseURL, adminKey: adminKey)
            let applicationId = try await target.createApplication()
            _ = try await admin.createCredentialConfiguration(try HoldfastJSON.decode(CredentialConfiguration.self,
                                                                                      from: Data(IssuanceWallet.configuration.utf8)))
            let iacas = try await admin.iacas()
            let offerURI = try await admin.createCredentialOffer(try HoldfastJSON.decode(CredentialOfferRequest.self,
                                                                                         from: Data(IssuanceWallet.offer))).offerUri

            var seams = PlatformSeams.linux(stateDirectory: folder.appendingPathComponent("device"))
            seams.tetheringScheduler = ManualTetheringScheduler()
            let holder = MobileCredentialHolder(seams: seams)
            try await holder.initialize(platformConfiguration: PlatformConfiguration(tenantHost: server.baseURL, applicationId: applicationId))
            _ = try await holder.registerDevice()
            _ = try await holder.addTrustedIssuerCertificates(iacas.data.map(\.certificatePem))
            let claimed = try await holder.claimCredentials(offer: try await holder.retrieveCredentialOffer(uri: offerURI))
            guard let id = claimed.first?.id else { throw CommandFailure(.failure, "nothing was claimed") }
            let first = try await holder.getCredential(credentialId: id)
            guard first.verificationResult.verified, first.status == .valid else {
                throw CommandFailure(.failure, "the claimed credential does not verify: \(first.verificationResult)")
            }
            print("— a credential claimed from a tenant in this process at \(server.baseURL); its status list fetched once —")

            let lookup: [String: MobileCredential] = [id: first]
            var found = 0
            let bare = measureRate(seconds: seconds, batch: 1_000) {
                if lookup[id] != nil { found += 1 }
            }
            let credentials = holder.credentials
            let gets = try await measureAsyncRate(seconds: seconds, batch: 1_000) {
                let credential = try await credentials.getCredential(credentialId: id)
                guard credential.status == .valid else { throw CommandFailure(.failure, "the status changed during the run") }
            }
            printComparison(name: "getCredential, warm cache (status checked, online allowed)", ours: gets,
                            baselineName: "dictionary lookup of the same credential", baseline: bare.perSecond)
            print("target: ≥ 50,000 getCredential/s")

            guard let reference = try IssuerSignedReader.statusReference(first.issuerSigned) else {
                throw CommandFailure(.failure, "the credential has no status reference")
            }
            let trust = StatusTrust(id: first.metadata.issuerInfo.trustedIssuerCertificateId ?? "",
                                    anchors: try iacas.data.map { try IssuerSignedReader.certificate(pem: $0.certificatePem) })
            let statusLists = holder.statusLists
            let decisions = await measureAsyncRate(seconds: seconds, batch: 1_000) {
                if await statusLists.status(of: reference, trust: trust, online: true) == .valid { found += 1 }
            }
            precondition(found > 0)
            printComparison(name: "status decision (StatusListCache.status)", ours: decisions,
                            baselineName: "dictionary lookup of the same credential", baseline: bare.perSecond)
        }
    }
}

/// What the bench reads from the claimed credential itself.
enum IssuerSignedReader {
    static func statusReference(_ bytes: [UInt8]) throws -> HoldfastSDK.StatusReference? {
        try IssuerSigned(decoding: bytes).mso.status
    }

    static func certificate(pem: String) throws -> Certificate {
        try Certificate(pemEncoded: pem)
    }
}
