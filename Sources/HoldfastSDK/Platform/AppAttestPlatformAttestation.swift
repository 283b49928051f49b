#if canImport(DeviceCheck)
import DeviceCheck
import Foundation
import HoldfastProtocol

/// `PlatformAttestation` with Apple App Attest (`DCAppAttestService`): a new App Attest key per attestation, whose
/// attestation object carries `clientDataHash` = the binding nonce (Apple, "Establishing your app's integrity").
public struct AppAttestPlatformAttestation: PlatformAttestation {
    public init() {}

    public func attestKey(clientDataHash: [UInt8]) async throws(PlatformAttestationError) -> PlatformAttestationPayload {
        let service = DCAppAttestService.shared
        guard service.isSupported else { throw .unavailable("App Attest is not supported on this device") }
        do {
            let keyId = try await service.generateKey()
            let object = try await service.attestKey(keyId, clientDataHash: Data(clientDataHash))
            guard let keyBytes = Data(base64Encoded: keyId) else { throw PlatformAttestationError.failed("keyId is not base64") }
            return .appAttest(attestationObject: [UInt8](object), keyId: [UInt8](keyBytes))
        } catch let error as PlatformAttestationError {
            throw error
        } catch {
            throw Self.map(error)
        }
    }

    public func generateAssertion(keyId: [UInt8], clientDataHash: [UInt8]) async throws(PlatformAttestationError) -> [UInt8] {
        let service = DCAppAttestService.shared
        guard service.isSupported else { throw .unavailable("App Attest is not supported on this device") }
        do {
            let assertion = try await service.generateAssertion(Data(keyId).base64EncodedString(),
                                                                clientDataHash: Data(clientDataHash))
            return [UInt8](assertion)
        } catch {
            throw Self.map(error)
        }
    }

    /// `AppAttestErrorCode`'s decision, tested on Linux.
    private static func map(_ error: any Error) -> PlatformAttestationError {
        AppAttestErrorCode.platformAttestationError(code: (error as? DCError)?.code.rawValue, description: error.localizedDescription)
    }
}
#endif
