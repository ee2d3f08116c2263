#!/usr/bin/env python3
"""Writes ACVP ML-DSA (FIPS204) internalProjection sets built from the Wycheproof ML-DSA-65 files
(tests/vectors/mldsa), for the `fipsmod acvp` / `fipsmod kat` ML-DSA binding (cli/vectors/mldsa.c),
in the format of draft-celi-acvp-ml-dsa: NIST's own sample sets are not in the project's store.

- sigVer: the verify file as one external/pure group (testPassed = the Wycheproof result); the
  public keys of the wrong length left out (ACVP never sends them);
- sigGen: the noseed file's valid tests: external/pure deterministic (context), internal with
  externalMu (mu), and the hedged one (its rnd) as external/pure non-deterministic;
- keyGen: not written: Wycheproof gives the seed and pk but not the expanded sk an ACVP answer holds.

usage: make_acvp_mldsa.py VECTORS_DIR OUT_DIR"""
import json
import os
import sys


def up(h):
    return h.upper()


def main():
    src, out = sys.argv[1:3]
    os.makedirs(out, exist_ok=True)
    ver = json.load(open(os.path.join(src, "mldsa_65_verify_test.json")))
    tests, tc = [], 1
    for g in ver["testGroups"]:
        if len(g["publicKey"]) != 2 * 1952:
            continue
        for t in g["tests"]:
            tests.append({"tcId": tc, "pk": up(g["publicKey"]), "message": up(t["msg"]),
                          "context": up(t.get("ctx", "")), "signature": up(t["sig"]),
                          "testPassed": t["result"] == "valid"})
            tc += 1
    sigver = {"vsId": 1, "algorithm": "ML-DSA", "mode": "sigVer", "revision": "FIPS204",
              "isSample": True, "testGroups": [{"tgId": 1, "testType": "AFT",
                                                 "parameterSet": "ML-DSA-65",
                                                 "signatureInterface": "external",
                                                 "preHash": "pure", "tests": tests}]}
    json.dump(sigver, open(os.path.join(out, "ML-DSA-sigVer-FIPS204.json"), "w"), indent=1)

    sign = json.load(open(os.path.join(src, "mldsa_65_sign_noseed_test.json")))
    pure, mu, hedged, tc = [], [], [], 1
    for g in sign["testGroups"]:
        sk = g["privateKey"]
        if len(sk) != 2 * 4032:
            continue
        for t in g["tests"]:
            if t["result"] != "valid":
                continue
            case = {"tcId": tc, "sk": up(sk), "signature": up(t["sig"])}
            tc += 1
            if "msg" not in t:
                case["mu"] = up(t["mu"])
                mu.append(case)
            elif "rnd" in t:
                case.update(message=up(t["msg"]), context=up(t.get("ctx", "")), rnd=up(t["rnd"]))
                hedged.append(case)
            else:
                case.update(message=up(t["msg"]), context=up(t.get("ctx", "")))
                pure.append(case)
    base = {"testType": "AFT", "parameterSet": "ML-DSA-65", "keyFormat": "expanded"}
    groups = [dict(base, tgId=1, signatureInterface="external", preHash="pure",
                   deterministic=True, tests=pure),
              dict(base, tgId=2, signatureInterface="internal", externalMu=True,
                   deterministic=True, tests=mu),
              dict(base, tgId=3, signatureInterface="external", preHash="pure",
                   deterministic=False, tests=hedged)]
    siggen = {"vsId": 2, "algorithm": "ML-DSA", "mode": "sigGen", "revision": "FIPS204",
              "isSample": True, "testGroups": groups}
    json.dump(siggen, open(os.path.join(out, "ML-DSA-sigGen-FIPS204.json"), "w"), indent=1)
    print(f"sigVer {len(tests)} tests, sigGen {len(pure)} + {len(mu)} + {len(hedged)}")


if __name__ == "__main__":
    main()
