#!/usr/bin/env python3
"""Writes Wycheproof-format HKDF and PBKDF2 files for the hashes the project holds no Wycheproof
copy of (tests/vectors/generated/wycheproof/): the same fields, schema names, notes, flags and
kinds of cases as C2SP/wycheproof's testvectors_v1/hkdf_sha384_test.json and
pbkdf2_hmacsha512_test.json (read for their layout, not copied), with inputs from a fixed seed
and outputs computed here with `cryptography` (HKDF) and hashlib (PBKDF2), never with the module.

- hkdf_sha384_test.json, hkdf_sha512_test.json: run by the module. Groups by keySize (the IKM
  bits); Normal cases with and without salt and info, one MaximalOutputSize case (255 * HashLen
  bytes) and one SizeTooLarge case ("invalid": 255 * HashLen + 1 bytes, RFC 5869 2.3) per group,
  OutputCollision cases (an empty salt equals HashLen zero bytes; a salt longer than the hash's
  block equals its hash).
- hkdf_sha1_test.json, pbkdf2_hmacsha1_test.json, pbkdf2_hmacsha224_test.json: hashes the module
  does not offer, to be skipped with the reason.
- pbkdf2_hmacsha384_test.json: run by the module (the SHA-512 one is a Wycheproof copy in
  tests/vectors/wycheproof/).

usage: make_wycheproof_kdf.py OUTDIR  (the committed files were written with OUTDIR =
tests/vectors/generated/wycheproof; rerunning reproduces them byte for byte: ctest
kat-generated-wycheproof-reproducible checks that)."""
import hashlib
import json
import os
import random
import sys

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

R = random.Random(5869)
HKDF_NOTES = {
    "EmptySalt": {
        "bugType": "FUNCTIONALITY",
        "description": "An empty salt is a valid input for HKDF. It is equivalent to a salt with "
                       "n zero bytes, where n is the size of the underlying hash function."},
    "MaximalOutputSize": {
        "bugType": "EDGE_CASE",
        "description": "The test vector contains an output with maximal output size."},
    "Normal": {
        "bugType": "BASIC",
        "description": "The test vector contains a pseudorandomly generated, valid test case. "
                       "Implementations are expected to pass this test."},
    "OutputCollision": {
        "bugType": "FUNCTIONALITY",
        "description": "HKDF can generate identical output for distinct inputs. This happens "
                       "because the underlying HMAC extends or hashes some inputs. This test "
                       "vector contains some HKDF inputs that gives the same output as some "
                       "other test vector.",
        "effect": "HKDF should not be used with variable length user defined salt."},
    "SizeTooLarge": {
        "bugType": "MISSING_STEP",
        "description": "The output size of HKDF is limited to 255*size of the hash digest.",
        "effect": "Computing outputs with a size larger than the limit allows to find colliding "
                  "outputs."},
}
PBKDF_NOTES = {
    "Ascii": {"bugType": "FUNCTIONALITY",
              "description": "The test vector contains a password consisting of ASCII characters."},
    "NonUtf8": {"bugType": "FUNCTIONALITY",
                "description": "The test vector contains a password that is not a valid UTF-8 "
                               "string."},
    "Printable": {"bugType": "FUNCTIONALITY",
                  "description": "The test vector contains a password consisting of printable "
                                 "ASCII characters."},
    "Pseudorandom": {"bugType": "BASIC", "description": "Pseudorandomly generated test vector"},
    "Utf8": {"bugType": "FUNCTIONALITY",
             "description": "The test vector contains a password that is a valid UTF-8 string."},
}
SOURCE = {"name": "fipsmod tests/kat/make_wycheproof_kdf.py", "version": "1"}
# name: (cryptography hash, hashlib name, digest bytes, block bytes)
HASHES = {"SHA-1": (hashes.SHA1, "sha1", 20, 64),
          "SHA-224": (hashes.SHA224, "sha224", 28, 64),
          "SHA-384": (hashes.SHA384, "sha384", 48, 128),
          "SHA-512": (hashes.SHA512, "sha512", 64, 128)}


def rb(n):
    return bytes(R.getrandbits(8) for _ in range(n))


def hkdf(h, ikm, salt, info, size):
    return HKDF(algorithm=HASHES[h][0](), length=size, salt=salt or None, info=info).derive(ikm)


