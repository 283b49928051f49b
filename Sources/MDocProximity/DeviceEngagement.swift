import CBOR
import Crypto
import Foundation

/// `DeviceEngagement` (ISO/IEC 18013-5 §8.2.1.1): what the mdoc shows the reader (as a QR code, §8.2.2.3) so that
/// it can reach the mdoc and agree session keys with it.
///
/// ```
/// DeviceEngagement = {0: "1.0", 1: Security, ? 2: DeviceRetrievalMethods, * int => any}
/// Security = [1, EDeviceKeyBytes]          ; cipher suite 1, EDeviceKeyBytes = #6.24(bstr .cbor COSE_Key)
/// DeviceRetrievalMethod = [type, version, options]   ; BLE: [2, 1, BleOptions]
/// ```
/// Holdfast adds one private key, ``loopbackKey`` (−18508), for a loopback TCP endpoint (`* int => any` lets a reader
/// that does not know it pass it by). The engagement keeps its bytes exactly as received or written
/// (``encoded``): the SessionTranscript embeds them as `DeviceEngagementBytes` and must never re-encode them.
public struct DeviceEngagement: Sendable, Hashable {
    /// `BleOptions` (§8.2.2.2 Table 8).
    public struct BLEOptions: Sendable, Hashable {
        /// Key 0: the mdoc supports mdoc peripheral server mode.
        public var peripheralServerMode: Bool
        /// Key 1: the mdoc supports mdoc central client mode.
        public var centralClientMode: Bool
        /// Key 10: the service UUID the mdoc advertises in peripheral server mode.
        public var peripheralServerUUID: UUID?
        /// Key 11: the service UUID the reader is to advertise in central client mode.
        public var centralClientUUID: UUID?

        public init(peripheralServerMode: Bool, centralClientMode: Bool = false, peripheralServerUUID: UUID? = nil,
                    centralClientUUID: UUID? = nil) {
            self.peripheralServerMode = peripheralServerMode
            self.centralClientMode = centralClientMode
            self.peripheralServerUUID = peripheralServerUUID
            self.centralClientUUID = centralClientUUID
        }
    }

    /// Holdfast's loopback TCP endpoint (``loopbackKey``): `{"v": 1, "host": tstr, "port": uint}`.
    public struct LoopbackEndpoint: Sendable, Hashable {
        /// The `v` this module writes and reads.
        public static let version: UInt64 = 1
        public var host: String
        public var port: UInt16

        public init(host: String = "127.0.0.1", port: UInt16) {
            self.host = host
            self.port = port
        }
    }

    /// §8.2.1.1: "1.0".
    public static let currentVersion = "1.0"
    /// §8.2.1.1: cipher suite 1 (ECDH, HKDF-SHA256, AES-256-GCM; §9.1.1.5).
    public static let cipherSuite: Int64 = 1
    /// §8.2.1.1 DeviceRetrievalMethod type for BLE, and the BLE options version.
    public static let bleRetrievalType: UInt64 = 2
    public static let bleRetrievalVersion: UInt64 = 1
    /// The private key that carries a ``LoopbackEndpoint`` (a negative integer, outside the keys 18013-5 assigns).
    public static let loopbackKey: Int64 = -18508

    public let version: String
    public let eDeviceKey: P256.KeyAgreement.PublicKey
    /// `EDeviceKeyBytes`, the `#6.24` item as encoded.
    public let eDeviceKeyBytes: [UInt8]
    /// The first BLE retrieval method, when there is one.
    public let ble: BLEOptions?
    public let loopback: LoopbackEndpoint?
    /// The content of `DeviceEngagementBytes`, as received or written.
    public let encoded: [UInt8]

    /// The engagement an mdoc shows: version "1.0", cipher suite 1, one BLE retrieval method and, when given, the
    /// loopback endpoint.
    public init(eDeviceKey: P256.KeyAgreement.PublicKey, ble: BLEOptions, loopback: LoopbackEndpoint? = nil) {
        version = Self.currentVersion
        self.eDeviceKey = eDeviceKey
        eDeviceKeyBytes = ProximityKeys.taggedBytes(of: eDeviceKey)
        self.ble = ble
        self.loopback = loopback
        var options: [CBOR.Pair] = [.init(0, .bool(ble.peripheralServerMode)), .init(1, .bool(ble.centralClientMode))]
        if let uuid = ble.peripheralServerUUID { options.append(.init(10, .bytes(Self.bytes(of: uuid)))) }
        if let uuid = ble.centralClientUUID { options.append(.init(11, .bytes(Self.bytes(of: uuid)))) }
        var bytes = CBOR.head(major: 5, argument: loopback == nil ? 3 : 4)
        bytes += CBOR.int(0).encoded() + CBOR.text(version).encoded()
        bytes += CBOR.int(1).encoded() + CBOR.head(major: 4, argument: 2) + CBOR.int(Self.cipherSuite).encoded() + eDeviceKeyBytes
        bytes += CBOR.int(2).encoded()
            + CBOR.array([.array([.unsigned(Self.bleRetrievalType), .unsigned(Self.bleRetrievalVersion), .map(options)])]).encoded()
        if let loopback {
            bytes += CBOR.int(Self.loopbackKey).encoded() + CBOR.map([
                .init("v", .unsigned(LoopbackEndpoint.version)), .init("host", .text(loopback.host)),
                .init("port", .unsigned(UInt64(loopback.port))),
            ]).encoded()
        }
        encoded = bytes
    }

