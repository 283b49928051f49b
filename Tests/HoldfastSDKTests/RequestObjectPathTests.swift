import CertificatePath
import Crypto
import Foundation
import HoldfastProtocol
@testable import HoldfastSDK
import Testing
import TestSupport
import X509

/// The request object's `x5c` goes through the project's path validator (README "Certificate paths"): each defect
/// of the chain refused, everything else about the request honest.
@Suite struct RequestObjectPathTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func outcome(_ pki: TestPKI, clientId: String = "x509_san_dns:verifier.example", fetchedFrom: URL? = nil,
                 required: Bool = true) async throws -> Result<AuthorizationRequest, HoldfastError> {
        let template = try TestVerifierPKI(at: now)
        let object = try template.requestObject(clientId: clientId, issuedAt: now, signer: pki.leaf.key, chain: pki.chainDER)
        do {
            return .success(try await AuthorizationRequestVerifier(trustedCertificates: [pki.root.certificate], requireTrustedVerifier: required)
                .verify(object, fetchedFrom: fetchedFrom, expectedClientId: nil, at: now))
        } catch {
            return .failure(error)
        }
    }

    @Test func eachDefectOfTheChainIsRefused() async throws {
        let codes: [TestPKI.Defect: String] = [
            .nonCAIntermediate: "CERT_ISSUER_NOT_CA", .intermediateWithoutKeyCertSign: "CERT_ISSUER_NO_KEY_CERT_SIGN",
            .pathLengthZeroWithCABelow: "CERT_PATH_LENGTH_EXCEEDED", .expiredIssuer: "CERT_EXPIRED",
            .wrongExtendedKeyUsage: "CERT_EXTENDED_KEY_USAGE",
        ]
        for defect in TestPKI.Defect.allCases {
            let pki = try TestPKI(defect: defect, at: now, usage: nil, wrongUsage: ExtendedKeyUsages.mdlDocumentSigner)
            switch (defect, try await outcome(pki)) {
            case (.none, .success(let request)):
                #expect(request.verifiedBy == .certificate && request.verifierName == "verifier.example")
            case (_, .failure(let error)):
                #expect(error.code == .verifierUntrusted && error.message.contains(codes[defect] ?? "-"), "\(defect): \(error)")
            case (_, .success):
                Issue.record("\(defect) was accepted")
            }
            // Without required trust the verifier is accepted, but a defective chain never says `.certificate`.
            if defect != .none, case .success(let request) = try await outcome(pki, required: false) {
                #expect(request.verifiedBy == .domain, "\(defect)")
            } else if defect != .none {
                Issue.record("\(defect) refused without required trust")
            }
        }
    }

    /// The attack: the holder of another relying party's request-signing key (an end entity under a CA the wallet
    /// trusts) signs a leaf for victim.example and a request whose response goes to its own host. Refused; before
    /// the path validator, the wallet said `verifiedBy: .certificate` for victim.example.
    @Test func anotherRelyingPartysKeyCannotSpeakForTheVictim() async throws {
        let pki = try TestPKI(defect: .none, at: now, usage: nil, dnsName: "attacker.example")
        let forged = try TestPKI.mint("victim.example", issuer: pki.leaf, validity: (now.addingTimeInterval(-60), now.addingTimeInterval(3_600)),
                                      constraints: nil, keyUsage: KeyUsage(digitalSignature: true), usages: nil, dnsName: "victim.example")
        let object = try TestVerifierPKI(at: now).requestObject(clientId: "x509_san_dns:victim.example",
                                                                responseUri: "https://attacker.example/collect", issuedAt: now,
                                                                signer: forged.key, chain: [forged.der] + pki.chainDER)
        for source in [nil, URL(string: "https://attacker.example/request/1")] {
            for required in [true, false] {
                do {
                    let request = try await AuthorizationRequestVerifier(trustedCertificates: [pki.root.certificate], requireTrustedVerifier: required)
                        .verify(object, fetchedFrom: source, expectedClientId: nil, at: now)
                    Issue.record("accepted as \(request.verifiedBy) for \(request.verifierName ?? "-")")
                } catch where required {
                    #expect(error.code == .verifierUntrusted && error.message.contains("CERT_ISSUER_NOT_CA"), "\(error)")
                } catch {
                    // Unanchored, x509_san_dns:victim.example may send its response only to victim.example (OpenID4VP 1.0 §5.9.3).
                    #expect(error.code == .clientIdMismatch, "\(error)")
                }
            }
        }
    }

    /// x509_san_dns names a host the (honestly chained) leaf does not: refused before the path is looked at.
    @Test func theClientIdMustBeTheLeafsName() async throws {
        let pki = try TestPKI(defect: .none, at: now, usage: nil)
        guard case .failure(let error) = try await outcome(pki, clientId: "x509_san_dns:victim.example") else { Issue.record("accepted"); return }
        #expect(error.code == .clientIdMismatch)
    }
}
