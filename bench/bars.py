#!/usr/bin/env python3
"""Checks a fipsmod-speed -json file against the project's performance bars.

usage: bench/bars.py RESULTS.json

Prints one table row per bar (op, size, threads, fipsmod ops/s, peer ops/s, ratio, bar, met?)
from the rows of that one run; a bar whose rows are missing is reported as such. The bars are
those of the issues (same-run ratios); this script only reads figures, it measures nothing.
Exit status 0 when every bar with data is met, 1 otherwise."""
import json
import sys

# (op, size, threads, peer, minimum ratio fipsmod/peer)
RATIO_BARS = [
    ("AES-256-CTR", 8192, 1, "openssl", 0.9),
    ("AES-256-CBC-encrypt", 8192, 1, "openssl", 0.9),
    ("SHA-256", 8192, 1, "openssl", 0.9),
    # The approved GCM one-shots against OpenSSL's EVP (which is handed a fixed IV).
    ("AES-256-GCM-seal", 8192, 1, "openssl", 1.0),
    ("AES-256-GCM-open", 8192, 1, "openssl", 1.0),
    ("AES-256-GCM-seal", 16, 1, "openssl", 1.0),
    ("HMAC-SHA-256", 64, 1, "openssl", 1.5),
    ("RNG", 16, 1, "openssl", 20.0),
    ("RNG", 16, 1, "vdso-getrandom", 1.0),
    ("RNG", 16384, 1, "openssl", 2.0),
    ("RNG-u32", 4, 1, "vdso-getrandom", 5.0),
    ("UUIDv4-string", 36, 1, "envoy-style", 1.0),
    ("UUIDv4-string", 36, 1, "libuuid", 20.0),
    ("mont-setup-consttime", 256, 1, "openssl", 10.0),
    ("mont-setup-consttime", 1024, 1, "openssl", 3.0),
    ("mont-setup-consttime", 2048, 1, "openssl", 1.5),
    ("mont-setup-consttime", 4096, 1, "openssl", 1.5),
    ("modexp-consttime", 2048, 1, "openssl", 0.8),
    ("RSA-sign", 2048, 1, "openssl", 0.8),
    ("RSA-sign", 3072, 1, "openssl", 0.8),
    ("RSA-sign", 4096, 1, "openssl", 0.8),
    ("RSA-verify", 2048, 1, "openssl", 1.0),
]


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        rows = json.load(f)
    rate = {}
    for r in rows:
        # A later row for the same key (a rerun merged into one file) replaces an earlier one.
        rate[(r["op"], r["impl"], r["size"], r["threads"])] = r["ops_per_sec"]

    all_met = True
    print(f"{'op':24} {'size':>5} {'thr':>3} {'fipsmod ops/s':>14} {'peer':>15} "
          f"{'peer ops/s':>12} {'ratio':>7} {'bar':>7}  met")

    def line(op, size, threads, fm, peer, pv, ratio, bar_text, met):
        nonlocal all_met
        if met is False:
            all_met = False
        fm_s = f"{fm:14.1f}" if fm is not None else f"{'-':>14}"
        pv_s = f"{pv:12.1f}" if pv is not None else f"{'-':>12}"
        ratio_s = f"{ratio:7.2f}" if ratio is not None else f"{'-':>7}"
        met_s = {True: "yes", False: "NO", None: "no data"}[met]
        print(f"{op:24} {size:>5} {threads:>3} {fm_s} {peer:>15} {pv_s} {ratio_s} {bar_text:>7}  {met_s}")

    for op, size, threads, peer, bar in RATIO_BARS:
        fm = rate.get((op, "fipsmod", size, threads))
        pv = rate.get((op, peer, size, threads))
        if fm is None or pv is None or pv <= 0:
            line(op, size, threads, fm, peer, pv, None, f">={bar:g}", None)
            continue
        ratio = fm / pv
        line(op, size, threads, fm, peer, pv, ratio, f">={bar:g}", ratio >= bar)

    # Thread scaling: RNG 16 bytes, 2 threads' total against 1 thread.
    one = rate.get(("RNG", "fipsmod", 16, 1))
    two = rate.get(("RNG", "fipsmod", 16, 2))
    if one and two:
        line("RNG (2 thr / 1 thr)", 16, 2, two, "fipsmod 1 thr", one, two / one, ">=1.8",
             two / one >= 1.8)
    else:
        line("RNG (2 thr / 1 thr)", 16, 2, two, "fipsmod 1 thr", one, None, ">=1.8", None)

    # Self-test cost per load: the same test-hooks library with and without the self-tests.
    for op in ("selftest", "selftest-dlopen"):
        full = rate.get((op, "testhooks", 0, 1))
        skip = rate.get((op, "testhooks-skip-selftest", 0, 1))
        label = op + " cost us"
        if full and skip:
            cost = 1e6 / full - 1e6 / skip
            line(label, 0, 1, cost, "(us per load)", None, None, "<=2000", cost <= 2000.0)
        else:
            line(label, 0, 1, None, "(us per load)", None, None, "<=2000", None)
    return 0 if all_met else 1


if __name__ == "__main__":
    sys.exit(main())
