#!/usr/bin/env python3
"""Baseline for `holdfast bench status`: pyeudiw decodes the same Status List Token CWT (claims, then the
zlib-compressed list) in a loop, as the Swift side does, and prints one JSON object. It also times
`zlib.decompress` of the list alone (CPython's binding of the system zlib), the part of pyeudiw's decode that no
Python is involved in."""
import argparse
import json
import time
import zlib

import cbor2

from pyeudiw.status_list.helper import StatusListTokenHelper


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hex-file", required=True, help="file holding the CWT as hex")
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    token = open(args.hex_file).read().strip()

    helper = StatusListTokenHelper.from_token(token)
    assert len(helper.status_list) > 0
    for _ in range(3):  # warm-up
        StatusListTokenHelper.from_token(token)
    iterations = 0
    start = time.perf_counter()
    deadline = start + args.seconds
    while True:
        StatusListTokenHelper.from_token(token)
        iterations += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start

    # The compressed list: COSE_Sign1 (tag 18 or not) -> payload (index 2) -> claims -> 65533 -> lst.
    sign1 = cbor2.loads(bytes.fromhex(token))
    sign1 = sign1.value if isinstance(sign1, cbor2.CBORTag) else sign1
    compressed = cbor2.loads(sign1[2])[65533]["lst"]
    inflations = 0
    inflate_start = time.perf_counter()
    inflate_deadline = inflate_start + args.seconds
    while True:
        zlib.decompress(compressed)
        inflations += 1
        inflate_now = time.perf_counter()
        if inflate_now >= inflate_deadline:
            break
    print(json.dumps({
        "implementation": "pyeudiw",
        "operations": iterations,
        "seconds": elapsed,
        "ops_per_second": iterations / elapsed,
        "zlib_decompress_ops_per_second": inflations / (inflate_now - inflate_start),
    }))


if __name__ == "__main__":
    main()
