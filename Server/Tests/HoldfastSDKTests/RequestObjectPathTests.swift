import CertificatePath
import Crypto
import Foundation
import HoldfastProtocol
import JOSE
@testable import HoldfastSDK
import Testing
import TestSupport
import X509

/// The request object's `x5c` goes through the project's path validator (docs/security.md "Certificate paths"): each defect
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

    // MARK: name constraints (docs/security.md "Certificate paths": every name the wallet believes passed every CA's constraints)

    /// A root, an intermediate (a CA with keyCertSign) carrying `constraints`, and a leaf whose SAN holds `san`.
    func constrainedChain(_ constraints: NameConstraints, san: String) throws -> (root: TestPKI.Minted, chain: [TestPKI.Minted]) {
        let validity = (now.addingTimeInterval(-86_400), now.addingTimeInterval(365 * 86_400))
        let root = try TestPKI.mint("Constrained Root CA", issuer: nil, validity: validity, constraints: .isCertificateAuthority(maxPathLength: nil),
                                    keyUsage: KeyUsage(keyCertSign: true, cRLSign: true), usages: nil, dnsName: nil)
        let intermediate = try TestPKI.mint("Constrained Intermediate CA", issuer: root, validity: validity,
                                            constraints: .isCertificateAuthority(maxPathLength: nil), keyUsage: KeyUsage(keyCertSign: true, cRLSign: true),
                                            usages: nil, dnsName: nil, nameConstraints: constraints)
        let leaf = try TestPKI.mint("Request Signer", issuer: intermediate, validity: (now.addingTimeInterval(-3_600), now.addingTimeInterval(90 * 86_400)),
                                    constraints: nil, keyUsage: KeyUsage(digitalSignature: true), usages: nil, dnsName: san)
        return (root, [leaf, intermediate])
    }

    /// The request `client_id` names, its response on that host, signed by the chain's leaf, verified with the chain's
    /// root trusted and trust required.
    func verify(_ chain: (root: TestPKI.Minted, chain: [TestPKI.Minted]), clientId: String,
                responseUri: String = "https://bank.example/response") async -> Result<AuthorizationRequest, HoldfastError> {
        do {
            let object = try TestVerifierPKI(at: now).requestObject(clientId: clientId, responseUri: responseUri, issuedAt: now,
                                                                    signer: chain.chain[0].key, chain: chain.chain.map(\.der))
            return .success(try await AuthorizationRequestVerifier(trustedCertificates: [chain.root.certificate], requireTrustedVerifier: true)
                .verify(object, fetchedFrom: nil, expectedClientId: nil, at: now))
        } catch let error as HoldfastError {
            return .failure(error)
        } catch {
            return .failure(HoldfastError(.internalError, "\(error)"))
        }
    }

    /// The SAN forms of bank.example under an intermediate whose constraints leave bank.example out, each with
    /// `client_id=x509_san_dns:bank.example`: the valid name is refused by the constraint (VERIFIER_UNTRUSTED); the
    /// prefixed name and the name with a trailing dot, which swift-certificates' constraint check cannot read as DNS
    /// names, are not believed at all, so the client id names nothing of the leaf (CLIENT_ID_MISMATCH).
    static let bankNames: [(san: String, code: HoldfastErrorCode)] = [
        ("x509_san_dns:bank.example", .clientIdMismatch), ("bank.example.", .clientIdMismatch), ("bank.example", .verifierUntrusted),
        ("X509_SAN_DNS:BANK.EXAMPLE", .clientIdMismatch), ("BANK.example", .verifierUntrusted),
        ("client_id=x509_san_dns:bank.example", .clientIdMismatch), ("https://bank.example", .clientIdMismatch),
    ]

    @Test func aNameExcludedByAnIntermediatesNameConstraintsIsRefusedInEveryForm() async throws {
        let excluded = NameConstraints(excludedSubtrees: [.dnsName("bank.example")])
        for (san, code) in Self.bankNames {
            let result = await verify(try constrainedChain(excluded, san: san), clientId: "x509_san_dns:bank.example")
            guard case .failure(let error) = result else { Issue.record("\(san) accepted"); continue }
            #expect(error.code == code, "\(san): \(error)")
            if code == .verifierUntrusted { #expect(error.message.contains("CERT_PATH_RFC5280"), "\(san): \(error)") }
        }
        // A leaf for shop.example under the same intermediate: trusted.
        let shop = await verify(try constrainedChain(excluded, san: "shop.example"), clientId: "x509_san_dns:shop.example",
                                responseUri: "https://shop.example/response")
        guard case .success(let request) = shop else { Issue.record("shop.example refused: \(shop)"); return }
        #expect(request.verifiedBy == .certificate && request.verifierName == "shop.example")
    }

    @Test func aNameOutsideAnIntermediatesPermittedSubtreesIsRefusedInEveryForm() async throws {
        let permitted = NameConstraints(permittedSubtrees: [.dnsName("shop.example")])
        for (san, code) in Self.bankNames {
            let result = await verify(try constrainedChain(permitted, san: san), clientId: "x509_san_dns:bank.example")
            guard case .failure(let error) = result else { Issue.record("\(san) accepted"); continue }
            #expect(error.code == code, "\(san): \(error)")
        }
        for name in ["shop.example", "www.shop.example"] {
            let result = await verify(try constrainedChain(permitted, san: name), clientId: "x509_san_dns:\(name)",
                                      responseUri: "https://\(name)/response")
            guard case .success(let request) = result else { Issue.record("\(name) refused: \(result)"); continue }
            #expect(request.verifiedBy == .certificate && request.verifierName == name)
        }
    }

    /// Named by its hash, a trusted leaf whose only SAN entry is the prefixed bank.example (which the excluding
    /// intermediate's constraint could not read) is trusted as a key, but the wallet does not take it for bank.example.
    @Test func aNameNoConstraintWasAppliedToIsNeverTheVerifiersName() async throws {
        let chain = try constrainedChain(NameConstraints(excludedSubtrees: [.dnsName("bank.example")]), san: "x509_san_dns:bank.example")
        let hash = "x509_hash:" + Base64URL.encode(SHA256.hash(data: chain.chain[0].der))
        let object = try TestVerifierPKI(at: now).requestObject(clientId: hash, responseUri: "https://bank.example/response", issuedAt: now,
                                                                signer: chain.chain[0].key, chain: chain.chain.map(\.der))
        for source in [nil, URL(string: "https://bank.example/request/1")] {
            let request = try await AuthorizationRequestVerifier(trustedCertificates: [chain.root.certificate], requireTrustedVerifier: true)
                .verify(object, fetchedFrom: source, expectedClientId: nil, at: now)
            #expect(request.verifiedBy == .certificate && request.verifierName == nil, "\(String(describing: source))")
        }
    }
}
