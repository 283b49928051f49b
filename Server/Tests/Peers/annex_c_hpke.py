"""ISO/IEC TS 18013-7 (second edition) Annex C response encryption by a second implementation: `pyhpke` (RFC 9180,
DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM, base mode) and `cbor2` for the structures, nothing shared with
Holdfast's Swift code. The SessionTranscript is built here from the Annex C CDDL:
    SessionTranscript = [null, null, ["dcapi", SHA-256(CBOR [encryptionInfo base64url as sent, origin])]]
and is the HPKE `info`; the `aad` is empty.

    annex_c_hpke.py open <encryptionInfo b64url> <origin> <recipient private key hex> <EncryptedResponse b64url>
        decrypts what the wallet sealed; prints {"accepted", "plaintext_hex", "session_transcript_hex"}
    annex_c_hpke.py seal <encryptionInfo b64url> <origin> <plaintext hex>
        encrypts to the EncryptionInfo's recipientPublicKey; prints {"accepted", "response", "session_transcript_hex"}
    annex_c_hpke.py transcript <encryptionInfo b64url> <origin>
        the SessionTranscript alone (for a DeviceResponse made before it is sealed); prints {"accepted", "session_transcript_hex"}

Prints one JSON object, as the scripts of shared/peers do; exits 0 when it opened (or sealed), 1 when it refused.
"""
import base64
import hashlib
import json
import sys

import cbor2
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from pyhpke import AEADId, CipherSuite, KDFId, KEMId, KEMKey, OpenError

SUITE = CipherSuite.new(KEMId.DHKEM_P256_HKDF_SHA256, KDFId.HKDF_SHA256, AEADId.AES128_GCM)


def b64url_decode(text):
    if "=" in text:
        raise ValueError("padding in base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def session_transcript(encryption_info, origin):
    info_hash = hashlib.sha256(cbor2.dumps([encryption_info, origin])).digest()
    return cbor2.dumps([None, None, ["dcapi", info_hash]])


def recipient_public_key(encryption_info):
    kind, body = cbor2.loads(b64url_decode(encryption_info))
    if kind != "dcapi":
        raise ValueError(f"EncryptionInfo type {kind!r}")
    if len(body["nonce"]) < 16:
        raise ValueError("nonce shorter than 16 bytes")
    key = body["recipientPublicKey"]
    if key.get(1) != 2 or key.get(-1) != 1:
        raise ValueError("recipientPublicKey is not EC2 P-256")
    return b"\x04" + key[-2] + key[-3]


def main(argv):
    if len(argv) == 5 and argv[0] == "open":
        encryption_info, origin, key_hex, response = argv[1:]
        transcript = session_transcript(encryption_info, origin)
        private = ec.derive_private_key(int(key_hex, 16), ec.SECP256R1())
        point = private.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        if point != recipient_public_key(encryption_info):
            print(json.dumps({"accepted": False, "error": "the key is not the EncryptionInfo's recipientPublicKey"}))
            return 1
        kind, body = cbor2.loads(b64url_decode(response))
        if kind != "dcapi" or len(body["enc"]) != 65:
            print(json.dumps({"accepted": False, "error": "not an Annex C EncryptedResponse"}))
            return 1
        try:
            # RFC 9180 §6.1 single-shot open: a recipient context, its first message (pyhpke's one-call `open` is
            # not implemented in 0.6.5).
            recipient = SUITE.create_recipient_context(body["enc"], KEMKey.from_pyca_cryptography_key(private), info=transcript)
            plaintext = recipient.open(body["cipherText"], aad=b"")
        except (OpenError, ValueError) as error:
            print(json.dumps({"accepted": False, "error": f"open failed: {error}",
                              "session_transcript_hex": transcript.hex()}))
            return 1
        print(json.dumps({"accepted": True, "plaintext_hex": plaintext.hex(), "session_transcript_hex": transcript.hex()}))
        return 0
    if len(argv) == 4 and argv[0] == "seal":
        encryption_info, origin, plaintext_hex = argv[1:]
        transcript = session_transcript(encryption_info, origin)
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), recipient_public_key(encryption_info))
        enc, sender = SUITE.create_sender_context(KEMKey.from_pyca_cryptography_key(public), info=transcript)
        cipher_text = sender.seal(bytes.fromhex(plaintext_hex), aad=b"")
        response = cbor2.dumps(["dcapi", {"enc": enc, "cipherText": cipher_text}])
        print(json.dumps({"accepted": True, "response": b64url(response), "session_transcript_hex": transcript.hex()}))
        return 0
    if len(argv) == 3 and argv[0] == "transcript":
        print(json.dumps({"accepted": True, "session_transcript_hex": session_transcript(argv[1], argv[2]).hex()}))
        return 0
    print(json.dumps({"accepted": False, "error": "usage: open <encryptionInfo> <origin> <key hex> <response> | "
                                                  "seal <encryptionInfo> <origin> <plaintext hex> | transcript <encryptionInfo> <origin>"}))
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
