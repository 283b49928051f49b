import MDoc
import OpenID4VP

extension PresentationRequirements {
    /// What a proximity reader's DeviceRequest (ISO/IEC 18013-5 §8.3.2.1.2.1) requires: every document request, its
    /// id the docType, and every element it asks for — the reader shows everything it asked for, and only that.
    /// Two requests for one docType are one requirement of the elements of both.
    public init(deviceRequest: DeviceRequest) {
        self.init(itemsRequests: deviceRequest.docRequests.map(\.itemsRequest))
    }

    /// `init(deviceRequest:)` of the ItemsRequests alone.
    public init(itemsRequests: [ItemsRequest]) {
        var credentials: [Credential] = []
        for request in itemsRequests {
            let claims = request.nameSpaces.flatMap { space in space.elements.map { Claim(nameSpace: space.name, element: $0.identifier) } }
            if let index = credentials.firstIndex(where: { $0.docType == request.docType }) {
                for claim in claims where !credentials[index].claims.contains(where: { $0.path == claim.path }) {
                    credentials[index].claims.append(claim)
                }
            } else {
                credentials.append(Credential(id: request.docType, docType: request.docType, claims: claims))
            }
        }
        self.init(credentials: credentials)
    }
}