def hkdf_file(h, key_sizes):
    hlen, block = HASHES[h][2], HASHES[h][3]
    groups, n = [], 0

    def test(comment, flags, ikm, salt, info, size, valid=True):
        nonlocal n
        n += 1
        return {"tcId": n, "comment": comment, "flags": flags, "ikm": ikm.hex(),
                "salt": salt.hex(), "info": info.hex(), "size": size,
                "okm": hkdf(h, ikm, salt, info, size).hex() if valid else "",
                "result": "valid" if valid else "invalid"}

    for bits in key_sizes:
        tests = []
        for salt_len in (0, 16, 30, 64):
            for info_len in (0, 20):
                for size in (20, 42, 64):
                    flags = ["Normal"] + (["EmptySalt"] if salt_len == 0 else [])
                    tests.append(test("", flags, rb(bits // 8), rb(salt_len), rb(info_len), size))
        tests.append(test("maximal output size", ["MaximalOutputSize"], rb(bits // 8), rb(32),
                          rb(8), 255 * hlen))
        tests.append(test("invalid output size", ["SizeTooLarge"], rb(bits // 8), rb(32), rb(8),
                          255 * hlen + 1, valid=False))
        groups.append({"type": "HkdfTest", "source": SOURCE, "keySize": bits, "tests": tests})
    ikm, info, salt = rb(32), rb(20), rb(block + 17)
    coll = [test("output collision for different salts", ["OutputCollision", "EmptySalt"], ikm,
                 b"", info, 32),
            test("output collision for different salts", ["OutputCollision"], ikm, bytes(hlen),
                 info, 32),
            test("a salt longer than the block size of the hash is equivalent to its hash",
                 ["OutputCollision"], ikm, salt, info, 32),
            test("a salt longer than the block size of the hash is equivalent to its hash",
                 ["OutputCollision"], ikm, hashlib.new(HASHES[h][1], salt).digest(), info, 32)]
    assert coll[0]["okm"] == coll[1]["okm"] and coll[2]["okm"] == coll[3]["okm"]
    groups[-1]["tests"] += coll
    return {"algorithm": "HKDF-" + h, "schema": "hkdf_test_schema_v1.json", "numberOfTests": n,
            "header": ["Test vector of type HkdfTest are intended for the verification of HKDF.",
                       "Generated in the Wycheproof format by fipsmod's "
                       "tests/kat/make_wycheproof_kdf.py, not by Wycheproof."],
            "notes": HKDF_NOTES, "testGroups": groups}


def password(kind):
    if kind == "Printable":
        return bytes(R.choice(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
                     for _ in range(R.choice((8, 17))))
    if kind == "Ascii":
        return bytes(R.randrange(1, 128) for _ in range(R.choice((12, 20))))
    if kind == "Utf8":
        letters = "äöüßéèñçøåжщяλπΩ€漢字"
        return "".join(R.choice(letters) for _ in range(R.choice((4, 8)))).encode()
    return bytes([0xff, 0xc0]) + rb(R.choice((6, 15)))  # never valid UTF-8


def pbkdf2_file(h, iterations):
    tests, n = [], 0
    for kind in ("Printable", "Ascii", "Utf8", "NonUtf8"):
        for salt_len in (8, 16):
            for dk_len in (16, 42, 65):
                n += 1
                pw, salt, c = password(kind), rb(salt_len), iterations[n % len(iterations)]
                tests.append({"tcId": n, "comment": "", "flags": ["Pseudorandom", kind],
                              "password": pw.hex(), "salt": salt.hex(), "iterationCount": c,
                              "dkLen": dk_len,
                              "dk": hashlib.pbkdf2_hmac(HASHES[h][1], pw, salt, c, dk_len).hex(),
                              "result": "valid"})
    for comment, pw, kind in (("empty password", b"", "Printable"),
                              ("long password", password("NonUtf8") + rb(200), "NonUtf8")):
        n += 1
        salt = rb(8)
        tests.append({"tcId": n, "comment": comment, "flags": ["Pseudorandom", kind],
                      "password": pw.hex(), "salt": salt.hex(), "iterationCount": 4096,
                      "dkLen": 32,
                      "dk": hashlib.pbkdf2_hmac(HASHES[h][1], pw, salt, 4096, 32).hex(),
                      "result": "valid"})
    return {"algorithm": "PBKDF2-HMAC" + h.replace("-", ""), "schema": "pbkdf_test_schema.json",
            "numberOfTests": n,
            "header": ["Test vector of type PbkdfTest are for password based key derivations.",
                       "Generated in the Wycheproof format by fipsmod's "
                       "tests/kat/make_wycheproof_kdf.py, not by Wycheproof."],
            "notes": PBKDF_NOTES,
            "testGroups": [{"type": "PbkdfTest", "source": SOURCE, "tests": tests}]}


def write(outdir, name, doc):
    with open(os.path.join(outdir, name), "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    write(outdir, "hkdf_sha384_test.json", hkdf_file("SHA-384", (128, 160, 256)))
    write(outdir, "hkdf_sha512_test.json", hkdf_file("SHA-512", (128, 256, 512)))
    write(outdir, "hkdf_sha1_test.json", hkdf_file("SHA-1", (128,)))
    write(outdir, "pbkdf2_hmacsha384_test.json", pbkdf2_file("SHA-384", (1, 2, 4096)))
    write(outdir, "pbkdf2_hmacsha1_test.json", pbkdf2_file("SHA-1", (1, 2, 4096)))
    write(outdir, "pbkdf2_hmacsha224_test.json", pbkdf2_file("SHA-224", (1, 2, 4096)))


if __name__ == "__main__":
    main()
