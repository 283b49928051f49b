import CBOR
import COSE
import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastSDK
import JOSE
import MDoc
import OpenID4VP
import ServerTestSupport
import Testing

/// The tenant's verifier refuses what it was not shown (docs/server-api.md "Verifier"): each response below is signed honestly by
/// a wallet holding a genuine credential, over the session's own transcript, and differs from a verified answer in
/// the one rule under test — a required credential or claim left out, a DeviceResponse that reports an error, a
/// credential query the request does not have, two presentations where one is allowed, a value outside `values`.
@Suite struct PresentationRequirementEndToEndTests {
    static let docType = "org.iso.18013.5.1.mDL"
    static let space = "org.iso.18013.5.1"

    /// A registered wallet holding one genuine mDL (family_name, given_name, birth_date, age_over_18), whose parts a
    /// test assembles into responses by hand.
    struct Wallet: Sendable {
        let stored: StoredCredential
        let issuerSigned: IssuerSigned
        let secureArea: SoftwareSecureArea

        /// The credential disclosing `elements`, device-signed over `transcript`.
        func document(_ elements: Set<String>, _ transcript: SessionTranscript) async throws -> Document {
            try await signed(issuerSigned.disclosing([PresentationRequirementEndToEndTests.space: elements]), transcript)
        }

        /// `disclosed` (this credential's, or bytes made from it) in a Document device-signed over `transcript`.
        func signed(_ disclosed: IssuerSigned, _ transcript: SessionTranscript) async throws -> Document {
            Document(docType: stored.docType, issuerSigned: disclosed,
                     deviceSigned: try await OnlinePresentationSession.deviceSigned(docType: stored.docType, transcript: transcript,
                                                                                    alias: stored.keyAlias, secureArea: secureArea))
        }

        /// `documents` in one DeviceResponse, base64url as a vp_token carries it.
        static func response(_ documents: [Document], status: UInt64 = DeviceResponse.statusOK, documentErrors: CBOR? = nil) -> JSONValue {
            .string(Base64URL.encode(DeviceResponse(documents: documents, documentErrors: documentErrors, status: status).encoded()))
        }
    }

