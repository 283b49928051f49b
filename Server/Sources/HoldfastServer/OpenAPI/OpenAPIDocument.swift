import Foundation

/// The OpenAPI 3.1 document kept in the repository (`Sources/HoldfastServer/openapi.json`) and served as it
/// is at `/openapi.json`. When a capability adds a route it adds the operation here too.
public enum OpenAPIDocument {
    /// The document's bytes, from the module's resources.
    public static func load() throws(StorageError) -> [UInt8] {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json"),
              let data = try? Data(contentsOf: url) else {
            throw StorageError(code: StorageError.Code.openAPIDocumentMissing, message: "openapi.json is missing from the HoldfastServer resources")
        }
        return Array(data)
    }
}