    /// Reads a DeviceEngagement, keeping `bytes` as ``encoded``. Unknown keys and retrieval methods other than BLE
    /// (NFC, Wi-Fi Aware) are passed by; an NFC engagement (no retrieval methods, §8.2.2.1) reads with `ble` nil.
    /// A loopback entry whose `v` is not 1 is passed by as an unknown key would be (a later form this reader does
    /// not know); one with `v` 1 and a bad host or port is refused.
    public init(decoding bytes: [UInt8]) throws(ProximityError) {
        let reader = ProximityCBOR { .malformedEngagement($0) }
        let item = try reader.decode(bytes, "DeviceEngagement")
        var version: String?
        var security: CBOR.Decoded?
        var ble: BLEOptions?
        var loopback: LoopbackEndpoint?
        for (key, value) in try reader.map(item, "DeviceEngagement") {
            guard let label = try? key.int64() else { continue }
            switch label {
            case 0: version = try reader.text(value, "version")
            case 1: security = value
            case 2: ble = try Self.firstBLE(value, reader)
            case Self.loopbackKey: loopback = try Self.loopback(value, reader)
            default: continue
            }
        }
        guard let version else { throw .malformedEngagement("DeviceEngagement has no version (0)") }
        guard version.hasPrefix("1.") else { throw .unsupportedVersion(version) }
        guard let security else { throw .malformedEngagement("DeviceEngagement has no Security (1)") }
        let parts = try reader.array(security, "Security")
        guard parts.count == 2 else { throw .malformedEngagement("Security is not [cipherSuite, EDeviceKeyBytes]") }
        let suite = try reader.int(parts[0], "cipher suite")
        guard suite == Self.cipherSuite else { throw .malformedEngagement("cipher suite \(suite) is not 1") }
        eDeviceKey = try ProximityKeys.publicKey(tagged: parts[1])
        eDeviceKeyBytes = Array(parts[1].rawBytes)
        self.version = version
        self.ble = ble
        self.loopback = loopback
        encoded = bytes
    }

    /// The QR code's text (§8.2.2.3): `mdoc:` and the engagement in base64url without padding.
    public static let qrScheme = "mdoc:"

    /// Reads the text of an engagement QR code (§8.2.2.3).
    public init(qrCode text: String) throws(ProximityError) {
        guard text.hasPrefix(Self.qrScheme) else { throw .malformedQRCode("the text does not begin with \(Self.qrScheme)") }
        let bytes = try EngagementText.decode(String(text.dropFirst(Self.qrScheme.count)))
        try self.init(decoding: bytes)
    }

    /// `mdoc:` and ``encoded`` in base64url without padding.
    public var qrCode: String { Self.qrScheme + EngagementText.encode(encoded) }

    private static func firstBLE(_ methods: CBOR.Decoded, _ reader: ProximityCBOR) throws(ProximityError) -> BLEOptions? {
        for method in try reader.array(methods, "DeviceRetrievalMethods") {
            let parts = try reader.array(method, "DeviceRetrievalMethod")
            // Another retrieval method (NFC, Wi-Fi Aware, one a later edition adds) is passed by whatever its shape.
            guard let type = parts.first, (try? type.uint64()) == bleRetrievalType else { continue }
            guard parts.count == 3 else { throw .malformedEngagement("DeviceRetrievalMethod is not [type, version, options]") }
            let bleVersion = try reader.unsigned(parts[1], "BLE retrieval version")
            guard bleVersion == bleRetrievalVersion else { continue }
            var options = BLEOptions(peripheralServerMode: false)
            var seen: Set<Int64> = []
            for (key, value) in try reader.map(parts[2], "BleOptions") {
                guard let label = try? key.int64() else { continue }
                seen.insert(label)
                switch label {
                case 0: options.peripheralServerMode = try reader.bool(value, "BleOptions 0")
                case 1: options.centralClientMode = try reader.bool(value, "BleOptions 1")
                case 10: options.peripheralServerUUID = try uuid(try reader.bytes(value, "BleOptions 10"))
                case 11: options.centralClientUUID = try uuid(try reader.bytes(value, "BleOptions 11"))
                default: continue
                }
            }
            guard seen.contains(0), seen.contains(1) else {
                throw .malformedEngagement("BleOptions lacks peripheral server mode (0) or central client mode (1)")
            }
            return options
        }
        return nil
    }

    private static func loopback(_ value: CBOR.Decoded, _ reader: ProximityCBOR) throws(ProximityError) -> LoopbackEndpoint? {
        guard value.majorType == 5, let v = value["v"], (try? v.uint64()) == LoopbackEndpoint.version else { return nil }
        guard let host = value["host"], let port = value["port"] else {
            throw .malformedEngagement("the loopback endpoint lacks host or port")
        }
        let hostText = try reader.text(host, "loopback host")
        guard !hostText.isEmpty else { throw .malformedEngagement("the loopback host is empty") }
        let portNumber = try reader.unsigned(port, "loopback port")
        guard let port16 = UInt16(exactly: portNumber), port16 != 0 else {
            throw .malformedEngagement("the loopback port \(portNumber) is not 1…65535")
        }
        return LoopbackEndpoint(host: hostText, port: port16)
    }

    private static func uuid(_ bytes: [UInt8]) throws(ProximityError) -> UUID {
        guard bytes.count == 16 else { throw .malformedEngagement("a BLE service UUID has \(bytes.count) bytes, not 16") }
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// Two engagements are equal when their bytes are (the bytes carry every member).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.encoded == rhs.encoded }

    public func hash(into hasher: inout Hasher) { hasher.combine(encoded) }

    private static func bytes(of uuid: UUID) -> [UInt8] {
        withUnsafeBytes(of: uuid.uuid) { Array($0) }
    }
}
