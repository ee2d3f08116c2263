#!/usr/bin/env python3
"""ctest driver: `fipsmod kat` on the self-generated Wycheproof-layout EC files of
gen_wycheproof_ec.py (P-224, P-384, P-521, SHA-3 and the truncated SHA-2 hashes; ECDSA DER and
P1363, ECDH SPKI and points). Files of offered curves and hashes must pass with no failure; those
on secp256k1 or with SHAKE128 must be skipped entirely. The runner must be able to fail: each file
is run again with its first valid case marked "invalid", which `fipsmod kat` must report.

usage: run_wycheproof_ec.py FIPSMOD OUTDIR [--seed N]
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def kat(fipsmod, path):
    p = subprocess.run([fipsmod, "kat", path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    m = re.search(r"total: (\d+) passed, (\d+) failed, (\d+) skipped", p.stdout)
    counts = tuple(int(x) for x in m.groups()) if m else None
    return p.returncode, counts, p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fipsmod")
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=None)
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else int.from_bytes(os.urandom(4), "big")
    subprocess.run([sys.executable, os.path.join(HERE, "gen_wycheproof_ec.py"), a.out, "--seed",
                    str(seed)], check=True)
    failures = []
    for name in sorted(os.listdir(a.out)):
        if not name.endswith("_test.json") or name.endswith("_flipped_test.json"):
            continue
        path = os.path.join(a.out, name)
        rc, counts, out = kat(a.fipsmod, path)
        unsupported = "secp256k1" in name or "shake" in name
        print("%s: %s" % (name, counts))
        if counts is None:
            failures.append("%s: no total line (exit %d)\n%s" % (name, rc, out))
        elif unsupported and (counts[0] or counts[1] or not counts[2]):
            failures.append("%s: expected every case skipped\n%s" % (name, out))
        elif not unsupported and (rc != 0 or counts[1] or not counts[0]):
            failures.append("%s: exit %d\n%s" % (name, rc, out))
        if unsupported:
            continue
        doc = json.load(open(path))
        for t in doc["testGroups"][0]["tests"]:
            if t["result"] == "valid":
                t["result"] = "invalid"
                break
        flipped = path.replace("_test.json", "_flipped_test.json")
        json.dump(doc, open(flipped, "w"))
        rc, counts, out = kat(a.fipsmod, flipped)
        if rc == 0 or counts is None or counts[1] != 1:
            failures.append("%s: a valid case marked invalid was not reported (exit %d, %s)"
                            % (name, rc, counts))
    for f in failures:
        print("FAIL " + f)
    print("seed %d: %s" % (seed, "FAILED" if failures else "all files as expected"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
