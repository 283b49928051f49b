// What the SDK's public API takes that another module of this package defines, re-exported so that
// `import HoldfastSDK` is all an app writes (docs/sdk.md; Examples/WalletApp compiles with that one import).

/// The JSON body of an operation an SCA wallet signs (`WalletManager.payload(method:url:body:)`,
/// `CustomerAuthenticatedSignature.signatureInputData`).
@_exported import enum JOSE.JSONValue
