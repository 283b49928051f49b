import Foundation
import HoldfastSDK

// docs/sdk.md "SCA wallet".

/// Provisions the wallet with the bank's activation code and the customer's new PIN, then signs an operation.
/// Returns the proof (a compact JWS) the app sends with the operation.
func signBeneficiary(seams: PlatformSeams, tenantHost: String, applicationId: String, codeFromTheBank: String,
                     chosenPIN: String, enteredPIN: String, body: JSONValue) async throws(HoldfastError) -> String? {
    // guide: sca
    let manager = try WalletManager(seams: seams, configuration: WalletConfiguration(
        platform: PlatformConfiguration(tenantHost: tenantHost, applicationId: applicationId), appVersion: "4.2.0"))
    guard case .deviceEligible = await manager.provisioning.checkEligibility() else { return nil }
    _ = await manager.provisioning.provision(activationCode: codeFromTheBank)       // the wallet key, registered
    switch await manager.connect(newCredentials: .pin(chosenPIN)) {                  // the PIN is set here
    case .connectionSuccess(let wallet):
        let payload = try await manager.payload(method: "POST", url: "https://api.bank.example/v1/beneficiaries", body: body)
        let signature = CustomerAuthenticatedSignature(patternName: .pin, message: "Add Alex Martin as a beneficiary",
                                                       signatureType: .localJws, payload: payload)
        return await wallet.sign(signature, credentials: .pin(enteredPIN)).result()   // send it with the request
    case .provisioningRequired, .credentialsRequired, .connectionError:
        return nil
    }
    // guide: end
}
