import CBOR
import Crypto
import MDoc
import MDocProximity

/// The ISO/IEC 18013-5 Annex D session (shared/vectors/mdoc/iso18013-5-annex-d.json, SESSION_TRANSCRIPT_BYTES and the
/// two ephemeral private keys), so that the proximity fuzzers start from sessions in which the Annex D messages, their
/// seeds, decrypt: the NFC engagement and handover of the transcript, EDeviceKey and EReaderKey.
public enum AnnexDSession {
    static let transcriptHex = [
        "d81859024183d8185858a20063312e30018201d818584ba4010220012158205a88d182bce5f42efa59943f33359d2e8a968ff289d93e5fa4",
        "44b624343167fe225820b16e8cf858ddc7690407ba61d4c338237a8cfcf3de6aa672fc60a557aa32fc67d818584ba40102200121582060e3",
        "392385041f51403051f2415531cb56dd3f999c71687013aac6768bc8187e225820e58deb8fdbe907f7dd5368245551a34796f7d2215c440c",
        "339bb0f7b67beccdfa8258c391020f487315d10209616301013001046d646f631a200c016170706c69636174696f6e2f766e642e626c7565",
        "746f6f74682e6c652e6f6f6230081b28128b37282801021c015c1e580469736f2e6f72673a31383031333a646576696365656e676167656d",
        "656e746d646f63a20063312e30018201d818584ba4010220012158205a88d182bce5f42efa59943f33359d2e8a968ff289d93e5fa444b624",
        "343167fe225820b16e8cf858ddc7690407ba61d4c338237a8cfcf3de6aa672fc60a557aa32fc6758cd910225487215910202637201021102",
        "04616301013000110206616301036e6663005102046163010157001a201e016170706c69636174696f6e2f766e642e626c7565746f6f7468",
        "2e6c652e6f6f6230081b28078080bf2801021c021107c832fff6d26fa0beb34dfcd555d4823a1c11010369736f2e6f72673a31383031333a",
        "6e66636e6663015a172b016170706c69636174696f6e2f766e642e7766612e6e616e57030101032302001324fec9a70b97ac9684a4e32617",
        "6ef5b981c5e8533e5f00298cfccbc35e700a6b020414",
    ].joined()
    static let eDeviceKeyHex = "c1917a1579949a042f1ba9fc53a2df9b1bc47adf31c10f813ed75702d1c1f136"
    static let eReaderKeyHex = "de3b4b9e5f72dd9b58406ae3091434da48a6f9fd010d88fcb0958e2cebec947c"

    public static let eDeviceKey = try! P256.KeyAgreement.PrivateKey(rawRepresentation: bytes(eDeviceKeyHex))
    public static let eReaderKey = try! P256.KeyAgreement.PrivateKey(rawRepresentation: bytes(eReaderKeyHex))

    /// The NFC engagement and the handover of the Annex D transcript.
    public static let (engagement, handover): (DeviceEngagement, CBOR) = {
        let transcript = try! SessionTranscript(taggedBytes: bytes(transcriptHex))
        let parts = try! CBOR.decode(transcript.encoded).array()
        return (try! DeviceEngagement(decoding: Array(try! parts[0].embedded().rawBytes)), parts[2].value)
    }()

    /// The mdoc's session before the reader's first message.
    public static func mdoc() -> MDocProximitySession {
        try! MDocProximitySession(engagement: engagement, privateKey: eDeviceKey, handover: handover)
    }

    /// The reader's session before its first request.
    public static func reader() -> ReaderProximitySession {
        try! ReaderProximitySession(engagement: engagement, privateKey: eReaderKey, handover: handover)
    }

    static func bytes(_ hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            result.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return result
    }
}
