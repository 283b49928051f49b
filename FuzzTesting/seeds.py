"""Writes the fuzzers' seed corpora from ../shared/vectors (never edited) into a folder per target.

Standard library only: base64 and hex fields of the JSON vectors, PEM certificates as DER, compact JWS/JWE
strings; plus the small hand-made seeds committed in FuzzTesting/Corpus/<target>/.
"""
import base64, binascii, glob, json, os, re, shutil, sys

vectors, out = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))
targets = ["FuzzCBOR", "FuzzCOSE", "FuzzJOSE", "FuzzCertificate", "FuzzKeyDescription", "FuzzAppAttest", "FuzzRESP",
           "FuzzMDoc", "FuzzStatusList", "FuzzDCAPIRequest", "FuzzDCAPIResponse", "FuzzEncryptionInfo",
           "FuzzEncryptedResponse", "FuzzDeviceEngagement", "FuzzSessionEstablishment", "FuzzSessionData",
           "FuzzDeviceRequest", "FuzzBLEReassembly"]
counts = {}


def put(target, data, name):
    if not data:
        return
    folder = os.path.join(out, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)
    counts[target] = counts.get(target, 0) + 1


def ble_values(message, mtu=23):
    """FuzzBLEReassembly's input: an MTU byte, then each characteristic value (ISO/IEC 18013-5 §8.3.3.1.1.6) as a
    length byte and the value."""
    size = min(mtu - 3, 512) - 1
    pieces = [message[i:i + size] for i in range(0, len(message), size)] or [b""]
    out = bytes([(mtu - 23) // 2])
    for index, piece in enumerate(pieces):
        value = bytes([0 if index == len(pieces) - 1 else 1]) + piece
        out += bytes([len(value)]) + value
    return out


# ISO/IEC 18013-5 proximity messages of Annex D, by the vector's name, for the proximity fuzzers.
PROXIMITY = {"DEVICE_ENGAGEMENT": "FuzzDeviceEngagement", "SESSION_ESTABLISHMENT": "FuzzSessionEstablishment",
             "SESSION_DATA": "FuzzSessionData", "SESSION_TERMINATION": "FuzzSessionData",
             "DEVICE_REQUEST": "FuzzDeviceRequest"}


def b64(text):
    text = text.strip()
    padded = text + "=" * (-len(text) % 4)
    try:
        return base64.b64decode(padded, altchars=b"-_" if ("-" in text or "_" in text) else None, validate=False)
    except (binascii.Error, ValueError):
        return None


def walk(value, path=""):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from walk(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from walk(item, f"{path}[{index}]")
    elif isinstance(value, str):
        yield path, value


for folder in targets:
    committed = os.path.join(here, "Corpus", folder)
    if os.path.isdir(committed):
        for name in os.listdir(committed):
            with open(os.path.join(committed, name), "rb") as f:
                put(folder, f.read(), "committed-" + name)

for index, path in enumerate(sorted(glob.glob(os.path.join(vectors, "**", "*.json"), recursive=True))):
    try:
        document = json.load(open(path))
    except (ValueError, UnicodeDecodeError):
        continue
    for key, text in walk(document):
        name = f"v{index}{re.sub(r'[^A-Za-z0-9]+', '-', key)}"[:120]
        lowered = key.lower()
        if re.fullmatch(r"[0-9a-fA-F]{16,}", text) and len(text) % 2 == 0:
            data = bytes.fromhex(text)
            put("FuzzCBOR", data, name)
            put("FuzzCOSE", data, name)
            put("FuzzMDoc", data, name)
            put("FuzzStatusList", data, name)
            target = PROXIMITY.get(key.rsplit(".", 1)[-1])
            if target:
                put(target, data, name)
                put("FuzzBLEReassembly", ble_values(data), name)
                if target == "FuzzDeviceEngagement":
                    put(target, b"mdoc:" + base64.urlsafe_b64encode(data).rstrip(b"="), name + "-qr")
        elif re.fullmatch(r"[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]*\.[A-Za-z0-9_\-]*(\.[A-Za-z0-9_\-]*\.[A-Za-z0-9_\-]*)?", text):
            put("FuzzJOSE", text.encode(), name)
            put("FuzzStatusList", text.encode(), name)
        elif len(text) >= 24 and re.fullmatch(r"[A-Za-z0-9+/=_\-\s]+", text):
            data = b64(text)
            if not data:
                continue
            if "encryptioninfo" in lowered:
                put("FuzzEncryptionInfo", data, name)
                put("FuzzEncryptionInfo", text.encode(), name + "-b64url")
            elif "devicerequest" in lowered:
                put("FuzzMDoc", data, name)
                put("FuzzDeviceRequest", data, name)
            if "attestation" in lowered:
                put("FuzzAppAttest", data, name)
                put("FuzzCBOR", data, name)
            elif data[:1] == b"\x30":
                put("FuzzCertificate", data, name)
            else:
                put("FuzzCBOR", data, name)
        if text.lstrip().startswith("{") or text.lstrip().startswith("["):
            put("FuzzJOSE", text.encode(), name)
    # A Digital Credentials API request as a page passes it (W3C `digital`), from a vector that has the parts.
    annex_c = document.get("annexC") if isinstance(document, dict) else None
    if isinstance(annex_c, dict) and "deviceRequestBase64Url" in annex_c:
        requests = [{"protocol": annex_c.get("protocol", "org-iso-mdoc"),
                     "data": {"deviceRequest": annex_c["deviceRequestBase64Url"],
                              "encryptionInfo": annex_c.get("encryptionInfoBase64Url", "")}}]
        if isinstance(document.get("signedRequestJws"), str):
            requests.insert(0, {"protocol": "openid4vp-v1-signed", "data": {"request": document["signedRequestJws"]}})
        put("FuzzDCAPIRequest", json.dumps({"requests": requests}).encode(), f"v{index}-digital")
        put("FuzzDCAPIRequest", json.dumps(requests[-1]).encode(), f"v{index}-one")
    with open(path, "rb") as f:
        raw = f.read()
    if len(raw) < 20000:
        put("FuzzJOSE", raw, f"v{index}-file")

for index, path in enumerate(sorted(glob.glob(os.path.join(vectors, "**", "*.pem"), recursive=True))):
    text = open(path, errors="replace").read()
    for number, block in enumerate(re.findall(r"-----BEGIN CERTIFICATE-----(.*?)-----END CERTIFICATE-----", text, re.S)):
        put("FuzzCertificate", base64.b64decode("".join(block.split())), f"p{index}-{number}")
for index, path in enumerate(sorted(glob.glob(os.path.join(vectors, "**", "*.der"), recursive=True))):
    put("FuzzCertificate", open(path, "rb").read(), f"d{index}")
for index, path in enumerate(sorted(glob.glob(os.path.join(vectors, "**", "*.b64"), recursive=True))):
    data = b64(open(path).read())
    put("FuzzCBOR", data, f"b{index}")
    put("FuzzCOSE", data, f"b{index}")
    put("FuzzMDoc", data, f"b{index}")

for target in targets:
    print(f"  {target}: {counts.get(target, 0)} seeds")
