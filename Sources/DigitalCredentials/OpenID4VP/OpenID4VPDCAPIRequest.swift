import JOSE

/// OpenID4VP 1.0 Appendix A.3 — the `data` of an OpenID4VP request through the Digital Credentials API: the request
/// parameters of Appendix A.2 either signed in a request object (A.3.2.1, protocol `openid4vp-v1-signed`,
/// `{"request": <JWS Compact Serialization>}`) or as members of `data` itself (A.3.1, `openid4vp-v1-unsigned`).
/// The request object's signature, `client_id` and `expected_origins` are the wallet's to check (A.3.2, §5).
public enum OpenID4VPDCAPIRequest: Sendable, Hashable {
    /// A.3.2.1: the compact JWS of the request object, as received.
    case signed(requestObject: String)
    /// A.3.1: the request parameters in the clear.
    case unsigned(parameters: [String: JSONValue])

    /// Reads the data of an `openid4vp-v1-signed` or `openid4vp-v1-unsigned` request.
    public init(_ request: DigitalCredentialRequest) throws(DigitalCredentialsError) {
        switch request.protocol {
        case .openID4VPSigned:
            switch request.data["request"] {
            case .string(let jws)?:
                guard jws.split(separator: ".", omittingEmptySubsequences: false).count == 3 else {
                    throw .malformed("request is not a JWS in Compact Serialization")
                }
                self = .signed(requestObject: jws)
            case .object?:
                throw .unsupported("a request in JWS JSON Serialization (OpenID4VP 1.0 Appendix A.3.2.2)")
            case nil:
                throw .malformed("the openid4vp-v1-signed data has no request")
            default:
                throw .malformed("the openid4vp-v1-signed data's request is not a string")
            }
        case .openID4VPUnsigned:
            // A.3.2: `request` belongs to signed requests only.
            guard request.data["request"] == nil else { throw .malformed("an openid4vp-v1-unsigned request carries a request object") }
            self = .unsigned(parameters: request.data)
        default:
            throw .protocolMismatch(expected: .openID4VPSigned, found: request.protocol)
        }
    }

    public var `protocol`: DigitalCredentialProtocol {
        switch self {
        case .signed: .openID4VPSigned
        case .unsigned: .openID4VPUnsigned
        }
    }

    /// The `{protocol, data}` request.
    public var request: DigitalCredentialRequest {
        switch self {
        case .signed(let jws): DigitalCredentialRequest(protocol: .openID4VPSigned, data: ["request": .string(jws)])
        case .unsigned(let parameters): DigitalCredentialRequest(protocol: .openID4VPUnsigned, data: parameters)
        }
    }
}

/// OpenID4VP 1.0 Appendix A.4 — the `data` of an OpenID4VP response through the Digital Credentials API: the
/// response parameters, encrypted (response mode `dc_api.jwt`, §8.3: `{"response": <compact JWE>}`) or in the
/// clear (`dc_api`: `vp_token`), or a protocol error `{"error": code}` (§8.5), which a wallet may also send inside
/// the JWE.
public enum OpenID4VPDCAPIResponse: Sendable, Hashable {
    /// §8.3: the compact JWE, as received.
    case encrypted(jwe: String)
    /// The response parameters in the clear (`vp_token`, …).
    case clear(parameters: [String: JSONValue])
    /// A.4: `{error, error_description?}` in the clear.
    case error(code: String, description: String?)

    /// Reads the data of a response to an OpenID4VP request.
    public init(_ response: DigitalCredentialResponse) throws(DigitalCredentialsError) {
        guard response.protocol.isOpenID4VP else { throw .protocolMismatch(expected: .openID4VPSigned, found: response.protocol) }
        let data = response.data
        if let value = data["error"] {
            guard case .string(let code) = value else { throw .malformed("error is not a string") }
            self = .error(code: code, description: data["error_description"]?.stringValue)
        } else if let value = data["response"] {
            guard case .string(let jwe) = value, jwe.split(separator: ".", omittingEmptySubsequences: false).count == 5 else {
                throw .malformed("response is not a JWE in Compact Serialization")
            }
            self = .encrypted(jwe: jwe)
        } else if data["vp_token"] != nil {
            self = .clear(parameters: data)
        } else {
            throw .malformed("the OpenID4VP data has neither response, vp_token nor error")
        }
    }

    /// The `data` member.
    public var data: [String: JSONValue] {
        switch self {
        case .encrypted(let jwe): ["response": .string(jwe)]
        case .clear(let parameters): parameters
        case .error(let code, let description):
            description.map { ["error": .string(code), "error_description": .string($0)] } ?? ["error": .string(code)]
        }
    }

    /// The `{protocol, data}` response to a request of `protocol`.
    public func response(protocol: DigitalCredentialProtocol) -> DigitalCredentialResponse {
        DigitalCredentialResponse(protocol: `protocol`, data: data)
    }
}
