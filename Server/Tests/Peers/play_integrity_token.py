"""A Play Integrity token made by a second implementation (the `cryptography` package of the peers' virtualenv):
the shape developer.android.com "Decrypt and verify the integrity verdict locally" describes, a compact JWE
(RFC 7516, `alg` A256KW = RFC 3394 AES Key Wrap, `enc` A256GCM) whose plaintext is a compact JWS (RFC 7515,
ES256, the signature as the raw r || s of RFC 7518 §3.4).

    play_integrity_token.py make <decryption key, standard base64> <signing key PEM> <payload JSON>

Prints one JSON object, {"token": ...}, as the scripts of shared/peers do; exits 0.
"""
import base64
import json
import os
import sys

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.keywrap import aes_key_wrap


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def jws_es256(payload, key):
    header = b64url(json.dumps({"alg": "ES256"}, separators=(",", ":")).encode())
    body = b64url(payload)
    der = key.sign(f"{header}.{body}".encode("ascii"), ec.ECDSA(hashes.SHA256()))
    r, s = decode_dss_signature(der)
    return f"{header}.{body}.{b64url(r.to_bytes(32, 'big') + s.to_bytes(32, 'big'))}"


def jwe_a256kw(plaintext, kek):
    header = b64url(json.dumps({"alg": "A256KW", "enc": "A256GCM"}, separators=(",", ":")).encode())
    cek = AESGCM.generate_key(bit_length=256)
    iv = os.urandom(12)
    sealed = AESGCM(cek).encrypt(iv, plaintext, header.encode("ascii"))
    ciphertext, tag = sealed[:-16], sealed[-16:]
    return ".".join([header, b64url(aes_key_wrap(kek, cek)), b64url(iv), b64url(ciphertext), b64url(tag)])


def main(argv):
    if len(argv) == 4 and argv[0] == "make":
        kek = base64.b64decode(argv[1])
        key = serialization.load_pem_private_key(argv[2].encode(), password=None)
        token = jwe_a256kw(jws_es256(argv[3].encode(), key).encode("ascii"), kek)
        print(json.dumps({"token": token}))
        return 0
    print(json.dumps({"error": "usage: make <key base64> <signing key PEM> <payload JSON>"}))
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
