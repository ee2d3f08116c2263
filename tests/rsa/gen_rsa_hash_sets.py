#!/usr/bin/env python3
"""Writes RSA signature-verification sets for the hashes beyond SHA-256/384/512, made with
python3-cryptography (OpenSSL), for `fipsmod kat` (cli/vectors/rsa.c, rsa_acvp.c):

- RSA-sigVer-FIPS186-4-hashes.json: an ACVP RSA sigVer (FIPS186-4) set in the
  internalProjection shape (testPassed in each test), with PKCS#1 v1.5 and PSS groups over
  SHA2-224, SHA2-512/224, SHA2-512/256, SHA3-256 and SHA3-384, and one SHA-1 group (the module
  verifies no SHA-1 signature: skipped);
- rsa_signature_2048_sha3_256_test.json, rsa_signature_2048_sha224_test.json (Wycheproof
  RsassaPkcs1Verify layout) and rsa_pss_2048_sha3_256_mgf1_32_test.json (RsassaPssVerify).

Each group has four valid signatures, two on a changed message and two changed signatures (both
invalid). The keys are fresh each run, so the files are not reproduced byte for byte; the
expected counts are: ACVP 48 passed, 8 skipped; each Wycheproof file 8 passed.

usage: gen_rsa_hash_sets.py OUT_DIR"""
import json
import os
import sys

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

HASHES = {"SHA-1": hashes.SHA1, "SHA2-224": hashes.SHA224, "SHA2-512/224": hashes.SHA512_224,
          "SHA2-512/256": hashes.SHA512_256, "SHA3-256": hashes.SHA3_256,
          "SHA3-384": hashes.SHA3_384}


def sign(key, msg, h, pss, slen):
    pad = padding.PSS(mgf=padding.MGF1(h()), salt_length=slen) if pss else padding.PKCS1v15()
    return key.sign(msg, pad, h())


def cases(key, h, pss, slen):
    """(message, signature, valid) eight times."""
    out = []
    for i in range(4):
        msg = os.urandom(1 + 17 * i)
        out.append((msg, sign(key, msg, h, pss, slen), True))
    for i in range(2):
        msg = os.urandom(24)
        sig = sign(key, msg, h, pss, slen)
        out.append((msg[:-1] + bytes([msg[-1] ^ 1]), sig, False))
    for i in range(2):
        msg = os.urandom(24)
        sig = bytearray(sign(key, msg, h, pss, slen))
        sig[len(sig) // 2 + i] ^= 0x10
        out.append((msg, bytes(sig), False))
    return out


def acvp_set(key):
    pub = key.public_key().public_numbers()
    groups = []
    plan = [("pkcs1v1.5", "SHA2-224", 0), ("pss", "SHA2-224", 28), ("pkcs1v1.5", "SHA2-512/224", 0),
            ("pss", "SHA2-512/256", 32), ("pss", "SHA3-256", 32), ("pkcs1v1.5", "SHA3-384", 0),
            ("pkcs1v1.5", "SHA-1", 0)]
    tc = 1
    for gi, (kind, hname, slen) in enumerate(plan, 1):
        tests = []
        for msg, sig, ok in cases(key, HASHES[hname], kind == "pss", slen):
            tests.append({"tcId": tc, "message": msg.hex().upper(), "signature": sig.hex().upper(),
                          "testPassed": ok})
            tc += 1
        g = {"tgId": gi, "testType": "GDT", "sigType": kind, "hashAlg": hname, "modulo": 2048,
             "n": format(pub.n, "X"), "e": format(pub.e, "X"), "tests": tests}
        if kind == "pss":
            g["saltLen"] = slen
            g["maskFunction"] = "mgf1"
        groups.append(g)
    return [{"acvVersion": "1.0"},
            {"vsId": 4186, "algorithm": "RSA", "mode": "sigVer", "revision": "FIPS186-4",
             "isSample": True, "testGroups": groups}]


def wycheproof(key, hname, pss, slen):
    pub = key.public_key()
    nums = pub.public_numbers()
    der = pub.public_bytes(serialization.Encoding.DER,
                           serialization.PublicFormat.SubjectPublicKeyInfo).hex()
    wname = {"SHA2-224": "SHA-224", "SHA3-256": "SHA3-256"}[hname]
    tests = []
    for i, (msg, sig, ok) in enumerate(cases(key, HASHES[hname], pss, slen), 1):
        tests.append({"tcId": i, "comment": "valid" if ok else "modified", "flags": [],
                      "msg": msg.hex(), "sig": sig.hex(), "result": "valid" if ok else "invalid"})
    group = {"type": "RsassaPssVerify" if pss else "RsassaPkcs1Verify", "keySize": 2048,
             "sha": wname, "publicKey": {"modulus": "00" + format(nums.n, "x"),
                                         "publicExponent": format(nums.e, "06x")},
             "publicKeyDer": der, "tests": tests}
    if pss:
        group.update({"mgf": "MGF1", "mgfSha": wname, "sLen": slen})
    return {"algorithm": "RSASSA-PSS" if pss else "RSASSA-PKCS1-v1_5",
            "schema": "rsassa_pss_verify_schema_v1.json" if pss else
                      "rsassa_pkcs1_verify_schema_v1.json",
            "numberOfTests": len(tests),
            "header": ["Self-generated (python3-cryptography) in the Wycheproof layout."],
            "notes": {}, "testGroups": [group]}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)

    def dump(name, obj):
        with open(os.path.join(out, name), "w") as f:
            json.dump(obj, f, indent=1)
            f.write("\n")

    dump("RSA-sigVer-FIPS186-4-hashes.json", acvp_set(key))
    dump("rsa_signature_2048_sha3_256_test.json", wycheproof(key, "SHA3-256", False, 0))
    dump("rsa_signature_2048_sha224_test.json", wycheproof(key, "SHA2-224", False, 0))
    dump("rsa_pss_2048_sha3_256_mgf1_32_test.json", wycheproof(key, "SHA3-256", True, 32))


if __name__ == "__main__":
    main()
