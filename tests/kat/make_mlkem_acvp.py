#!/usr/bin/env python3
"""Writes ACVP ML-KEM internalProjection files (the layout of draft-celi-acvp-ml-kem,
../shared/specs/acvp/ml-kem: prompt fields and answers in one file) from public vectors, so that
the ACVP binding (cli/vectors/mlkem.c) is run on every function of the specification:
- ML-KEM-keyGen-FIPS203: d, z -> ek, dk (Wycheproof mlkem_768_keygen_seed_test.json, the seed
  split into d and z);
- ML-KEM-encapDecap-FIPS203: encapsulation (ek, m -> c, k; Wycheproof encaps_test valid cases),
  decapsulation with keyFormat expanded (dk from keygen_seed, c and k from mlkem_768_test.json,
  including modified ciphertexts) and seed (ML-KEM-1024 from generated/mlkem/mlkem_1024_test.json),
  encapsulationKeyCheck (the encaps file's valid keys and its keys of the right length that fail
  the modulus check) and decapsulationKeyCheck (semi_expanded_decaps: a valid dk, and the
  corrupted hash and embedded key of the right length).
Deterministic: rerunning rewrites the same files. usage: make_mlkem_acvp.py OUTDIR"""
import json
import os
import sys

VEC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "vectors")


def load(*path):
    with open(os.path.join(VEC, *path)) as f:
        return json.load(f)


def tests_of(doc):
    return [t for g in doc["testGroups"] for t in g["tests"]]


def up(h):
    return h.upper()


def write(outdir, name, doc):
    d = os.path.join(outdir, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "internalProjection.json"), "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")


def main(outdir):
    kg = tests_of(load("mlkem", "mlkem_768_keygen_seed_test.json"))
    keygen = {"vsId": 0, "algorithm": "ML-KEM", "mode": "keyGen", "revision": "FIPS203",
              "isSample": True, "testGroups": [{"tgId": 1, "testType": "AFT",
                                                "parameterSet": "ML-KEM-768", "tests": []}]}
    for i, t in enumerate(kg[:25]):
        keygen["testGroups"][0]["tests"].append(
            {"tcId": i + 1, "d": up(t["seed"][:64]), "z": up(t["seed"][64:]),
             "ek": up(t["ek"]), "dk": up(t["dk"])})
    write(outdir, "ML-KEM-keyGen-FIPS203", keygen)

    dk_by_seed = {t["seed"]: t["dk"] for t in kg}
    enc = tests_of(load("mlkem", "mlkem_768_encaps_test.json"))
    dec = tests_of(load("mlkem", "mlkem_768_test.json"))
    semi = tests_of(load("mlkem", "mlkem_768_semi_expanded_decaps_test.json"))
    gen = tests_of(load("generated", "mlkem", "mlkem_1024_test.json"))
    tc = iter(range(1, 10000))
    groups = []
    groups.append({"tgId": 1, "testType": "AFT", "parameterSet": "ML-KEM-768",
                   "function": "encapsulation",
                   "tests": [{"tcId": next(tc), "ek": up(t["ek"]), "m": up(t["m"]),
                              "c": up(t["c"]), "k": up(t["K"])}
                             for t in enc if t["result"] == "valid"][:20]})
    groups.append({"tgId": 2, "testType": "VAL", "parameterSet": "ML-KEM-768",
                   "function": "decapsulation", "keyFormat": "expanded",
                   "tests": [{"tcId": next(tc), "dk": up(dk_by_seed[t["seed"]]), "c": up(t["c"]),
                              "k": up(t["K"])}
                             for t in dec if t["result"] == "valid" and t["seed"] in dk_by_seed]})
    groups.append({"tgId": 3, "testType": "VAL", "parameterSet": "ML-KEM-1024",
                   "function": "decapsulation", "keyFormat": "seed",
                   "tests": [{"tcId": next(tc), "seed": up(t["seed"]), "c": up(t["c"]),
                              "k": up(t["K"])} for t in gen]})
    ekc = [t for t in enc if len(t["ek"]) == 2 * 1184][:40]
    groups.append({"tgId": 4, "testType": "VAL", "parameterSet": "ML-KEM-768",
                   "function": "encapsulationKeyCheck",
                   "tests": [{"tcId": next(tc), "ek": up(t["ek"]),
                              "testPassed": t["result"] == "valid"} for t in ekc]})
    dkc = [t for t in semi if len(t["dk"]) == 2 * 2400 and
           ("hash" in t["comment"] or "embedded" in t["comment"] or t["result"] == "valid")]
    groups.append({"tgId": 5, "testType": "VAL", "parameterSet": "ML-KEM-768",
                   "function": "decapsulationKeyCheck",
                   "tests": [{"tcId": next(tc), "dk": up(t["dk"]),
                              "testPassed": t["result"] == "valid"} for t in dkc]})
    write(outdir, "ML-KEM-encapDecap-FIPS203",
          {"vsId": 0, "algorithm": "ML-KEM", "mode": "encapDecap", "revision": "FIPS203",
           "isSample": True, "testGroups": groups})
    for g in groups:
        print(g["function"], g.get("keyFormat", ""), len(g["tests"]),
              sum(1 for t in g["tests"] if t.get("testPassed") is False))


if __name__ == "__main__":
    main(sys.argv[1])
