#!/usr/bin/env python3
"""Baseline for `holdfast bench status`: pyeudiw decodes the same Status List Token CWT (claims, then the
zlib-compressed list) in a loop, as the Swift side does, and prints one JSON object."""
import argparse
import json
import time

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
    print(json.dumps({
        "implementation": "pyeudiw",
        "operations": iterations,
        "seconds": elapsed,
        "ops_per_second": iterations / elapsed,
    }))


if __name__ == "__main__":
    main()
