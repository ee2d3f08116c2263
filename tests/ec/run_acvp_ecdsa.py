#!/usr/bin/env python3
"""ctest driver for the ACVP EC bindings (cli/vectors/ecdsa_acvp.c, kas_ecc.c).

1. gen_acvp_ecdsa.py writes self-generated ECDSA / DetECDSA / KAS-ECC-SSC / CDH-Component sets;
2. `fipsmod acvp` answers each prompt, and check_acvp_ecdsa.py checks the response from outside
   the module (python3-cryptography);
3. `fipsmod kat prompt.json expectedResults.json` must pass every offered test, fail none, and
   skip exactly the groups the generator wrote for offers the module lacks;
4. the checks can fail: a response with one answer changed (an r, a z, a testPassed, a d) must be
   rejected by the checker, and an expectedResults.json with one testPassed flipped must make
   `fipsmod kat` fail.

usage: run_acvp_ecdsa.py FIPSMOD OUTDIR [--tests N] [--seed N]
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def load(path):
    with open(path) as f:
        return json.load(f)


def body(root):
    return next(x for x in root if "testGroups" in x) if isinstance(root, list) else root


def corrupt_response(resp):
    """Changes the first answer field found (r, z, hashZ, d or testPassed); returns its name."""
    b = body(resp)
    for g in b["testGroups"]:
        for t in g["tests"]:
            for f in ("r", "z", "hashZ", "d"):
                if f in t:
                    v = t[f]
                    t[f] = v[:-1] + ("0" if v[-1] != "0" else "1")
                    return f
            if "testPassed" in t:
                t["testPassed"] = not t["testPassed"]
                return "testPassed"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fipsmod")
    ap.add_argument("out")
    ap.add_argument("--tests", type=int, default=2)
    ap.add_argument("--seed", type=int, default=None)
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else int.from_bytes(os.urandom(4), "big")
    rc, out = run([sys.executable, os.path.join(HERE, "gen_acvp_ecdsa.py"), a.out, "--seed",
                   str(seed), "--tests", str(a.tests)])
    if rc != 0:
        print(out)
        return 1
    failures = []
    checker = [sys.executable, os.path.join(HERE, "check_acvp_ecdsa.py")]
    for name in sorted(os.listdir(a.out)):
        d = os.path.join(a.out, name)
        prompt, expected = os.path.join(d, "prompt.json"), os.path.join(d, "expectedResults.json")
        if not os.path.isfile(prompt):
            continue
        resp = os.path.join(d, "response.json")
        rc, out = run([a.fipsmod, "acvp", prompt, "-o", resp])
        if rc != 0:
            failures.append("%s: fipsmod acvp exited %d:\n%s" % (name, rc, out))
            continue
        rc, out = run(checker + [prompt, expected, resp])
        print(out.strip().splitlines()[-1] if out.strip() else name)
        if rc != 0:
            failures.append("%s: the response check failed:\n%s" % (name, out))
        rc, out = run([a.fipsmod, "kat", prompt, expected])
        m = re.search(r"total: (\d+) passed, (\d+) failed, (\d+) skipped", out)
        print("  fipsmod kat: " + (m.group(0) if m else "no total line"))
        if rc != 0 or m is None or int(m.group(1)) == 0 or int(m.group(2)) != 0:
            failures.append("%s: fipsmod kat (exit %d):\n%s" % (name, rc, out))
        # The checks must be able to fail.
        bad = load(resp)
        field = corrupt_response(bad)
        badp = os.path.join(d, "response-corrupt.json")
        with open(badp, "w") as f:
            json.dump(bad, f)
        rc, out = run(checker + [prompt, expected, badp])
        if field is None or rc == 0:
            failures.append("%s: the checker accepted a response with %s changed" % (name, field))
        exp = load(expected)
        flipped = False
        for g in body(exp)["testGroups"]:
            for t in g["tests"]:
                if "testPassed" in t and not flipped:
                    t["testPassed"] = not t["testPassed"]
                    flipped = True
        if flipped:
            bade = os.path.join(d, "expected-flipped.json")
            with open(bade, "w") as f:
                json.dump(exp, f)
            rc, out = run([a.fipsmod, "kat", prompt, bade])
            if rc == 0 or re.search(r"total: \d+ passed, 0 failed", out):
                failures.append("%s: fipsmod kat passed with a testPassed flipped" % name)
    for f in failures:
        print("FAIL " + f)
    print("seed %d: %s" % (seed, "FAILED" if failures else "all sets passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
