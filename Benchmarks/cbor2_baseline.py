#!/usr/bin/env python3
"""Baseline for `holdfast bench cbor`: cbor2 (with its C extension) decodes and re-encodes the ISO 18013-5
Annex D DeviceResponse in a loop, exactly as the Swift side does, and prints one JSON object."""
import argparse
import json
import time

import cbor2

try:
    import cbor2._cbor2 as c_extension  # noqa: F401  (present when cbor2 was built with its C extension)
    has_c_extension = True
except ImportError:
    has_c_extension = False


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hex-file", required=True, help="file holding the item as hex")
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    data = bytes.fromhex(open(args.hex_file).read().strip())

    # Same work as the Swift loop: decode the whole item, encode it again, check the length once.
    assert len(cbor2.dumps(cbor2.loads(data))) > 0
    for _ in range(200):  # warm-up
        cbor2.dumps(cbor2.loads(data))
    iterations = 0
    start = time.perf_counter()
    deadline = start + args.seconds
    while True:
        for _ in range(100):
            cbor2.dumps(cbor2.loads(data))
        iterations += 100
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    print(json.dumps({
        "implementation": "cbor2",
        "c_extension": has_c_extension,
        "bytes": len(data),
        "iterations": iterations,
        "seconds": elapsed,
        "ops_per_second": iterations / elapsed,
    }))


if __name__ == "__main__":
    main()
