// What the SDK's public API takes and returns that another module of this package defines, re-exported so that
// `import HoldfastSDK` is all an app writes (docs/sdk.md; Examples/WalletApp compiles with that one import).

/// The vocabulary the SDK and the tenant share (DESIGN.md §3): `HoldfastErrorCode`, `ProblemDetails`, the SCA
/// wallet's value sets and payloads (`SCAPayload`, `SCAPattern`, `SCALockReason`, `SCAIneligibilityReason` …), the
/// tethering API's messages.
@_exported import HoldfastProtocol

/// The JSON body of an operation an SCA wallet signs (`WalletManager.payload(method:url:body:)`,
/// `CustomerAuthenticatedSignature.signatureInputData`) and a credential's claim values.
@_exported import enum JOSE.JSONValue

/// The protocol names of the W3C Digital Credentials API (`DigitalCredentialsRequest.protocol`).
@_exported import struct DigitalCredentials.DigitalCredentialProtocol

/// The engagement's QR code (`ProximityPresentationSession.qrCodeImage`) as the SDK draws it.
@_exported import struct QR.QRCode
