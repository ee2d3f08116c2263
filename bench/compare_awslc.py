#!/usr/bin/env python3
"""Side-by-side ratios of fipsmod-speed against AWS-LC's `bssl speed`, interleaved.

For each operation, in each round: fipsmod-speed times it, then `bssl speed` times AWS-LC's
operation doing the same work, so that both figures of a pair come from the same minute of a
noisy machine. The table gives, per operation and size, the median over the rounds of the pair
ratios fipsmod / AWS-LC (above 1: fipsmod is faster), with both medians in ops/sec. "best" is
each side's fastest round against the other's: the host slows whole rounds now and then (a
neighbour on the core's other hyperthread, say), by up to a third, and a round's two figures
are not always slowed alike; the fastest rounds are the least disturbed ones.

AWS-LC is a peer to measure against, never a dependency: when the bssl tool is absent the script
says so and exits 0 without measuring.

usage: bench/compare_awslc.py [--speed build/release/bench/fipsmod-speed]
                              [--bssl ../shared/tools/aws-lc-bssl] [--rounds 3] [--timeout 1]
                              [--filter SUBSTRING] [--json FILE]
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

# (fipsmod op, sizes or None for fixed-size ops, bssl filter, bssl description template[,
# row label]). A template's {size} is the chunk size. Each pair does the same work: see
# bench/README.md. A list of templates is a derived peer figure (see peer_rate), shown under its
# row label.
PAIRS = [
    ("AES-256-GCM-seal", [16, 256, 1350, 8192, 16384], "AES-256-GCM", "AEAD-AES-256-GCM seal ({size} bytes)"),
    ("AES-256-GCM-open", [16, 256, 1350, 8192, 16384], "AES-256-GCM", "AEAD-AES-256-GCM open ({size} bytes)"),
    ("AES-256-GCM-seal-with-iv", [16, 256, 1350, 8192, 16384], "AES-256-GCM", "AEAD-AES-256-GCM seal ({size} bytes)"),
    ("AES-128-GCM-seal", [16, 256, 1350, 8192, 16384], "AES-128-GCM", "AEAD-AES-128-GCM seal ({size} bytes)"),
    ("AES-128-GCM-open", [16, 256, 1350, 8192, 16384], "AES-128-GCM", "AEAD-AES-128-GCM open ({size} bytes)"),
    # CBC at whole-block sizes only (fipsmod-speed runs 1350 as 1344).
    ("AES-256-CBC-encrypt", [16, 256, 8192, 16384], "AES-256-CBC", "EVP-AES-256-CBC encrypt ({size} bytes)"),
    ("AES-256-CBC-decrypt", [16, 256, 8192, 16384], "AES-256-CBC", "EVP-AES-256-CBC decrypt ({size} bytes)"),
    ("AES-128-CBC-encrypt", [16, 256, 8192, 16384], "AES-128-CBC", "EVP-AES-128-CBC encrypt ({size} bytes)"),
    ("AES-128-CBC-decrypt", [16, 256, 8192, 16384], "AES-128-CBC", "EVP-AES-128-CBC decrypt ({size} bytes)"),
    # CTR: bssl times EVP_EncryptUpdate on a context keyed once, as for CBC.
    ("AES-128-CTR", [16, 256, 1350, 8192, 16384], "EVP-AES-128-CTR", "EVP-AES-128-CTR encrypt ({size} bytes)"),
    ("AES-256-CTR", [16, 256, 1350, 8192, 16384], "EVP-AES-256-CTR", "EVP-AES-256-CTR encrypt ({size} bytes)"),
    ("SHA-224", [16, 256, 1350, 8192, 16384], "SHA-224", "SHA-224 ({size} bytes)"),
    ("SHA-256", [16, 256, 1350, 8192, 16384], "SHA-256", "SHA-256 ({size} bytes)"),
    ("SHA-384", [16, 256, 1350, 8192, 16384], "SHA-384", "SHA-384 ({size} bytes)"),
    ("SHA-512", [16, 256, 1350, 8192, 16384], "SHA-512", "SHA-512 ({size} bytes)"),
    ("HMAC-SHA-256", [16, 256, 1350, 8192, 16384], "HMAC-SHA256-OneShot", "HMAC-SHA256-OneShot ({size} bytes)"),
    ("HMAC-SHA-384", [16, 256, 1350, 8192, 16384], "HMAC-SHA384-OneShot", "HMAC-SHA384-OneShot ({size} bytes)"),
    ("HMAC-SHA-512", [16, 256, 1350, 8192, 16384], "HMAC-SHA512-OneShot", "HMAC-SHA512-OneShot ({size} bytes)"),
    ("HMAC-SHA3-256", [16, 256, 1350, 8192, 16384], "HMAC-SHA3-256-OneShot", "HMAC-SHA3-256-OneShot ({size} bytes)"),
    ("SHA3-224", [16, 256, 1350, 8192, 16384], "SHA3-224", "SHA3-224 ({size} bytes)"),
    ("SHA3-256", [16, 256, 1350, 8192, 16384], "SHA3-256", "SHA3-256 ({size} bytes)"),
    ("SHA3-384", [16, 256, 1350, 8192, 16384], "SHA3-384", "SHA3-384 ({size} bytes)"),
    ("SHA3-512", [16, 256, 1350, 8192, 16384], "SHA3-512", "SHA3-512 ({size} bytes)"),
    # XOFs: 32 bytes of output on both sides (bssl's SpeedHashChunk finishes an XOF with
    # EVP_DigestFinalXOF of 32 bytes).
    ("SHAKE-128", [16, 256, 1350, 8192, 16384], "SHAKE-128", "SHAKE-128 ({size} bytes)"),
    ("SHAKE-256", [16, 256, 1350, 8192, 16384], "SHAKE-256", "SHAKE-256 ({size} bytes)"),
    ("RNG", [16, 256, 1350, 8192, 16384], "RNG", "RNG ({size} bytes)"),
    # RSA rows at one key size each: fipsmod-speed's RSA ops run every size, keyed by bits.
    ("RSA-sign", [2048], "RSA 2048", "RSA {size} signing"),
    ("RSA-verify", [2048], "RSA 2048", "RSA {size} verify (same key)"),
    ("RSA-sign", [3072], "RSA 3072", "RSA {size} signing"),
    ("RSA-verify", [3072], "RSA 3072", "RSA {size} verify (same key)"),
    ("RSA-sign", [4096], "RSA 4096", "RSA {size} signing"),
    ("RSA-verify", [4096], "RSA 4096", "RSA {size} verify (same key)"),
    # AWS-LC's private-key parse runs RSA_check_key's consistency checks, no primality test.
    ("RSA-key-import-consistent", [2048], "RSA 2048", "RSA {size} private key parse"),
    ("RSA-key-import-consistent", [3072], "RSA 3072", "RSA {size} private key parse"),
    ("RSA-key-import-consistent", [4096], "RSA 4096", "RSA {size} private key parse"),
    ("ECDSA-P256-sign", None, "ECDSA P-256", "ECDSA P-256 signing"),
    ("ECDSA-P256-verify", None, "ECDSA P-256", "ECDSA P-256 verify"),
    ("ECDSA-P384-sign", None, "ECDSA P-384", "ECDSA P-384 signing"),
    ("ECDSA-P384-verify", None, "ECDSA P-384", "ECDSA P-384 verify"),
    ("ECDSA-P521-sign", None, "ECDSA P-521", "ECDSA P-521 signing"),
    ("ECDSA-P521-verify", None, "ECDSA P-521", "ECDSA P-521 verify"),
    # ECDH: fm_ecdh takes the peer's SEC1 point, checks it, multiplies and returns x; bssl's
    # "ECDH P-<n>" line times, per call, a fresh EC_KEY_generate_key as well (SpeedECDHCurve in
    # its tool/speed.cc: key generation, the peer point parsed, EC_POINT_mul, the affine x). So
    # the peer figure is that line's time minus its "Generate P-<n> with EC_KEY_generate_key"
    # line's time in the same round: AWS-LC doing the work fm_ecdh does (derived, see peer_rate).
    ("ECDH-P256", None, "ECDH P-256,Generate P-256",
     ["ECDH P-256", "-Generate P-256 with EC_KEY_generate_key"]),
    ("ECDH-P384", None, "ECDH P-384,Generate P-384",
     ["ECDH P-384", "-Generate P-384 with EC_KEY_generate_key"]),
    ("ECDH-P521", None, "ECDH P-521,Generate P-521",
     ["ECDH P-521", "-Generate P-521 with EC_KEY_generate_key"]),
    # fipsmod's EC keygen runs its pairwise test; so does AWS-LC's EC_KEY_generate_key_fips.
    ("EC-P256-keygen", None, "Generate P-256", "Generate P-256 with EC_KEY_generate_key_fips"),
    ("EC-P384-keygen", None, "Generate P-384", "Generate P-384 with EC_KEY_generate_key_fips"),
    ("EC-P521-keygen", None, "Generate P-521", "Generate P-521 with EC_KEY_generate_key_fips"),
    ("ML-KEM-768-keygen", None, "ML-KEM-768", "ML-KEM-768 keygen"),
    ("ML-KEM-768-encaps", None, "ML-KEM-768", "ML-KEM-768 encaps"),
    ("ML-KEM-768-decaps", None, "ML-KEM-768", "ML-KEM-768 decaps"),
    ("ML-KEM-768-keygen-nopct", None, "ML-KEM-768", "ML-KEM-768 keygen"),
    ("ML-KEM-512-keygen", None, "ML-KEM-512", "ML-KEM-512 keygen"),
    ("ML-KEM-512-encaps", None, "ML-KEM-512", "ML-KEM-512 encaps"),
    ("ML-KEM-512-decaps", None, "ML-KEM-512", "ML-KEM-512 decaps"),
    ("ML-KEM-1024-keygen", None, "ML-KEM-1024", "ML-KEM-1024 keygen"),
    ("ML-KEM-1024-encaps", None, "ML-KEM-1024", "ML-KEM-1024 encaps"),
    ("ML-KEM-1024-decaps", None, "ML-KEM-1024", "ML-KEM-1024 decaps"),
    ("ML-KEM-512-keygen-nopct", None, "ML-KEM-512", "ML-KEM-512 keygen"),
    ("ML-KEM-1024-keygen-nopct", None, "ML-KEM-1024", "ML-KEM-1024 keygen"),
]
for _set in (44, 65, 87):
    PAIRS += [
        (f"ML-DSA-{_set}-keygen", None, f"MLDSA{_set}", f"MLDSA{_set} keygen"),
        (f"ML-DSA-{_set}-sign", None, f"MLDSA{_set}", f"MLDSA{_set} signing"),
        (f"ML-DSA-{_set}-verify", None, f"MLDSA{_set}", f"MLDSA{_set} verify"),
    ]
# Key generation with the pairwise consistency test against what AWS-LC's FIPS build runs for
# it. The bssl here is not a FIPS build (`bssl isfips` prints 0), so its keygen rows time key
# generation alone. Its FIPS build follows key generation with a PCT: for ML-KEM an encapsulation
# and a decapsulation (mlkem-native's check_pct under MLK_KEYGEN_PCT), for ML-DSA a signature and
# its verification (ml_dsa_keypair_pct). These rows time fipsmod's keygen (with its PCT) against
# the sum of the times bssl takes for those operations in the same round: a derived peer figure,
# named "+pct" in the table, never a measured one.
for _set in (512, 768, 1024):
    PAIRS.append((f"ML-KEM-{_set}-keygen", None, f"ML-KEM-{_set}",
                  [f"ML-KEM-{_set} {o}" for o in ("keygen", "encaps", "decaps")],
                  f"ML-KEM-{_set}-keygen+pct"))
# fipsmod's EC pairwise test is an ECDSA signature and its verification (IG 10.3.A for signature
# keys); AWS-LC's EC_KEY_generate_key_fips (paired above) recomputes d * G instead. This row
# times fipsmod's keygen against AWS-LC doing the same work: its keygen, a signature and a
# verification, from the same round (derived, like the rows below).
for _bits in (256, 384, 521):
    PAIRS.append((f"EC-P{_bits}-keygen", None, f"Generate P-{_bits},ECDSA P-{_bits}",
                  [f"Generate P-{_bits} with EC_KEY_generate_key", f"ECDSA P-{_bits} signing",
                   f"ECDSA P-{_bits} verify"], f"EC-P{_bits}-keygen+pct"))
for _set in (44, 65, 87):
    PAIRS.append((f"ML-DSA-{_set}-keygen", None, f"MLDSA{_set}",
                  [f"MLDSA{_set} {o}" for o in ("keygen", "signing", "verify")],
                  f"ML-DSA-{_set}-keygen+pct"))

BSSL_LINE = re.compile(r"^Did (\d+) (.+?) operations in (\d+)us")


def run_fipsmod(speed, op, sizes, timeout):
    with tempfile.NamedTemporaryFile(suffix=".json") as tmp:
        cmd = [speed, "-filter", op, "-timeout", str(timeout), "-threads", "1", "-json", tmp.name]
        if sizes:
            cmd += ["-chunks", ",".join(str(s) for s in sizes)]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        rows = json.load(open(tmp.name))
    out = {}
    for r in rows:
        # -filter is a substring match: keep the operation itself, not longer names.
        if r["op"] == op and r["impl"] == "fipsmod" and r["threads"] == 1:
            out[r["size"] if sizes else None] = r["ops_per_sec"]
    return out


def run_bssl(bssl, flt, sizes, timeout):
    cmd = [bssl, "speed", "-filter", flt, "-timeout_ms", str(int(timeout * 1000)), "-threads", "1"]
    if sizes:
        cmd += ["-chunks", ",".join(str(s) for s in sizes)]
    res = subprocess.run(cmd, check=True, capture_output=True, text=True)
    out = {}
    for line in res.stdout.splitlines():
        m = BSSL_LINE.match(line)
        if m:
            out[m.group(2)] = int(m.group(1)) * 1e6 / int(m.group(3))
    return out


# The plain keygen rows whose two sides do unequal work: fipsmod's keygen runs its pairwise test
# (IG 10.3.A: a signature and its verification, or an encapsulation and a decapsulation); this
# non-FIPS bssl's ML-KEM and ML-DSA keygen lines run none, and EC_KEY_generate_key_fips only
# recomputes d * G. The table marks them and names the like-for-like row.
UNEQUAL = {f"EC-P{b}-keygen": f"EC-P{b}-keygen+pct" for b in (256, 384, 521)}
UNEQUAL.update({f"ML-KEM-{s}-keygen": f"ML-KEM-{s}-keygen-nopct or +pct" for s in (512, 768, 1024)})
UNEQUAL.update({f"ML-DSA-{s}-keygen": f"ML-DSA-{s}-keygen+pct" for s in (44, 65, 87)})


def peer_rate(theirs, desc, size):
    """AWS-LC's ops/sec for one pair: a bssl line's, or for a list of lines the rate of doing
    each of their operations once in turn (1 / the sum of their times), a line marked with a
    leading "-" taking its time away instead (work that the bssl line does and fipsmod's does
    not). None when a line is missing, or when what is left is not a positive time."""
    descs = desc if isinstance(desc, list) else [desc]
    total = 0.0
    for d in descs:
        sign = -1 if d.startswith("-") else 1
        rate = theirs.get(d.lstrip("-").format(size=size), 0)
        if rate <= 0:
            return None
        total += sign / rate
    return 1 / total if total > 0 else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--speed", default=os.path.join(REPO, "build/release/bench/fipsmod-speed"))
    ap.add_argument("--bssl", default=os.path.join(REPO, "../shared/tools/aws-lc-bssl"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=1.0)
    ap.add_argument("--filter", default="")
    ap.add_argument("--json")
    args = ap.parse_args()

    if not os.access(args.bssl, os.X_OK):
        print(f"AWS-LC's bssl not found at {args.bssl}: nothing compared (it is optional)")
        return 0
    if not os.access(args.speed, os.X_OK):
        print(f"fipsmod-speed not found at {args.speed}: build it first", file=sys.stderr)
        return 2

    results = []
    for op, sizes, flt, desc, *label in PAIRS:
        label = label[0] if label else op
        if args.filter not in label:
            continue
        pairs = {}
        for _ in range(args.rounds):
            mine = run_fipsmod(args.speed, op, sizes, args.timeout)
            if not mine:
                break  # fipsmod-speed has no such operation (yet): say so below
            theirs = run_bssl(args.bssl, flt, sizes, args.timeout)
            for size in (sizes or [None]):
                peer = peer_rate(theirs, desc, size)
                if size in mine and peer:
                    pairs.setdefault(size, []).append((mine[size], peer))
        if not pairs:
            print(f"{label}: not measured (no fipsmod-speed row, or no AWS-LC line '{desc}')")
            continue
        for size in (sizes or [None]):
            if size not in pairs:
                continue
            p = pairs[size]
            results.append({
                "op": label, "size": size, "rounds": len(p),
                "fipsmod_ops_per_sec": statistics.median(a for a, _ in p),
                "awslc_ops_per_sec": statistics.median(b for _, b in p),
                "ratio": statistics.median(a / b for a, b in p),
                "best_ratio": max(a for a, _ in p) / max(b for _, b in p),
            })
            r = results[-1]
            note = ""
            if label in UNEQUAL:
                r["note"] = f"unequal work, the pairwise tests differ: see {UNEQUAL[label]}"
                note = f"  [{r['note']}]"
            print(f"{label:25} {str(size or '-'):>6}  fipsmod {r['fipsmod_ops_per_sec']:14.1f}  "
                  f"aws-lc {r['awslc_ops_per_sec']:14.1f}  ratio {r['ratio']:.2f}  "
                  f"best {r['best_ratio']:.2f}{note}", flush=True)
    if args.json:
        json.dump(results, open(args.json, "w"), indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