    static func wallet(_ tenant: EndToEndTenant) async throws -> Wallet {
        try await CredentialsEndToEndTests.configure(tenant)
        let iacas = try await tenant.admin.iacas()
        let application = try await tenant.createIOSApplication()
        let storage = FileSecureStorage(directory: tenant.scratch.appendingPathComponent("requirements-wallet"), applicationId: "holdfast-sdk")
        let secureArea = SoftwareSecureArea(storage: storage)
        let holder = MobileCredentialHolder(seams: PlatformSeams(secureStorage: storage, secureArea: secureArea, transport: URLSessionTransport(timeout: 15),
                                                                 tetheringScheduler: ManualTetheringScheduler()))
        try await holder.initialize(platformConfiguration: PlatformConfiguration(
            tenantHost: tenant.baseURL.replacingOccurrences(of: "127.0.0.1", with: "localhost"), applicationId: try #require(application.id)))
        _ = try await holder.registerDevice()
        _ = try await holder.addTrustedIssuerCertificates(iacas.data.map(\.certificatePem))
        let claimed = try await holder.claimCredentials(
            offer: try await holder.retrieveCredentialOffer(uri: try await CredentialsEndToEndTests.offer(tenant, txCode: false).offerUri))
        let (stored, issuerSigned) = try await holder.credentials.presentable(try #require(claimed.first).id)
        return Wallet(stored: stored, issuerSigned: issuerSigned, secureArea: secureArea)
    }

    /// Makes a session from `body`, reads its request object as a wallet would, answers it with the vp_token `build`
    /// makes for the session's transcript (OpenID4VP 1.0 B.2, or 18013-7:2024 B.4.4 with apu/apv), and returns the
    /// result the verifier keeps.
    static func answer(_ tenant: EndToEndTenant, session body: String,
                       _ build: (SessionTranscript) async throws -> JSONValue) async throws -> PresentationResult {
        let created = try await PresentationEndToEndTests.session(tenant, body)
        let posted = try await respond(created, build)
        #expect(posted.status == 200, "\(String(decoding: posted.body, as: UTF8.self))")
        return try await PresentationEndToEndTests.result(tenant, created.sessionId)
    }

    /// Answers the session `created` as `answer` does, and returns what its response endpoint said (`{}`, or
    /// `{redirect_uri}` for a same-device session).
    static func respond(_ created: PresentationSessionCreated,
                        _ build: (SessionTranscript) async throws -> JSONValue) async throws -> TransportResponse {
        let fetched = try await URLSessionTransport().send(TransportRequest(method: "GET", url: try #require(URL(string: created.requestUri))))
        let request = try #require(try JSONDecoder().decode(JSONValue.self, from: Data(try JWS(compactSerialization: String(decoding: fetched.body, as: UTF8.self)).payload)).objectValue)
        let jwk = try JSONDecoder().decode(JWK.self, from: JSONEncoder().encode(try #require(request["client_metadata"]?.objectValue?["jwks"]?.objectValue?["keys"]?.arrayValue?.first)))
        let responseUri = try #require(request["response_uri"]?.stringValue)
        let clientId = try #require(request["client_id"]?.stringValue)
        let nonce = try #require(request["nonce"]?.stringValue)
        let jwe: String
        if request["dcql_query"] != nil {
            let transcript = SessionTranscript.openID4VP(clientId: clientId, nonce: nonce, jwkThumbprint: Base64URL.decode(try jwk.thumbprint()),
                                                         responseUri: responseUri)
            let body: JSONValue = .object(["vp_token": try await build(transcript), "state": try #require(request["state"])])
            jwe = try JWE.encrypt(plaintext: try JSONEncoder().encode(body), to: jwk, encryption: .a128gcm)
        } else {
            let mdocGeneratedNonce = Base64URL.encode((0..<16).map { _ in UInt8.random(in: .min ... .max) })
            let transcript = SessionTranscript.iso18013_7(clientId: clientId, responseUri: responseUri, nonce: nonce, mdocGeneratedNonce: mdocGeneratedNonce)
            let body: JSONValue = .object(["vp_token": try await build(transcript), "state": try #require(request["state"])])
            jwe = try JWE.encrypt(plaintext: try JSONEncoder().encode(body), to: jwk, encryption: .a256gcm,
                                  partyUInfo: Array(mdocGeneratedNonce.utf8), partyVInfo: Array(nonce.utf8))
        }
        return try await URLSessionTransport().send(TransportRequest(method: "POST", url: try #require(URL(string: responseUri)),
                                                                     headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                                                     body: Data(("response=" + (jwe.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")).utf8)))
    }

    static func codes(_ result: PresentationResult) -> [PresentationFailureCode] { result.failures?.map(\.code) ?? [] }

    /// `family_name` and `age_over_18` of an mDL, asked as docType + nameSpaces (the credential query / input
    /// descriptor is then `credential` / the docType).
    static let simpleQuery = PresentationEndToEndTests.query
    static let both: Set<String> = ["family_name", "age_over_18"]

    @Test(arguments: EndToEndBackend.available)
    func everyRequiredCredentialAndClaimMustBeShown(_ backend: EndToEndBackend) async throws {
        try await PresentationEndToEndTests.withLocalhostTenant(backend) { tenant in
            let wallet = try await Self.wallet(tenant)
            for protocolName in ["openid4vp-1.0", "18013-7-2024"] {
                let isOpenID = protocolName == "openid4vp-1.0"
                let body = #"{"protocol":"\#(protocolName)","mode":"cross-device","query":\#(Self.simpleQuery)}"#
                func token(_ response: JSONValue) -> JSONValue { isOpenID ? .object(["credential": .array([response])]) : response }
                let queryID = isOpenID ? "credential" : Self.docType

                // The honest answer, made the same way, is verified: each case below differs from it in one thing.
                let honest = try await Self.answer(tenant, session: body) { token(Wallet.response([try await wallet.document(Self.both, $0)])) }
                #expect(honest.status == "verified", "\(protocolName): \(honest)")

                // A DeviceResponse with no documents: anyone who saw the QR code could send it.
                let empty = try await Self.answer(tenant, session: body) { _ in token(Wallet.response([])) }
                #expect(empty.status == "failed" && Self.codes(empty) == [PresentationFailureCode.credentialMissing], "\(protocolName): \(empty)")
                let missing = try #require(empty.failures?.first)
                #expect(isOpenID ? missing.credentialQueryId == queryID : missing.inputDescriptorId == queryID, "\(missing)")

                // A genuine credential that withholds a requested element.
                let withheld = try await Self.answer(tenant, session: body) { token(Wallet.response([try await wallet.document(["family_name"], $0)])) }
                #expect(withheld.status == "failed" && Self.codes(withheld) == [PresentationFailureCode.claimMissing], "\(protocolName): \(withheld)")
                let claim = try #require(withheld.failures?.first)
                #expect(claim.path == [Self.space, "age_over_18"] && claim.reason.contains("age_over_18"), "\(claim)")
                #expect(isOpenID ? claim.credentialQueryId == queryID : claim.inputDescriptorId == queryID, "\(claim)")
                #expect(withheld.claims == nil)

                // A document's errors for the element it withheld are given back in the failure.
                let withError = try await Self.answer(tenant, session: body) { transcript in
                    let document = try await wallet.document(["family_name"], transcript)
                    let errors = CBOR.map([.init(.text(Self.space), .map([.init(.text("age_over_18"), .unsigned(1))]))])
                    return token(Wallet.response([Document(docType: document.docType, issuerSigned: document.issuerSigned,
                                                           deviceSigned: document.deviceSigned, errors: errors)]))
                }
                #expect(Self.codes(withError) == [PresentationFailureCode.claimMissing] && withError.failures?.first?.value == .integer(1), "\(withError)")

                // The mdoc reports an error in the response's status (ISO/IEC 18013-5 §8.3.2.1.2.3), documents or not.
                let status = try await Self.answer(tenant, session: body) { token(Wallet.response([try await wallet.document(Self.both, $0)], status: 10)) }
                #expect(status.status == "failed" && Self.codes(status) == [PresentationFailureCode.deviceResponseStatus], "\(status)")
                #expect(status.failures?.first?.value == .integer(10))

                // documentErrors beside a complete document.
                let documentErrors = try await Self.answer(tenant, session: body) { transcript in
                    token(Wallet.response([try await wallet.document(Self.both, transcript)],
                                          documentErrors: .map([.init(.text("org.iso.23220.photoid.1"), .unsigned(0))])))
                }
                #expect(documentErrors.status == "failed" && Self.codes(documentErrors) == [PresentationFailureCode.documentErrors], "\(documentErrors)")
                #expect(documentErrors.failures?.first?.value == .object(["org.iso.23220.photoid.1": .integer(0)]))
            }
        }
    }

    @Test func openID4VPResponsesAreHeldToTheDCQLQuery() async throws {
        try await PresentationEndToEndTests.withLocalhostTenant(.sqlite) { tenant in
            let wallet = try await Self.wallet(tenant)
            func session(_ dcql: String) -> String { #"{"protocol":"openid4vp-1.0","mode":"cross-device","query":{"dcql":\#(dcql)}}"# }
            func mdl(_ id: String, _ claims: String, extra: String = "") -> String {
                #"{"id":"\#(id)","format":"mso_mdoc","meta":{"doctype_value":"\#(Self.docType)"},"claims":[\#(claims)]\#(extra)}"#
            }
            func claim(_ element: String, id: String? = nil, values: String? = nil) -> String {
                #"{"path":["\#(Self.space)","\#(element)"]\#(id.map { #","id":"\#($0)""# } ?? "")\#(values.map { #","values":\#($0)"# } ?? "")}"#
            }
            let other = #"{"id":"photo","format":"mso_mdoc","meta":{"doctype_value":"org.iso.23220.photoid.1"},"claims":[{"path":["org.iso.23220.1","family_name"]}]}"#
            func presented(_ id: String, _ elements: Set<String>, count: Int = 1) -> (SessionTranscript) async throws -> JSONValue {
                { transcript in
                    var items: [JSONValue] = []
                    for _ in 0..<count { items.append(Wallet.response([try await wallet.document(elements, transcript)])) }
                    return .object([id: .array(items)])
                }
            }

            // Without credential_sets every credential query is required.
            let both = session(#"{"credentials":[\#(mdl("mdl", claim("family_name"))),\#(other)]}"#)
            let notPhoto = try await Self.answer(tenant, session: both, presented("mdl", ["family_name"]))
            #expect(Self.codes(notPhoto) == [PresentationFailureCode.credentialMissing] && notPhoto.failures?.first?.credentialQueryId == "photo", "\(notPhoto)")

            // credential_sets: one option of a required set is enough; a set that is not required may be left out.
            let either = session(#"{"credentials":[\#(mdl("mdl", claim("family_name"))),\#(other)],"credential_sets":[{"options":[["photo"],["mdl"]]}]}"#)
            #expect(try await Self.answer(tenant, session: either, presented("mdl", ["family_name"])).status == "verified")
            let optionalPhoto = session(#"{"credentials":[\#(mdl("mdl", claim("family_name"))),\#(other)],"credential_sets":[{"options":[["mdl"]]},{"options":[["photo"]],"required":false}]}"#)
            #expect(try await Self.answer(tenant, session: optionalPhoto, presented("mdl", ["family_name"])).status == "verified")
            let requiredPhoto = session(#"{"credentials":[\#(mdl("mdl", claim("family_name"))),\#(other)],"credential_sets":[{"options":[["photo"]]},{"options":[["mdl"]],"required":false}]}"#)
            let noPhoto = try await Self.answer(tenant, session: requiredPhoto, presented("mdl", ["family_name"]))
            #expect(Self.codes(noPhoto) == [PresentationFailureCode.credentialMissing] && noPhoto.failures?.first?.credentialQueryId == "photo", "\(noPhoto)")

            // claim_sets: one option shown whole; short of every option, the missing claims of the closest (first of
            // equals) are named.
            let claimed = mdl("mdl", [claim("family_name", id: "a"), claim("age_over_18", id: "b"), claim("birth_date", id: "c")].joined(separator: ","),
                              extra: #","claim_sets":[["a","c"],["a","b"]]"#)
            let sets = session(#"{"credentials":[\#(claimed)]}"#)
            #expect(try await Self.answer(tenant, session: sets, presented("mdl", ["family_name", "age_over_18"])).status == "verified")
            let short = try await Self.answer(tenant, session: sets, presented("mdl", ["family_name"]))
            #expect(Self.codes(short) == [PresentationFailureCode.claimMissing] && short.failures?.first?.path == [Self.space, "birth_date"], "\(short)")

            // values: a claim shown with a value the query does not take.
            let values = session(#"{"credentials":[\#(mdl("mdl", [claim("family_name"), claim("age_over_18", values: "[false]")].joined(separator: ",")))]}"#)
            let mismatch = try await Self.answer(tenant, session: values, presented("mdl", Self.both))
            #expect(Self.codes(mismatch) == [PresentationFailureCode.claimValueMismatch] && mismatch.failures?.first?.path == [Self.space, "age_over_18"], "\(mismatch)")
            let takes = session(#"{"credentials":[\#(mdl("mdl", [claim("family_name", values: #"["Doe","Roe"]"#), claim("age_over_18", values: "[true]")].joined(separator: ",")))]}"#)
            #expect(try await Self.answer(tenant, session: takes, presented("mdl", Self.both)).status == "verified")

            // multiple: two presentations for a query that takes one; the same with multiple: true is verified.
            let single = session(#"{"credentials":[\#(mdl("mdl", claim("family_name")))]}"#)
            let twice = try await Self.answer(tenant, session: single, presented("mdl", ["family_name"], count: 2))
            #expect(Self.codes(twice) == [PresentationFailureCode.tooManyPresentations] && twice.failures?.first?.credentialQueryId == "mdl", "\(twice)")
            let many = session(#"{"credentials":[\#(mdl("mdl", claim("family_name"), extra: #","multiple":true"#))]}"#)
            #expect(try await Self.answer(tenant, session: many, presented("mdl", ["family_name"], count: 2)).status == "verified")

            // A vp_token key the request does not have, beside a complete answer.
            let unknown = try await Self.answer(tenant, session: single) { transcript in
                let response = Wallet.response([try await wallet.document(["family_name"], transcript)])
                return .object(["mdl": .array([response]), "someone_else": .array([response])])
            }
            #expect(Self.codes(unknown) == [PresentationFailureCode.credentialNotRequested] && unknown.failures?.first?.credentialQueryId == "someone_else",
                    "\(unknown)")
            // An empty vp_token, and a presentation that is not in an array.
            let nothing = try await Self.answer(tenant, session: single) { _ in .object([:]) }
            #expect(Self.codes(nothing) == [PresentationFailureCode.credentialMissing], "\(nothing)")
            let bare = try await Self.answer(tenant, session: single) { transcript in
                .object(["mdl": Wallet.response([try await wallet.document(["family_name"], transcript)])])
            }
            #expect(Self.codes(bare) == [PresentationFailureCode.malformed, PresentationFailureCode.credentialMissing], "\(bare)")
        }
    }

    /// A DCQL query the verifier could not hold a response to is refused when the session is made.
    @Test func unanswerableDCQLQueriesAreRefused() async throws {
        try await EndToEndBackend.sqlite.withTenant { tenant in
            let mdl = #"{"id":"mdl","format":"mso_mdoc","meta":{"doctype_value":"org.iso.18013.5.1.mDL"},"claims":[{"id":"a","path":["org.iso.18013.5.1","family_name"]}]"#
            for dcql in [
                #"{"credentials":[\#(mdl),"claim_sets":[["a","z"]]}]}"#,                                    // a claim set names an unknown claim
                #"{"credentials":[\#(mdl)}],"credential_sets":[{"options":[["mdl","photo"]]}]}"#,           // an unknown credential query
                #"{"credentials":[\#(mdl)},\#(mdl)}]}"#,                                                    // an id used twice
                #"{"credentials":[\#(mdl),"multiple":"yes"}]}"#,
                #"{"credentials":[\#(mdl)}],"credential_sets":[{"options":[]}]}"#,
                #"{"credentials":[{"id":"m d l","format":"mso_mdoc","meta":{"doctype_value":"x"},"claims":[{"path":["n","e"]}]}]}"#,
                #"{"credentials":[{"id":"mdl","format":"mso_mdoc","meta":{"doctype_value":"x"},"claims":[{"path":["n","e"],"values":[{"a":1}]}]}]}"#,
                #"{"credentials":[{"id":"mdl","format":"mso_mdoc","meta":{"doctype_value":"x"},"claims":[{"path":["n","e"]},{"id":"b","path":["n","f"]}],"claim_sets":[["b"]]}]}"#,
            ] {
                let answer = try await tenant.admin.send("POST", PresentationRoutes.Template.sessions,
                                                         body: Data(#"{"protocol":"openid4vp-1.0","mode":"cross-device","query":{"dcql":\#(dcql)}}"#.utf8))
                #expect(answer.status == 400 && String(decoding: answer.body, as: UTF8.self).contains("query.dcql"), "\(dcql): \(answer.status)")
            }
        }
    }
}
