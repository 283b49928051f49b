/// WebAuthn §6.1 authenticator data as App Attest uses it: rpIdHash (32) ‖ flags (1) ‖ signCount (4, big-endian)
/// ‖ attested credential data (aaguid 16 ‖ credentialIdLength 2 ‖ credentialId ‖ COSE key) in attestations only.
/// The bytes after the credential id (COSE key, and the trailing map of newer devices) are not needed and are kept
/// unread.
public struct AppAttestAuthenticatorData: Sendable, Hashable {
    public let rawBytes: [UInt8]
    public let rpIdHash: [UInt8]
    public let flags: UInt8
    public let signCount: UInt32
    public let aaguid: [UInt8]?
    public let credentialId: [UInt8]?

    init(_ bytes: [UInt8], hasAttestedCredentialData: Bool) throws(AttestationError) {
        guard bytes.count >= 37 else { throw .invalidFormat("authenticator data is \(bytes.count) bytes, at least 37 required") }
        rawBytes = bytes
        rpIdHash = Array(bytes[0..<32])
        flags = bytes[32]
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        guard hasAttestedCredentialData else {
            aaguid = nil
            credentialId = nil
            return
        }
        guard bytes.count >= 55 else { throw .invalidFormat("authenticator data has no attested credential data") }
        aaguid = Array(bytes[37..<53])
        let length = Int(bytes[53]) << 8 | Int(bytes[54])
        guard bytes.count >= 55 + length else { throw .invalidFormat("credential id runs past the authenticator data") }
        credentialId = Array(bytes[55..<(55 + length)])
    }
}
